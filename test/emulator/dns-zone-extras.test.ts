// Contract details of the per-zone settings that the provider's resources rely on: key
// rotation, scoping to the caller's account, scopes, and range moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type Harness, createZone, makeApi, startHarness } from "../helpers/emulator-http";

let h: Harness;
let other: Api;
let reader: Api;

beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "owner" }] });
  other = makeApi(h.emu.baseUrl, (await h.control("POST", "/_emulator/accounts", { name: "stranger" })).body.token);
  reader = makeApi(
    h.emu.baseUrl,
    (await h.control("POST", "/_emulator/accounts", { name: "owner", scope: "read" })).body.token,
  );
});
afterAll(() => h.emu.close());

describe("TSIG key rotation", () => {
  it("makes a new secret when the key is removed and requested again, bumping the serial each time", async () => {
    const z = await createZone(h.api, "rotate.example");
    const url = `/dns/zones/${z.id}/transfer`;
    const first = await h.api("PUT", url, { allow: ["192.0.2.0/24"], tsig: true });
    expect(first.body).toMatchObject({
      tsig_configured: true,
      tsig_name: `xfr-${z.id}.rotate.example`,
      tsig_algorithm: "hmac-sha256",
    });
    const off = await h.api("PUT", url, { tsig: false });
    expect(off.body).toEqual({ allow: ["192.0.2.0/24"], notify: [], tsig_name: null, tsig_configured: false });
    const second = await h.api("PUT", url, { tsig: true });
    expect(Buffer.from(second.body.tsig_secret, "base64")).toHaveLength(32);
    expect(second.body.tsig_secret).not.toBe(first.body.tsig_secret);
    expect(second.body.tsig_name).toBe(first.body.tsig_name);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial + 3);
    // A PUT that changes nothing leaves the serial alone and shows no secret.
    const same = await h.api("PUT", url, { allow: ["192.0.2.0/24"], notify: [], tsig: true });
    expect(same.body.tsig_secret).toBeUndefined();
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial + 3);
  });
});

describe("DNSSEC keys", () => {
  it("are replaced after signing is turned off and on again", async () => {
    const z = await createZone(h.api, "rekey.example");
    const url = `/dns/zones/${z.id}/dnssec`;
    const first = (await h.api("PUT", url, { enabled: true })).body;
    await h.api("PUT", url, { enabled: false });
    const second = (await h.api("PUT", url, { enabled: true })).body;
    expect(second.dnskey).not.toBe(first.dnskey);
    expect(second.ds).not.toBe(first.ds);
    // Turning off what is off changes nothing.
    const serial = (await h.api("GET", `/dns/zones/${z.id}`)).body.serial;
    await h.api("PUT", url, { enabled: true });
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(serial);
  });
});

describe("zone settings belong to the zone's account", () => {
  it("answers not_found to another account for every settings endpoint", async () => {
    const z = await createZone(h.api, "private.example");
    const base = `/dns/zones/${z.id}`;
    for (const [method, path, body] of [
      ["GET", `${base}/dnssec`, undefined],
      ["PUT", `${base}/dnssec`, { enabled: true }],
      ["GET", `${base}/transfer`, undefined],
      ["PUT", `${base}/transfer`, { tsig: true }],
      ["GET", `${base}/grants`, undefined],
      ["PUT", `${base}/grants/x@example.test`, { role: "viewer" }],
      ["GET", `${base}/ranges`, undefined],
      ["POST", `${base}/verify`, undefined],
    ] as const) {
      const r = await other(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect((await h.api("GET", `${base}/transfer`)).body.tsig_configured).toBe(false);
  });

  it("lets a read token read the settings but not change them", async () => {
    const z = await createZone(h.api, "read-only.example");
    const base = `/dns/zones/${z.id}`;
    expect((await reader("GET", `${base}/dnssec`)).status).toBe(200);
    expect((await reader("GET", `${base}/transfer`)).status).toBe(200);
    expect((await reader("GET", `${base}/grants`)).status).toBe(200);
    for (const [method, path, body] of [
      ["PUT", `${base}/dnssec`, { enabled: true }],
      ["PUT", `${base}/transfer`, { tsig: true }],
      ["PUT", `${base}/grants/x@example.test`, { role: "viewer" }],
      ["POST", `${base}/verify`, undefined],
      ["POST", "/dns/ranges", { prefix: "192.0.2.0/24" }],
    ] as const) {
      const r = await reader(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe("forbidden");
    }
  });
});

describe("grants by address", () => {
  it("accept URL-encoded addresses with plus signs and match them without case", async () => {
    const z = await createZone(h.api, "plus.example");
    const url = `/dns/zones/${z.id}/grants`;
    const put = await h.api("PUT", `${url}/${encodeURIComponent("Ops+DNS@Example.test")}`, { role: "operator" });
    expect(put.body).toMatchObject({ email: "ops+dns@example.test", role: "operator" });
    expect((await h.api("GET", url)).body.data.map((g: any) => g.email)).toEqual(["ops+dns@example.test"]);
    expect((await h.api("DELETE", `${url}/${encodeURIComponent("OPS+dns@example.test")}`)).status).toBe(204);
    expect((await h.api("GET", url)).body.data).toEqual([]);
    expect((await h.api("PUT", `${url}/x@example.test`, {})).body.error.message).toBe("role: is required");
  });
});

describe("range moves", () => {
  it("refuses a move onto another grant or out of the zone, and keeps the range unchanged", async () => {
    const z = await createZone(h.api, "113.0.203.in-addr.arpa");
    const url = `/dns/zones/${z.id}/ranges`;
    const a = (await h.api("POST", url, { prefix: "203.0.113.0/25", owner: "a" })).body;
    const b = (await h.api("POST", url, { prefix: "203.0.113.128/26", owner: "b" })).body;
    const clash = await h.api("PATCH", `${url}/${a.id}`, { prefix: "203.0.113.128/25", owner: "changed" });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe("conflict");
    const outside = await h.api("PATCH", `${url}/${a.id}`, { prefix: "198.51.100.0/25" });
    expect(outside.status).toBe(400);
    expect(outside.body.error.message).toMatch(/^prefix: .*outside 203\.0\.113\.0\/24/);
    const rows = (await h.api("GET", "/dns/ranges")).body.data.filter((r: any) => r.zone_id === z.id);
    expect(rows.map((r: any) => `${r.prefix}:${r.owner}`)).toEqual(["203.0.113.0/25:a", "203.0.113.128/26:b"]);
    // Moving within itself is fine, and a range id under another zone is not_found.
    expect((await h.api("PATCH", `${url}/${a.id}`, { prefix: "203.0.113.0/26" })).body.prefix).toBe("203.0.113.0/26");
    const z2 = await createZone(h.api, "114.0.203.in-addr.arpa");
    expect((await h.api("PATCH", `/dns/zones/${z2.id}/ranges/${b.id}`, { owner: "x" })).status).toBe(404);
    expect((await h.api("DELETE", `/dns/zones/${z2.id}/ranges/${b.id}`)).status).toBe(404);
  });

  it("pages the account-wide list", async () => {
    const z = await createZone(h.api, "7.0.192.in-addr.arpa");
    for (const p of ["192.0.7.0/30", "192.0.7.4/30", "192.0.7.8/30"])
      expect((await h.api("POST", `/dns/zones/${z.id}/ranges`, { prefix: p })).status).toBe(201);
    const all = (await h.api("GET", "/dns/ranges")).body.data.length;
    const page = await h.api("GET", "/dns/ranges?limit=2&offset=1");
    expect(all).toBeGreaterThanOrEqual(3);
    expect(page.body.paging).toEqual({ limit: 2, offset: 1, count: 2, next_offset: all > 3 ? 3 : null });
  });
});
