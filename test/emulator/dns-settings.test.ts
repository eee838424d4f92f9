import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, createZone, makeApi, startHarness } from "../helpers/emulator-http";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.emu.close());

describe("dnssec", () => {
  it("is off by default, publishes DS and DNSKEY when on, keeps the key when enabled twice", async () => {
    const z = await createZone(h.api, "signed.example");
    const off = await h.api("GET", `/dns/zones/${z.id}/dnssec`);
    expect(off.body).toEqual({ enabled: false, ds: null, dnskey: null, warning: "" });
    const on = await h.api("PUT", `/dns/zones/${z.id}/dnssec`, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    expect(on.body.ds).toMatch(/^\d{1,5} 13 2 [0-9A-F]{64}$/);
    expect(on.body.dnskey).toMatch(/^257 3 13 [A-Za-z0-9+/]{86}==$/);
    expect(on.body.warning).not.toBe("");
    const zone = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(zone.dnssec).toBe(true);
    expect(zone.serial).toBe(z.serial + 1);
    const twice = await h.api("PUT", `/dns/zones/${z.id}/dnssec`, { enabled: true });
    expect(twice.body.ds).toBe(on.body.ds);
    expect((await h.api("GET", `/dns/zones/${z.id}/dnssec`)).body).toEqual(on.body);
    const disabled = await h.api("PUT", `/dns/zones/${z.id}/dnssec`, { enabled: false });
    expect(disabled.body).toEqual({ enabled: false, ds: null, dnskey: null, warning: "" });
    expect((await h.api("PUT", `/dns/zones/${z.id}/dnssec`, {})).body.error.message).toBe("enabled: is required");
    expect((await h.api("PUT", `/dns/zones/${z.id}/dnssec`, { enabled: "yes" })).body.error.message).toBe(
      "enabled: must be a boolean",
    );
  });
});

describe("grants", () => {
  it("shares a zone by email, updates the role and stops sharing", async () => {
    const z = await createZone(h.api, "shared.example");
    const url = `/dns/zones/${z.id}/grants`;
    expect((await h.api("GET", url)).body).toEqual({
      data: [],
      paging: { limit: 100, offset: 0, count: 0, next_offset: null },
    });
    const put = await h.api("PUT", `${url}/Ops%40Example.test`, { role: "viewer" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ email: "ops@example.test", role: "viewer" });
    const upd = await h.api("PUT", `${url}/ops@example.test`, { role: "operator" });
    expect(upd.body).toEqual({ ...put.body, role: "operator" });
    await h.api("PUT", `${url}/dev@example.test`, { role: "viewer" });
    expect((await h.api("GET", url)).body.data.map((g: any) => `${g.email}:${g.role}`)).toEqual([
      "ops@example.test:operator",
      "dev@example.test:viewer",
    ]);
    expect((await h.api("PUT", `${url}/ops@example.test`, { role: "owner" })).body.error.message).toBe(
      "role: must be one of viewer, operator",
    );
    expect((await h.api("PUT", `${url}/not-an-email`, { role: "viewer" })).body.error.message).toBe(
      "email: must be an email address",
    );
    expect((await h.api("DELETE", `${url}/ops@example.test`)).status).toBe(204);
    expect((await h.api("DELETE", `${url}/ops@example.test`)).status).toBe(404);
    expect((await h.api("GET", url)).body.data).toHaveLength(1);
  });
});

describe("transfer", () => {
  it("stores allow and notify lists of at most 16 valid addresses", async () => {
    const z = await createZone(h.api, "xfr.example");
    const url = `/dns/zones/${z.id}/transfer`;
    expect((await h.api("GET", url)).body).toEqual({ allow: [], notify: [], tsig_name: null, tsig_configured: false });
    const sixteen = Array.from({ length: 16 }, (_, i) => `192.0.2.${i + 1}`);
    const ok = await h.api("PUT", url, { allow: [...sixteen.slice(0, 15), "198.51.100.0/24"], notify: sixteen });
    expect(ok.status).toBe(200);
    expect(ok.body.allow).toHaveLength(16);
    expect(ok.body.notify).toEqual(sixteen);
    const tooMany = await h.api("PUT", url, { allow: [...sixteen, "192.0.2.200"] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe("allow: must have at most 16 items");
    expect((await h.api("PUT", url, { notify: [...sixteen, "2001:db8::1"] })).body.error.message).toBe(
      "notify: must have at most 16 items",
    );
    const badIp = await h.api("PUT", url, { allow: ["192.0.2.1", "ns1.example"] });
    expect(badIp.body.error.message).toMatch(/^allow\[1\]: must be an IP address or prefix/);
    const prefixNotify = await h.api("PUT", url, { notify: ["192.0.2.0/24"] });
    expect(prefixNotify.body.error.message).toBe("notify[0]: must be an IP address");
    // nothing of the refused bodies was written
    expect((await h.api("GET", url)).body.notify).toEqual(sixteen);
    // omitted fields keep their value
    const partial = await h.api("PUT", url, { notify: ["2001:db8::53"] });
    expect(partial.body.allow).toHaveLength(16);
    expect(partial.body.notify).toEqual(["2001:db8::53"]);
  });

  it("generates a TSIG key once and returns its secret only then", async () => {
    const z = await createZone(h.api, "tsig.example");
    const url = `/dns/zones/${z.id}/transfer`;
    const on = await h.api("PUT", url, { tsig: true });
    expect(on.body.tsig_configured).toBe(true);
    expect(typeof on.body.tsig_name).toBe("string");
    expect(on.body.tsig_algorithm).toBe("hmac-sha256");
    expect(Buffer.from(on.body.tsig_secret, "base64")).toHaveLength(32);
    const again = await h.api("PUT", url, { tsig: true });
    expect(again.body.tsig_secret).toBeUndefined();
    expect(again.body.tsig_name).toBe(on.body.tsig_name);
    const got = await h.api("GET", url);
    expect(got.body).toEqual({ allow: [], notify: [], tsig_name: on.body.tsig_name, tsig_configured: true });
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.transfer.tsig_configured).toBe(true);
    const off = await h.api("PUT", url, { tsig: false });
    expect(off.body).toEqual({ allow: [], notify: [], tsig_name: null, tsig_configured: false });
  });
});

describe("analytics and lists", () => {
  it("returns dims and per_pop objects of integers", async () => {
    const z = await createZone(h.api, "stats.example");
    const r = await h.api("GET", `/dns/zones/${z.id}/analytics`);
    expect(r.status).toBe(200);
    for (const obj of [r.body.dims, r.body.per_pop]) {
      expect(Object.keys(obj).length).toBeGreaterThan(0);
      for (const v of Object.values(obj)) expect(Number.isInteger(v)).toBe(true);
    }
  });

  it("lists the blocklist catalogue", async () => {
    const r = await h.api("GET", "/dns/lists");
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data[0]).toMatchObject({ key: expect.any(String), name: expect.any(String) });
  });
});

describe("ranges", () => {
  it("grants ranges inside a reverse zone and refuses the rest", async () => {
    const z = await createZone(h.api, "2.0.192.in-addr.arpa");
    const url = `/dns/zones/${z.id}/ranges`;
    const r = await h.api("POST", url, {
      prefix: "192.0.2.0/26",
      owner: "cust@example.test",
      external_ref: "C-1",
      note: "first",
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      zone_id: z.id,
      prefix: "192.0.2.0/26",
      owner: "cust@example.test",
      external_ref: "C-1",
      note: "first",
      enabled: true,
    });
    const outside = await h.api("POST", url, { prefix: "198.51.100.0/26" });
    expect(outside.status).toBe(400);
    expect(outside.body.error.message).toMatch(/^prefix: .*outside 192\.0\.2\.0\/24/);
    const hostBits = await h.api("POST", url, { prefix: "192.0.2.1/26" });
    expect(hostBits.body.error.message).toBe("prefix: host bits must be zero");
    expect((await h.api("POST", url, { prefix: "192.0.2.0" })).body.error.message).toMatch(/^prefix: /);
    const overlap = await h.api("POST", url, { prefix: "192.0.2.32/27" });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.code).toBe("conflict");

    const moved = await h.api("PATCH", `${url}/${r.body.id}`, { prefix: "192.0.2.64/26", enabled: false, note: null });
    expect(moved.body).toMatchObject({
      prefix: "192.0.2.64/26",
      enabled: false,
      note: null,
      owner: "cust@example.test",
    });
    expect((await h.api("PATCH", `${url}/${r.body.id}`, { external_ref: "C-2" })).body.error.message).toBe(
      "external_ref: unknown field",
    );
    expect((await h.api("GET", url)).body.data).toHaveLength(1);

    const fwd = await createZone(h.api, "forward.example");
    const notReverse = await h.api("POST", `/dns/zones/${fwd.id}/ranges`, { prefix: "192.0.2.0/28" });
    expect(notReverse.body.error.message).toMatch(/^prefix: zone forward\.example is not a reverse zone/);

    expect((await h.api("DELETE", `${url}/${r.body.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `${url}/${r.body.id}`)).status).toBe(404);
  });

  it("POST /dns/ranges finds the most specific covering reverse zone", async () => {
    const wide = await createZone(h.api, "51.198.in-addr.arpa");
    const narrow = await createZone(h.api, "100.51.198.in-addr.arpa");
    const v6 = await createZone(h.api, "8.b.d.0.1.0.0.2.ip6.arpa");
    const a = await h.api("POST", "/dns/ranges", { prefix: "198.51.100.128/25" });
    expect(a.status).toBe(201);
    expect(a.body.zone_id).toBe(narrow.id);
    const b = await h.api("POST", "/dns/ranges", { prefix: "198.51.7.0/24" });
    expect(b.body.zone_id).toBe(wide.id);
    const c = await h.api("POST", "/dns/ranges", { prefix: "2001:DB8:0:1::/64" });
    expect(c.body).toMatchObject({ zone_id: v6.id, prefix: "2001:db8:0:1::/64" });
    const none = await h.api("POST", "/dns/ranges", { prefix: "203.0.113.0/24" });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^prefix: no reverse zone/);
    const all = await h.api("GET", "/dns/ranges");
    expect(all.body.data.map((x: any) => x.id)).toEqual(expect.arrayContaining([a.body.id, b.body.id, c.body.id]));
    // another account sees none of them
    const other = await h.control("POST", "/_emulator/accounts", { name: "ranges-other" });
    const api2 = makeApi(h.emu.baseUrl, other.body.token);
    expect((await api2("GET", "/dns/ranges")).body.data).toEqual([]);
    expect((await api2("POST", "/dns/ranges", { prefix: "198.51.100.0/28" })).status).toBe(400);
  });
});
