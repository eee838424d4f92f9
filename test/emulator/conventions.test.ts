import { describe, expect, it } from "vitest";
import {
  authDnsServiceId,
  createZone,
  expectError,
  ISO_MS,
  makeApi,
  type Res,
  startHarness,
  useAccounts,
} from "../helpers/emulator-http";

const h = useAccounts("alice");

describe("authentication and scope", () => {
  it("refuses a request without a token", async () => {
    const r = await h.api("GET", "/me", undefined, { token: null });
    expectError(r, 401, "unauthorized");
  });

  it("refuses an unknown token and a non-bearer scheme", async () => {
    expectError(
      await h.api("GET", "/me", undefined, { token: "svc_ffffffffffffffffffffffffffffffff" }),
      401,
      "unauthorized",
    );
    const basic = await h.api("GET", "/me", undefined, {
      token: null,
      headers: { authorization: `Basic ${h.tokens.write}` },
    });
    expectError(basic, 401, "unauthorized");
  });

  it("answers 401 before 404 so paths are not disclosed", async () => {
    expectError(await h.api("GET", "/no/such/path", undefined, { token: null }), 401, "unauthorized");
  });

  it("lets a read token read and forbids it to write", async () => {
    const read = await h.api("GET", "/me", undefined, { token: h.tokens.read });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("alice");
    const sid = await authDnsServiceId(h.api);
    const w = await h.api(
      "POST",
      "/dns/zones",
      { service_id: sid, name: "forbidden.example" },
      { token: h.tokens.read },
    );
    expectError(w, 403, "forbidden");
    // forbidden wins over a bad body: scope is checked before validation
    expectError(await h.api("POST", "/dns/zones", { nope: 1 }, { token: h.tokens.read }), 403, "forbidden");
    const list = await h.api("GET", "/dns/zones", undefined, { token: h.tokens.read });
    expect(list.body.data.map((z: any) => z.name)).not.toContain("forbidden.example");
  });

  it("lets a link token read but not write", async () => {
    const link = await h.control("POST", "/_emulator/accounts", { name: "alice", scope: "link" });
    expect((await h.api("GET", "/dns/zones", undefined, { token: link.body.token })).status).toBe(200);
    const sid = await authDnsServiceId(h.api);
    const w = await h.api("POST", "/dns/zones", { service_id: sid, name: "link.example" }, { token: link.body.token });
    expectError(w, 403, "forbidden");
  });

  it("lets a write token read (write implies read)", async () => {
    const r = await h.api("GET", "/services");
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(4);
  });
});

describe("version header and error statuses", () => {
  it("sends X-Service-Api-Version: 1 on success, 401, 404, 405 and 400", async () => {
    const responses = [
      await h.api("GET", "/me"),
      await h.api("GET", "/me", undefined, { token: null }),
      await h.api("GET", "/nothing-here"),
      await h.api("DELETE", "/me"),
      await h.api("POST", "/dns/zones", undefined, { raw: "{nope" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 405, 400]);
    for (const r of responses) expect(r.headers.get("x-service-api-version")).toBe("1");
    const outside = await fetch(`${h.origin}/`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get("x-service-api-version")).toBe("1");
  });

  it("answers not_found for unknown paths, other versions and non-integer ids", async () => {
    expectError(await h.api("GET", "/dns/zonez"), 404, "not_found");
    expectError(await h.api("GET", "/dns/zones/abc"), 404, "not_found");
    expectError(await h.api("GET", "/dns/zones/1.5"), 404, "not_found");
    expectError(await h.api("GET", "/dns/zones/-1"), 404, "not_found");
    expectError(await h.api("GET", "/dns/zones/999999"), 404, "not_found");
    const v2 = await fetch(`${h.origin}/api/v2/me`, { headers: { authorization: `Bearer ${h.tokens.write}` } });
    expect(v2.status).toBe(404);
    expect(((await v2.json()) as any).error.code).toBe("not_found");
  });

  it("answers method_not_allowed with an Allow header", async () => {
    const r = await h.api("PUT", "/dns/zones");
    expectError(r, 405, "method_not_allowed");
    expect(r.headers.get("allow")).toBe("GET, POST");
    const one = await h.api("POST", "/dns/zones/1");
    expect(one.headers.get("allow")).toBe("DELETE, GET, PATCH");
  });

  it("rejects malformed JSON, a non-object body and unknown fields, naming the field", async () => {
    const malformed = await h.api("POST", "/dns/zones", undefined, { raw: '{"name":' });
    expectError(malformed, 400, "validation_error");
    expect(malformed.body.error.message).toMatch(/^body: malformed JSON/);

    const arr = await h.api("POST", "/dns/zones", [1, 2]);
    expectError(arr, 400, "validation_error");
    expect(arr.body.error.message).toBe("body: must be an object");

    const sid = await authDnsServiceId(h.api);
    const unknown = await h.api("POST", "/dns/zones", { service_id: sid, name: "x.example", colour: "red" });
    expectError(unknown, 400, "validation_error");
    expect(unknown.body.error.message).toBe("colour: unknown field");

    const missing = await h.api("POST", "/dns/zones", { service_id: sid });
    expect(missing.body.error.message).toBe("name: is required");
    const wrongType = await h.api("POST", "/dns/zones", { service_id: "2", name: "x.example" });
    expect(wrongType.body.error.message).toBe("service_id: must be an integer");
  });

  it("rejects unknown query parameters", async () => {
    const r = await h.api("GET", "/dns/zones?colour=red");
    expectError(r, 400, "validation_error");
    expect(r.body.error.message).toBe("colour: unknown field");
  });

  it("answers 413 validation_error for a body over 1 MiB and writes nothing", async () => {
    const sid = await authDnsServiceId(h.api);
    const before = (await h.api("GET", "/dns/zones")).body.data.length;
    const big = JSON.stringify({ service_id: sid, name: "big.example", pad: "x".repeat(1024 * 1024 + 10) });
    const r = await h.api("POST", "/dns/zones", undefined, { raw: big });
    expectError(r, 413, "validation_error");
    expect(r.body.error.message).toMatch(/^body: must be at most 1048576 bytes/);
    const after = (await h.api("GET", "/dns/zones")).body.data;
    expect(after.length).toBe(before);
    expect(after.map((z: any) => z.name)).not.toContain("big.example");
    // the connection is still usable afterwards
    expect((await h.api("GET", "/me")).status).toBe(200);
  });

  it("takes a zone file over 1 MiB in an import, as the one body that grows with the zone", async () => {
    const zone = (
      await h.api("POST", "/dns/zones", { service_id: await authDnsServiceId(h.api), name: "bigfile.example" })
    ).body;
    const lines = Array.from({ length: 40_000 }, (_, i) => `host${i} 3600 IN A 10.0.${(i >> 8) & 255}.${i & 255}`).join(
      "\n",
    );
    expect(lines.length).toBeGreaterThan(1024 * 1024);
    const r = await h.api("POST", `/dns/zones/${zone.id}/import`, { text: lines, mode: "preview" });
    expect(r.status).toBe(200);
    expect(r.body.added).toBe(40_000);
  });
});

describe("paging", () => {
  it("walks three pages and ends with next_offset null", async () => {
    const { api, emu } = await startHarness();
    try {
      for (let i = 0; i < 7; i++) await createZone(api, `page${i}.example`);
      const seen: string[] = [];
      const pagings: any[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const r: Res = await api("GET", `/dns/zones?limit=3&offset=${offset}`);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(["data", "paging"]);
        seen.push(...r.body.data.map((z: any) => z.name));
        pagings.push(r.body.paging);
        offset = r.body.paging.next_offset;
      }
      expect(pagings).toEqual([
        { limit: 3, offset: 0, count: 3, next_offset: 3 },
        { limit: 3, offset: 3, count: 3, next_offset: 6 },
        { limit: 3, offset: 6, count: 1, next_offset: null },
      ]);
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `page${i}.example`));

      const dflt = await api("GET", "/dns/zones");
      expect(dflt.body.paging).toEqual({ limit: 100, offset: 0, count: 7, next_offset: null });
      const clamped = await api("GET", "/dns/zones?limit=10000");
      expect(clamped.body.paging.limit).toBe(500);
      const past = await api("GET", "/dns/zones?offset=50");
      expect(past.body).toEqual({ data: [], paging: { limit: 100, offset: 50, count: 0, next_offset: null } });
      for (const bad of ["limit=0", "limit=abc", "offset=-1", "limit=1.5"]) {
        const r = await api("GET", `/dns/zones?${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.body.error.message).toMatch(/^(limit|offset): /);
      }
    } finally {
      await emu.close();
    }
  });
});

describe("accounts", () => {
  it("keeps accounts isolated: another account's ids are not_found", async () => {
    const zone = await createZone(h.api, "isolated.example");
    const bob = makeApi(h.emu.baseUrl, h.tokens.other);
    expectError(await bob("GET", `/dns/zones/${zone.id}`), 404, "not_found");
    expectError(await bob("PATCH", `/dns/zones/${zone.id}`, { enabled: false }), 404, "not_found");
    expectError(await bob("DELETE", `/dns/zones/${zone.id}`), 404, "not_found");
    expectError(await bob("GET", `/dns/zones/${zone.id}/records`), 404, "not_found");
    const bobZones = await bob("GET", "/dns/zones");
    expect(bobZones.body.data).toEqual([]);
    // a service of another account reads like a missing one
    const aliceSid = await authDnsServiceId(h.api);
    const viaForeign = await bob("POST", "/dns/zones", { service_id: aliceSid, name: "steal.example" });
    expectError(viaForeign, 400, "validation_error");
    expect(viaForeign.body.error.message).toMatch(/^service_id: /);
    expectError(await bob("GET", `/services/${aliceSid}`), 404, "not_found");
    // the same zone name is fine in another account
    const bobZone = await createZone(bob, "isolated.example");
    expect(bobZone.id).not.toBe(zone.id);
    expect((await h.api("GET", `/dns/zones/${zone.id}`)).body.enabled).toBe(true);
  });

  it("hands out integer ids that are unique across accounts, and RFC 3339 ms timestamps", async () => {
    const bob = makeApi(h.emu.baseUrl, h.tokens.other);
    const aliceSvc = (await h.api("GET", "/services")).body.data.map((s: any) => s.id);
    const bobSvc = (await bob("GET", "/services")).body.data.map((s: any) => s.id);
    const all = [...aliceSvc, ...bobSvc];
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) expect(Number.isInteger(id)).toBe(true);
    const z = await createZone(h.api, "stamp.example");
    expect(z.created_at).toMatch(ISO_MS);
  });

  it("adds accounts and tokens at run time through the control API", async () => {
    const r = await h.control("POST", "/_emulator/accounts", { name: "carol" });
    expect(r.status).toBe(201);
    expect(r.body.token).toMatch(/^svc_[0-9a-f]{32}$/);
    expect(r.body.scope).toBe("write");
    const carol = makeApi(h.emu.baseUrl, r.body.token);
    const me = await carol("GET", "/me");
    expect(me.body).toEqual({
      email: "carol@example.test",
      name: "carol",
      role: "admin",
      auth: "token",
      api_enabled: true,
    });
    const ro = await h.control("POST", "/_emulator/accounts", { name: "carol", scope: "read" });
    expect((await carol("GET", "/me", undefined, { token: ro.body.token })).body.name).toBe("carol");
    const bad = await h.control("POST", "/_emulator/accounts", { name: "dave", token: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^token: /);
  });
});
