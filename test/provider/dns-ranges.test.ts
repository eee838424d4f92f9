// nsp:dns:Range (address-range grants in reverse zones) through the built plugin over gRPC.
import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const RANGE = "nsp:dns:Range";

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "ranges" });
const { control, plugin, checked } = provider;
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

async function newZone(name: string): Promise<{ id: string; properties: Obj }> {
  return plugin.create(ZONE, name, await checked(ZONE, { serviceId, name }));
}

let walkZoneId: string | undefined;
let givenZoneId: string | undefined;
let ranges = 0;
lifecycle(provider, [
  {
    type: RANGE,
    create: async () => ({
      zoneId: (walkZoneId ??= (await newZone("10.in-addr.arpa")).id),
      prefix: `10.0.${++ranges}.0/28`,
      owner: "walk",
    }),
    unknownOutput: "createdAt",
    update: { owner: "other", note: "moved" },
    replace: { externalRef: "C-9" },
    importId: (inputs, id) => `${inputs.zoneId}/${id}`,
    apiPath: (inputs, id) => `/dns/zones/${inputs.zoneId}/ranges/${id}`,
    exists: async (inputs, id) =>
      (await control.list<{ id: number }>(`/dns/zones/${inputs.zoneId}/ranges`)).some((r) => String(r.id) === id),
    // The program left the note at its default (none), so a hand-written one is drift too.
    drift: {
      body: { owner: "b", note: "set by hand" },
      inputs: { owner: "b", note: "set by hand" },
      repaired: { owner: "walk", note: null },
    },
    // A deleted zone takes its ranges with it.
    parentPath: (inputs) => `/dns/zones/${inputs.zoneId}`,
    skip: { bad: "in the test of its own below, which also checks the reason given for host bits" },
  },
  {
    type: RANGE,
    create: async () => ({
      zoneId: (givenZoneId ??= (await newZone("2.0.192.in-addr.arpa")).id),
      prefix: " 192.0.2.0/26 ",
      owner: "cust@example.com",
      externalRef: "C-1",
      note: "first",
    }),
    checkedAs: (given) => ({ ...given, prefix: "192.0.2.0/26", enabled: true }),
    unknownOutput: "createdAt",
    idPattern: /^\d+$/,
    outputs: { createdAt: expect.any(String) },
    exactOutputs: true,
    stableReads: true,
    keptOutputs: ["createdAt"],
    // Move the grant, drop the note, disable it: one patch.
    update: [
      {
        inputs: { prefix: "192.0.2.64/26", note: undefined, enabled: false },
        outputs: { note: null, owner: "cust@example.com" },
        requests: { "PATCH /dns/zones/:id/ranges/:rid": 1 },
      },
    ],
    // external_ref cannot be patched: replace, deleting first when the new range overlaps the old one.
    replace: [
      { inputs: { externalRef: "C-2" }, deleteBeforeReplace: true },
      {
        inputs: { externalRef: "C-2", prefix: "192.0.2.128/26" },
        replaces: ["externalRef"],
        deleteBeforeReplace: false,
      },
      { inputs: { zoneId: "999" } },
    ],
    importId: (inputs, id) => `${inputs.zoneId}/${id}`,
    imported: (inputs) => ({
      zoneId: inputs.zoneId,
      prefix: "192.0.2.64/26",
      owner: "cust@example.com",
      externalRef: "C-1",
      enabled: false,
    }),
    badImportIds: (inputs, id) => [id, `${inputs.zoneId}/abc`].map((bad) => [bad, /<zoneId>\/<rangeId>/]),
    apiPath: (inputs, id) => `/dns/zones/${inputs.zoneId}/ranges/${id}`,
    exists: async (inputs, id) =>
      (await control.list<{ id: number }>(`/dns/zones/${inputs.zoneId}/ranges`)).some((r) => String(r.id) === id),
    skip: {
      drift: "the row above",
      bad: "in the test of its own below, which also checks the reason given for host bits",
    },
  },
]);

describe("nsp:dns:Range located by the API", () => {
  it("lands in the most specific covering reverse zone and shows it in zoneId", async () => {
    const wide = await newZone("8.b.d.0.1.0.0.2.ip6.arpa");
    const narrow = await newZone("0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa");
    const inputs = await checked(RANGE, { prefix: "2001:DB8:0:1::/64", owner: "v6 customer", enabled: false });
    expect(inputs).toEqual({
      prefix: "2001:db8:0:1::/64",
      owner: "v6 customer",
      externalRef: null,
      note: null,
      enabled: false,
    });

    await control.resetStats();
    const preview = await plugin.create(RANGE, "auto", inputs, true);
    expect(preview.properties.createdAt).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(RANGE, "auto", inputs);
    expect(created.properties).toMatchObject({
      zoneId: narrow.id,
      prefix: "2001:db8:0:1::/64",
      enabled: false,
      owner: "v6 customer",
    });
    const read = await plugin.read(RANGE, "auto", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(RANGE, "auto", created.id, read.properties, inputs, inputs)).changes).toBe(false);
    // Naming the zone it landed in changes nothing; naming another replaces.
    expect(
      (await plugin.diff(RANGE, "auto", created.id, read.properties, { ...inputs, zoneId: narrow.id }, inputs)).changes,
    ).toBe(false);
    expect(
      (await plugin.diff(RANGE, "auto", created.id, read.properties, { ...inputs, zoneId: wide.id }, inputs)).replaces,
    ).toEqual(["zoneId"]);

    const enabled = await checked(RANGE, { ...inputs, enabled: true, owner: null });
    const updated = await plugin.update(RANGE, "auto", created.id, read.properties, enabled);
    expect(updated).toMatchObject({ zoneId: narrow.id, enabled: true, owner: null });

    const imported = await plugin.read(RANGE, "imp", `${narrow.id}/${created.id}`);
    expect(imported.inputs).toEqual({ zoneId: narrow.id, prefix: "2001:db8:0:1::/64" });
    const importChecked = await checked(RANGE, imported.inputs);
    expect(
      (await plugin.diff(RANGE, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes,
    ).toBe(false);

    await plugin.delete(RANGE, "auto", created.id, updated);
    expect((await plugin.read(RANGE, "auto", created.id, updated, enabled)).id).toBe("");

    // Nothing covers this prefix: the API's refusal reaches the user.
    await expect(plugin.create(RANGE, "none", await checked(RANGE, { prefix: "203.0.113.0/24" }))).rejects.toThrow(
      /prefix: no reverse zone/,
    );
    await plugin.delete(ZONE, "n", narrow.id, narrow.properties);
    await plugin.delete(ZONE, "w", wide.id, wide.properties);
  });
});

describe("nsp:dns:Range bad input", () => {
  it("is rejected in Check, naming the property, before any request", async () => {
    await control.resetStats();
    const cases: [Obj, string][] = [
      [{ prefix: "192.0.2.1/26" }, "prefix"],
      [{ prefix: "192.0.2.0" }, "prefix"],
      [{ prefix: "192.0.2.0/33" }, "prefix"],
      [{ prefix: "2001:db8::/129" }, "prefix"],
      [{ prefix: "2001:db8::g/64" }, "prefix"],
      [{}, "prefix"],
      [{ prefix: "192.0.2.0/24", zoneId: "abc" }, "zoneId"],
      [{ prefix: "192.0.2.0/24", owner: "x".repeat(1025) }, "owner"],
      [{ prefix: "192.0.2.0/24", enabled: "no" }, "enabled"],
      [{ prefix: "192.0.2.0/24", external_ref: "C-1" }, "external_ref"],
    ];
    for (const [news, property] of cases) {
      const { failures } = await plugin.check(RANGE, "bad", news);
      expect(
        failures.map((f) => f.property),
        JSON.stringify(news),
      ).toContain(property);
    }
    const hostBits = await plugin.check(RANGE, "bad", { prefix: "192.0.2.1/26" });
    expect(hostBits.failures[0]?.reason).toMatch(/host bits must be zero/);
    expect((await control.stats()).total).toBe(0);
  });
});
