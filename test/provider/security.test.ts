// Security rules, driven through the built plugin binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const RULE = "nsp:security:Rule";

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "security" });
const { control, plugin, checked } = provider;
let siteId: string;
let zoneId: string;

beforeAll(async () => {
  const dns = (await control.services()).find((s) => s.type === "auth_dns")!;
  siteId = String(
    (await control.post<{ id: number }>("/cdn/sites", { hostname: "www.sec.example", origin: "203.0.113.60" })).id,
  );
  zoneId = String(
    (await control.post<{ id: number }>("/dns/zones", { service_id: dns.id, name: "sec-zone.example" })).id,
  );
});

describe("nsp:security:Rule over gRPC", () => {
  it("creates a disabled zone rule with the patch that disables it", async () => {
    const inputs = await checked(RULE, {
      zoneId,
      field: "ip",
      op: "not_in",
      value: "192.0.2.0/24,2001:db8::/32",
      action: "allow",
      seq: 100,
      enabled: false,
    });
    await control.resetStats();
    const created = await plugin.create(RULE, "z", inputs);
    // The zone's rules are listed once per command, so that an identical orphan would be adopted.
    expect((await control.stats()).byRoute).toEqual({
      "GET /security/rules": 1,
      "POST /security/rules": 1,
      "PATCH /security/rules/:id": 1,
    });
    expect(created.properties).toMatchObject({ zoneId, siteId: null, seq: 100, enabled: false, note: null });
    const read = await plugin.read(RULE, "z", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    await plugin.delete(RULE, "z", created.id, created.properties);
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
      expect(
        failures.map((f) => f.property),
        JSON.stringify(news),
      ).toContain(property);
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

let sites = 0;
const ownSite = async () =>
  String(
    (
      await control.post<{ id: number }>("/cdn/sites", {
        hostname: `walk${++sites}.sec.example`,
        origin: "203.0.113.61",
      })
    ).id,
  );
lifecycle(provider, [
  {
    type: RULE,
    create: async () => ({
      siteId: await ownSite(),
      field: "country",
      op: "in",
      value: " RU, CN ",
      action: "block",
      note: "geo",
    }),
    checkedAs: (given) => ({ ...given, value: "RU, CN", enabled: true }),
    unknownOutput: "createdAt",
    idPattern: /^\d+$/,
    outputs: { zoneId: null, seq: 10 },
    stableReads: true,
    // Only enabled changes in place; everything else replaces.
    update: [{ inputs: { enabled: false }, requests: { "PATCH /security/rules/:id": 1 } }],
    replace: [
      ...[
        { value: "RU" },
        { action: "challenge" },
        { op: "not_in" },
        { seq: 5 },
        { note: "other" },
        { field: "asn", value: "64500" },
      ].map((inputs) => ({ inputs, deleteBeforeReplace: false })),
      { inputs: () => ({ siteId: undefined, zoneId }), deleteBeforeReplace: false },
    ],
    imported: (inputs) => ({
      siteId: inputs.siteId,
      field: "country",
      op: "in",
      value: "RU, CN",
      action: "block",
      seq: 10,
      note: "geo",
      enabled: false,
    }),
    badImportIds: (inputs, id) => [
      [`${inputs.siteId}/${id}`, /is not a security rule id; a security rule is known by its numeric id \(<ruleId>/],
    ],
    apiPath: (_inputs, id) => `/security/rules/${id}`,
    parentPath: (inputs) => `/cdn/sites/${inputs.siteId}`,
    exists: async (_inputs, id) =>
      (await control.list<{ id: number }>("/security/rules")).some((r) => String(r.id) === id),
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    skip: { bad: "in the test of its own below, with the values Check accepts and the reason it gives" },
  },
  {
    type: RULE,
    create: async () => ({ siteId, field: "asn", op: "in", value: "AS64500", action: "challenge" }),
    unknownOutput: "createdAt",
    update: { enabled: false },
    replace: { note: "other" },
    apiPath: (_inputs, id) => `/security/rules/${id}`,
    exists: async (_inputs, id) =>
      (await control.list<{ id: number }>("/security/rules")).some((r) => String(r.id) === id),
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    skip: { bad: "in the test of its own below, with the values Check accepts and the reason it gives" },
  },
]);
