import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISO_MS, type Harness, createZone, makeApi, startHarness } from "../helpers/emulator-http";

let h: Harness;
let site: any;
let zone: any;
beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "sec" }, { name: "other" }] });
  site = (await h.api("POST", "/cdn/sites", { hostname: "www.rules.example", origin: "203.0.113.5" })).body;
  zone = await createZone(h.api, "rules-zone.example");
});
afterAll(() => h.emu.close());

const post = (body: Record<string, unknown>) => h.api("POST", "/security/rules", body);

describe("security rule create", () => {
  it("creates a rule for a site or a whole zone with every field", async () => {
    const r = await post({
      site_id: site.id,
      field: "country",
      op: "in",
      value: "RU,CN",
      action: "block",
      note: "no thanks",
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([
      "action",
      "created_at",
      "enabled",
      "field",
      "id",
      "note",
      "op",
      "seq",
      "site_id",
      "value",
      "zone_id",
    ]);
    expect(r.body).toMatchObject({
      site_id: site.id,
      zone_id: null,
      field: "country",
      op: "in",
      value: "RU,CN",
      action: "block",
      seq: 10,
      note: "no thanks",
      enabled: true,
    });
    expect(r.body.created_at).toMatch(ISO_MS);

    // seq defaults to 10 past the highest rule of the same site or zone.
    expect(
      (await post({ site_id: site.id, field: "asn", op: "in", value: "AS64500", action: "challenge" })).body.seq,
    ).toBe(20);
    expect(
      (await post({ site_id: site.id, field: "ip", op: "not_in", value: "192.0.2.0/24", action: "allow", seq: 5 })).body
        .seq,
    ).toBe(5);
    const z = await post({
      zone_id: zone.id,
      field: "isp",
      op: "in",
      value: "Example Hosting Ltd",
      action: "ratelimit",
    });
    expect(z.body).toMatchObject({ site_id: null, zone_id: zone.id, seq: 10, note: null });
  });

  it("belongs to exactly one of site_id or zone_id, of this account", async () => {
    const base = { field: "country", op: "in", value: "DE", action: "block" };
    expect((await post(base)).body.error.message).toMatch(/^site_id: give exactly one of site_id or zone_id/);
    expect((await post({ ...base, site_id: site.id, zone_id: zone.id })).body.error.message).toMatch(
      /^zone_id: give exactly one of site_id or zone_id/,
    );
    expect((await post({ ...base, site_id: 999999 })).body.error.message).toBe(
      "site_id: no site 999999 in this account",
    );
    expect((await post({ ...base, zone_id: 999999 })).body.error.message).toBe(
      "zone_id: no zone 999999 in this account",
    );
    const other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
    const r = await other("POST", "/security/rules", { ...base, site_id: site.id });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(`site_id: no site ${site.id} in this account`);
  });

  it("validates field, op, action, seq and note", async () => {
    const base = { site_id: site.id, field: "country", op: "in", value: "DE", action: "block" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, field: "city" }, "field: must be one of country, asn, ip, isp"],
      [{ ...base, op: "eq" }, "op: must be one of in, not_in"],
      [{ ...base, action: "log" }, "action: must be one of block, allow, challenge, ratelimit"],
      [{ ...base, seq: -1 }, "seq: must be between 0 and 1000000"],
      [{ ...base, seq: 1.5 }, "seq: must be an integer"],
      [{ ...base, note: 5 }, "note: must be a string"],
      [{ ...base, enabled: false }, "enabled: unknown field"],
      [{ site_id: site.id, op: "in", value: "DE", action: "block" }, "field: is required"],
    ];
    for (const [body, msg] of cases) {
      const r = await post(body);
      expect(r.status, msg).toBe(400);
      expect(r.body.error.message).toContain(msg);
    }
  });

  it("validates the value by field", async () => {
    const good: Array<[string, string]> = [
      ["country", "DE"],
      ["country", "de, fr ,US"],
      ["asn", "64500"],
      ["asn", "AS64500,as13335, 4200000000"],
      ["ip", "192.0.2.1"],
      ["ip", "2001:db8::/32, 198.51.100.0/24"],
      ["isp", "Example Hosting Ltd"],
    ];
    for (const [field, value] of good) {
      const r = await post({ site_id: site.id, field, op: "in", value, action: "block" });
      expect(r.status, `${field} ${value}: ${r.text}`).toBe(201);
      expect(r.body.value).toBe(value.trim());
    }
    const bad: Array<[string, string, string]> = [
      ["country", "DEU", '"DEU" is not an ISO 3166-1 alpha-2 country code'],
      ["country", "UK", '"UK" is not an ISO 3166-1 alpha-2'],
      ["country", "EU", '"EU" is not an ISO 3166-1 alpha-2'],
      ["country", "DE,,FR", "without empty items"],
      ["country", "  ", "must not be empty"],
      ["asn", "AS0", '"AS0" is not an AS number'],
      ["asn", "4294967296", "is not an AS number"],
      ["asn", "ASN64500", "is not an AS number"],
      ["ip", "192.0.2.256", "is not an IP address or prefix"],
      ["ip", "192.0.2.1/24", "host bits must be zero"],
      ["ip", "192.0.2.0/33", "prefix length must be at most 32"],
      ["isp", "x".repeat(201), "ISP names must be at most 200 characters"],
      ["ip", Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`).join(","), "must have at most 100 items"],
    ];
    for (const [field, value, msg] of bad) {
      const r = await post({ site_id: site.id, field, op: "in", value, action: "block" });
      expect(r.status, `${field} ${value}`).toBe(400);
      expect(r.body.error.message).toMatch(/^value: /);
      expect(r.body.error.message).toContain(msg);
    }
  });
});

describe("security rule list, patch and delete", () => {
  it("lists with paging and filters by site_id and zone_id", async () => {
    const s2 = (await h.api("POST", "/cdn/sites", { hostname: "filter.rules.example", origin: "203.0.113.6" })).body;
    const a = (await post({ site_id: s2.id, field: "country", op: "in", value: "BR", action: "block" })).body;
    const b = (await post({ site_id: s2.id, field: "country", op: "in", value: "AR", action: "block" })).body;
    const bySite = await h.api("GET", `/security/rules?site_id=${s2.id}`);
    expect(bySite.body.data.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(bySite.body.paging).toEqual({ limit: 100, offset: 0, count: 2, next_offset: null });
    const byZone = await h.api("GET", `/security/rules?zone_id=${zone.id}`);
    expect(byZone.body.data.every((r: any) => r.zone_id === zone.id)).toBe(true);
    expect((await h.api("GET", "/security/rules?limit=1")).body.paging.next_offset).toBe(1);
    expect((await h.api("GET", "/security/rules?site_id=abc")).body.error.message).toBe("site_id: must be an integer");
    const other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
    expect((await other("GET", "/security/rules")).body.data).toEqual([]);
  });

  it("patches only enabled", async () => {
    const rule = (await post({ site_id: site.id, field: "country", op: "in", value: "KP", action: "block" })).body;
    const off = await h.api("PATCH", `/security/rules/${rule.id}`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...rule, enabled: false });
    expect((await h.api("PATCH", `/security/rules/${rule.id}`, {})).body.error.message).toBe("enabled: is required");
    expect(
      (await h.api("PATCH", `/security/rules/${rule.id}`, { enabled: true, action: "allow" })).body.error.message,
    ).toBe("action: unknown field");
    expect((await h.api("PATCH", "/security/rules/999999", { enabled: true })).status).toBe(404);
    const other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
    expect((await other("PATCH", `/security/rules/${rule.id}`, { enabled: true })).status).toBe(404);
  });

  it("deletes, and has no single-rule GET", async () => {
    const rule = (await post({ zone_id: zone.id, field: "asn", op: "in", value: "64511", action: "block" })).body;
    const get = await h.api("GET", `/security/rules/${rule.id}`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("DELETE, PATCH");
    expect((await h.api("DELETE", `/security/rules/${rule.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/security/rules/${rule.id}`)).status).toBe(404);
  });

  it("go with their site when it is deleted or un-proxied", async () => {
    const cname = (await h.api("POST", "/cdn/sites", { hostname: "cascade.rules.example", origin: "203.0.113.7" }))
      .body;
    const r1 = (await post({ site_id: cname.id, field: "country", op: "in", value: "IR", action: "block" })).body;
    await h.api("DELETE", `/cdn/sites/${cname.id}`);

    const rec = (
      await h.api("POST", `/dns/zones/${zone.id}/records`, {
        name: "shop",
        type: "A",
        content: "192.0.2.9",
        proxied: true,
      })
    ).body;
    const zsite = (await h.api("GET", "/cdn/sites?limit=500")).body.data.find(
      (s: any) => s.hostname === "shop.rules-zone.example",
    );
    const r2 = (await post({ site_id: zsite.id, field: "country", op: "in", value: "IR", action: "block" })).body;
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${rec.id}`, { proxied: false });

    const ids = (await h.api("GET", "/security/rules?limit=500")).body.data.map((r: any) => r.id);
    expect(ids).not.toContain(r1.id);
    expect(ids).not.toContain(r2.id);
    expect((await h.api("GET", "/account/quota")).body.usage.rules).toBe(ids.length);
  });
});
