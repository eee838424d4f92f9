// Security rules, driven through the built plugin binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/lifecycle";
import { useProvider } from "../helpers/use-provider";

const RULE = "nsp:security:Rule";

type Obj = Record<string, unknown>;

const token = `svc_${"5ec0".repeat(8)}`;
const provider = useProvider({ emulator: { accounts: [{ name: "security", token }] } });
const { control, plugin, checked, previewSendsNothing } = provider;
let siteId: string;
let zoneId: string;

beforeAll(async () => {
  const dns = (await control.services()).find((s) => s.type === "auth_dns")!;
  siteId = String((await control.post<{ id: number }>("/cdn/sites", { hostname: "www.sec.example", origin: "203.0.113.60" })).id);
  zoneId = String((await control.post<{ id: number }>("/dns/zones", { service_id: dns.id, name: "sec-zone.example" })).id);
});

describe("nsp:security:Rule over gRPC", () => {
  it("walks a rule through its whole lifecycle", async () => {
    const inputs = await checked(RULE, { siteId, field: "country", op: "in", value: " RU, CN ", action: "block", note: "geo" });
    expect(inputs).toEqual({ siteId, field: "country", op: "in", value: "RU, CN", action: "block", note: "geo", enabled: true });

    await previewSendsNothing(RULE, inputs, "createdAt");

    const created = await plugin.create(RULE, "r", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ siteId, zoneId: null, field: "country", op: "in", value: "RU, CN", action: "block", seq: 10, note: "geo", enabled: true });
    const read = await plugin.read(RULE, "r", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(RULE, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Only enabled changes in place.
    const off = await checked(RULE, { ...inputs, enabled: false });
    expect(await plugin.diff(RULE, "r", created.id, read.properties, off, inputs)).toMatchObject({ changes: true, replaces: [], diffs: ["enabled"] });
    await control.resetStats();
    const updated = await plugin.update(RULE, "r", created.id, read.properties, off, false, inputs);
    expect(updated.enabled).toBe(false);
    expect((await control.stats()).byRoute).toEqual({ "PATCH /security/rules/:id": 1 });
    const read2 = await plugin.read(RULE, "r", created.id, updated, off);
    expect(read2.properties.enabled).toBe(false);

    // Everything else replaces.
    for (const [key, value] of [["value", "RU"], ["action", "challenge"], ["op", "not_in"], ["seq", 5], ["note", "other"], ["field", "asn"], ["zoneId", zoneId]] as const) {
      const { siteId: _site, ...offZone } = off;
      const news = key === "field" ? { ...off, field: "asn", value: "64500" } : key === "zoneId" ? { ...offZone, zoneId } : { ...off, [key]: value };
      const d = await plugin.diff(RULE, "r", created.id, read2.properties, news, off);
      expect(d.changes, key).toBe(true);
      expect(d.replaces, key).toContain(key);
      expect(d.deleteBeforeReplace).toBe(false);
    }

    // Import with only the id.
    const imported = await plugin.read(RULE, "imp", created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({ siteId, field: "country", op: "in", value: "RU, CN", action: "block", seq: 10, note: "geo", enabled: false });
    const importCheck = await checked(RULE, imported.inputs);
    expect((await plugin.diff(RULE, "imp", imported.id, imported.properties, importCheck, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(RULE, "imp", `${siteId}/${created.id}`)).rejects.toThrow(/must be a numeric rule id/);

    await plugin.delete(RULE, "r", created.id, read2.properties);
    expect((await plugin.read(RULE, "r", created.id, read2.properties, off)).id).toBe("");
    await plugin.delete(RULE, "r", created.id, read2.properties);
  });

  it("creates a disabled zone rule with the patch that disables it", async () => {
    const inputs = await checked(RULE, { zoneId, field: "ip", op: "not_in", value: "192.0.2.0/24,2001:db8::/32", action: "allow", seq: 100, enabled: false });
    await control.resetStats();
    const created = await plugin.create(RULE, "z", inputs);
    // The zone's rules are listed once per command, so that an identical orphan would be adopted.
    expect((await control.stats()).byRoute).toEqual({ "GET /security/rules": 1, "POST /security/rules": 1, "PATCH /security/rules/:id": 1 });
    expect(created.properties).toMatchObject({ zoneId, siteId: null, seq: 100, enabled: false, note: null });
    const read = await plugin.read(RULE, "z", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    await plugin.delete(RULE, "z", created.id, created.properties);
  });

  it("is gone when its site goes", async () => {
    const site = await control.post<{ id: number }>("/cdn/sites", { hostname: "short-lived.sec.example", origin: "203.0.113.61" });
    const inputs = await checked(RULE, { siteId: String(site.id), field: "isp", op: "in", value: "Example Hosting Ltd", action: "ratelimit" });
    const created = await plugin.create(RULE, "g", inputs);
    await control.delete(`/cdn/sites/${site.id}`);
    expect((await plugin.read(RULE, "g", created.id, created.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    const base = { siteId, field: "country", op: "in", value: "DE", action: "block" };
    const { siteId: _s, ...noTarget } = base;
    const cases: [Obj, string][] = [
      [noTarget, "siteId"],
      [{ ...base, zoneId }, "zoneId"],
      [{ ...base, value: "DEU" }, "value"],
      [{ ...base, value: "UK" }, "value"],
      [{ ...base, value: "DE,,FR" }, "value"],
      [{ ...base, value: "  " }, "value"],
      [{ ...base, field: "asn", value: "AS0" }, "value"],
      [{ ...base, field: "asn", value: "ASN64500" }, "value"],
      [{ ...base, field: "ip", value: "192.0.2.1/24" }, "value"],
      [{ ...base, field: "ip", value: "300.1.1.1" }, "value"],
      [{ ...base, field: "ip", value: "2001:db8::1/129" }, "value"],
      [{ ...base, field: "isp", value: "x".repeat(201) }, "value"],
      [{ ...base, field: "city" }, "field"],
      [{ ...base, op: "eq" }, "op"],
      [{ ...base, action: "log" }, "action"],
      [{ ...base, seq: -1 }, "seq"],
      [{ ...base, seq: 1.5 }, "seq"],
      [{ ...base, siteId: "www" }, "siteId"],
    ];
    for (const [news, property] of cases) {
      const { failures } = await plugin.check(RULE, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toContain(property);
      for (const f of failures) expect(f.reason.length).toBeGreaterThan(5);
    }
    const ok = [
      { ...base, value: "de,fr" },
      { ...base, field: "asn", value: "64500, AS13335" },
      { ...base, field: "ip", value: "192.0.2.1,198.51.100.0/24,2001:db8::/32,::ffff:192.0.2.0/120" },
      { ...base, field: "isp", value: "Example Hosting Ltd" },
    ];
    for (const news of ok) expect((await plugin.check(RULE, "ok", news)).failures, JSON.stringify(news)).toEqual([]);
    const reason = (await plugin.check(RULE, "bad", { ...base, value: "DE,XX" })).failures[0]?.reason;
    expect(reason).toContain('"XX" is not an ISO 3166-1 alpha-2 country code');
    expect((await control.stats()).total).toBe(0);
  });
});

lifecycle(provider, [
  {
    type: RULE,
    create: async () => ({ siteId, field: "asn", op: "in", value: "AS64500", action: "challenge" }),
    unknownOutput: "createdAt",
    update: { enabled: false },
    replace: { note: "other" },
    apiPath: (_inputs, id) => `/security/rules/${id}`,
    exists: async (_inputs, id) => (await control.list<{ id: number }>("/security/rules")).some((r) => String(r.id) === id),
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    skip: { bad: "in the test of its own below, with the values Check accepts and the reason it gives" },
  },
]);
