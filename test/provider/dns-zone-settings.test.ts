// Zone extras and the per-zone settings resources (DNSSEC, transfer, sharing grants), driven
// through the built plugin binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { isSecret, plain, UNKNOWN } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const DNSSEC = "nsp:dns:ZoneDnssec";
const TRANSFER = "nsp:dns:ZoneTransfer";
const GRANT = "nsp:dns:ZoneGrant";
const Kind = providerPb.PropertyDiff.Kind;

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "settings" });
const { control, plugin, checked, previewSendsNothing, expectCheckFailures } = provider;
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

async function newZone(name: string): Promise<{ id: string; properties: Obj }> {
  return plugin.create(ZONE, name, await checked(ZONE, { serviceId, name }));
}

/** Create in preview: no request reaches the API, and API-only outputs are unknown. */

let zones = 0;
const walkZone = async () => (await newZone(`settings-walk${++zones}.example`)).id;
const PART_OF_ZONE = "part of its zone: the delete resets it (checked in the walk below)";
const GOES_WITH_ZONE = "it goes only with its zone (in the test of its own below)";
lifecycle(provider, [
  {
    type: DNSSEC,
    create: async () => ({ zoneId: await walkZone() }),
    unknownOutput: "ds",
    update: { enabled: false },
    replace: { zoneId: "999999" },
    apiPath: (inputs) => `/dns/zones/${inputs.zoneId}/dnssec`,
    drift: { method: "PUT", body: { enabled: false }, inputs: { enabled: false } },
    bad: [
      [{ enabled: true }, "zoneId"],
      [{ zoneId: "zone-1" }, "zoneId"],
      [{ zoneId: "1", enabled: "on" }, "enabled"],
      [{ zoneId: "1", ds: "x" }, "ds"],
    ],
    skip: { delete: PART_OF_ZONE, "drift delete": GOES_WITH_ZONE },
  },
  {
    type: TRANSFER,
    create: async () => ({ zoneId: await walkZone(), notify: ["192.0.2.1"] }),
    update: { allow: ["192.0.2.10"], notify: ["192.0.2.2"] },
    replace: { zoneId: "999999" },
    apiPath: (inputs) => `/dns/zones/${inputs.zoneId}/transfer`,
    drift: { method: "PUT", body: { notify: ["192.0.2.3"] }, inputs: { notify: ["192.0.2.3"] } },
    skip: {
      bad: "in the test of its own below, with the sixteen addresses Check accepts",
      delete: PART_OF_ZONE,
      "drift delete": GOES_WITH_ZONE,
    },
  },
  {
    type: GRANT,
    create: async () => ({ zoneId: await walkZone(), email: " Walk@Example.COM ", role: "viewer" }),
    unknownOutput: "createdAt",
    update: { role: "operator" },
    replace: { email: "other@example.com" },
    importId: (inputs) => `${inputs.zoneId}/${inputs.email}`,
    apiPath: (inputs) => `/dns/zones/${inputs.zoneId}/grants/${inputs.email}`,
    exists: async (inputs) =>
      (await control.list<{ email: string }>(`/dns/zones/${inputs.zoneId}/grants`)).some(
        (g) => g.email === inputs.email,
      ),
    drift: { method: "PUT", body: { role: "operator" }, inputs: { role: "operator" } },
    bad: [
      [{ zoneId: "1", email: "not-an-email", role: "viewer" }, "email"],
      [{ zoneId: "1", email: "a@b", role: "viewer" }, "email"],
      [{ zoneId: "1", email: "ops@example.com", role: "owner" }, "role"],
      [{ zoneId: "1", email: "ops@example.com" }, "role"],
      [{ zoneId: "x", email: "ops@example.com", role: "viewer" }, "zoneId"],
    ],
  },
]);

describe("nsp:dns:Zone extras", () => {
  it("makes a zone secondary and primary again, with negativeTtl and enabled, and reports its outputs", async () => {
    const inputs = await checked(ZONE, {
      serviceId,
      name: "secondary.example",
      secondaryMaster: "192.0.2.53",
      negativeTtl: 600,
      enabled: false,
    });
    expect(inputs).toEqual({
      serviceId,
      name: "secondary.example",
      mode: "zone",
      enabled: false,
      secondaryMaster: "192.0.2.53",
      negativeTtl: 600,
      forceDestroy: false,
    });
    await control.resetStats();
    const preview = await plugin.create(ZONE, "z", inputs, true);
    for (const out of ["status", "serial", "delegation", "nameServers"]) expect(preview.properties[out]).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);

    const zone = await plugin.create(ZONE, "z", inputs);
    expect(zone.properties).toMatchObject({
      secondaryMaster: "192.0.2.53",
      negativeTtl: 600,
      enabled: false,
      status: "pending",
      delegation: { checkedAt: null, lostAt: null },
      nameServers: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"],
    });
    expect(zone.properties.serial).toEqual(expect.any(Number));
    const read = await plugin.read(ZONE, "z", zone.id, zone.properties, inputs);
    expect(read.properties).toEqual(zone.properties);
    expect((await plugin.diff(ZONE, "z", zone.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Dropping secondaryMaster from the program returns the zone to primary.
    const primary = await checked(ZONE, { serviceId, name: "secondary.example", negativeTtl: 600, enabled: false });
    const d = await plugin.diff(ZONE, "z", zone.id, read.properties, primary, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [], diffs: ["secondaryMaster"] });
    expect(d.detailed.secondaryMaster).toBe(Kind.DELETE);
    const afterPrimary = await plugin.update(ZONE, "z", zone.id, read.properties, primary, false, inputs);
    expect(afterPrimary.secondaryMaster).toBeNull();
    expect(afterPrimary.serial as number).toBeGreaterThan(zone.properties.serial as number);
    expect((await control.get(`/dns/zones/${zone.id}`)).secondary_master).toBeNull();
    expect((await plugin.diff(ZONE, "z", zone.id, afterPrimary, primary, primary)).changes).toBe(false);

    // An IPv6 master, then an explicit null, which also means primary.
    const v6 = await checked(ZONE, { ...primary, secondaryMaster: "2001:db8::53", enabled: true });
    const afterV6 = await plugin.update(ZONE, "z", zone.id, afterPrimary, v6);
    expect(afterV6).toMatchObject({ secondaryMaster: "2001:db8::53", enabled: true });
    const explicitNull = await checked(ZONE, { ...v6, secondaryMaster: null });
    expect(explicitNull.secondaryMaster).toBeNull();
    expect((await plugin.diff(ZONE, "z", zone.id, afterV6, explicitNull, v6)).diffs).toEqual(["secondaryMaster"]);
    const back = await plugin.update(ZONE, "z", zone.id, afterV6, explicitNull);
    expect(back.secondaryMaster).toBeNull();

    // An explicit null keeps the zone primary: a master set through the API is drift.
    await control.patch(`/dns/zones/${zone.id}`, { secondary_master: "198.51.100.7" });
    const drifted = await plugin.read(ZONE, "z", zone.id, back, explicitNull);
    expect(drifted.properties.secondaryMaster).toBe("198.51.100.7");
    expect((await plugin.diff(ZONE, "z", zone.id, drifted.properties, explicitNull, drifted.inputs)).diffs).toEqual([
      "secondaryMaster",
    ]);

    // Import with only the id; defaults are left out of the inputs.
    await control.patch(`/dns/zones/${zone.id}`, { secondary_master: null });
    const imported = await plugin.read(ZONE, "imp", zone.id);
    expect(imported.inputs).toEqual({ serviceId, name: "secondary.example.", negativeTtl: 600 });
    const importChecked = await checked(ZONE, imported.inputs);
    expect((await plugin.diff(ZONE, "imp", zone.id, imported.properties, importChecked, imported.inputs)).changes).toBe(
      false,
    );

    await plugin.delete(ZONE, "z", zone.id, back);
    expect((await plugin.read(ZONE, "z", zone.id, back, explicitNull)).id).toBe("");
  });

  it("rejects a bad secondaryMaster and negativeTtl in Check", async () => {
    await expectCheckFailures(ZONE, [
      [{ serviceId, name: "bad.example", secondaryMaster: "ns1.example.com" }, "secondaryMaster"],
      [{ serviceId, name: "bad.example", negativeTtl: 10 }, "negativeTtl"],
      [{ serviceId, name: "bad.example", negativeTtl: 100000 }, "negativeTtl"],
      [{ serviceId, name: "bad.example", enabled: "yes" }, "enabled"],
    ]);
  });
});

describe("nsp:dns:ZoneDnssec", () => {
  it("signs a zone, turns signing off and on, imports, and turns it off on delete", async () => {
    const zone = await newZone("signed.example");
    const inputs = await checked(DNSSEC, { zoneId: zone.id });
    expect(inputs).toEqual({ zoneId: zone.id, enabled: true });
    await previewSendsNothing(DNSSEC, inputs, "ds");

    const created = await plugin.create(DNSSEC, "d", inputs);
    expect(created.id).toBe(zone.id);
    expect(created.properties).toMatchObject({ zoneId: zone.id, enabled: true });
    expect(created.properties.ds).toMatch(/^\d{1,5} 13 2 [0-9A-F]{64}$/);
    expect(created.properties.dnskey).toMatch(/^257 3 13 /);
    expect(created.properties.warning).toMatch(/registrar/);
    expect((await control.get(`/dns/zones/${zone.id}`)).dnssec).toBe(true);

    const read = await plugin.read(DNSSEC, "d", created.id, created.properties, inputs);
    expect(read).toMatchObject({ id: zone.id, properties: created.properties, inputs });
    expect((await plugin.diff(DNSSEC, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const off = await checked(DNSSEC, { zoneId: zone.id, enabled: false });
    const offDiff = await plugin.diff(DNSSEC, "d", created.id, read.properties, off, inputs);
    expect(offDiff).toMatchObject({ changes: true, replaces: [], diffs: ["enabled"] });
    await control.resetStats();
    expect((await plugin.update(DNSSEC, "d", created.id, read.properties, off, true)).enabled).toBe(false);
    expect((await control.stats()).total).toBe(0);
    const disabled = await plugin.update(DNSSEC, "d", created.id, read.properties, off);
    expect(disabled).toMatchObject({ enabled: false, ds: null, dnskey: null, warning: "" });
    const again = await plugin.update(DNSSEC, "d", created.id, disabled, inputs);
    expect(again.ds).toMatch(/ 13 2 /);
    expect(again.dnskey).not.toBe(created.properties.dnskey); // a new key after off and on

    const other = await newZone("signed-other.example");
    const moved = await plugin.diff(DNSSEC, "d", created.id, again, { ...inputs, zoneId: other.id }, inputs);
    expect(moved).toMatchObject({ changes: true, replaces: ["zoneId"] });

    const imported = await plugin.read(DNSSEC, "imp", zone.id);
    expect(imported.id).toBe(zone.id);
    expect(imported.inputs).toEqual({ zoneId: zone.id });
    expect(imported.properties.ds).toBe(again.ds);
    const importChecked = await checked(DNSSEC, imported.inputs);
    expect(
      (await plugin.diff(DNSSEC, "imp", zone.id, imported.properties, importChecked, imported.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(DNSSEC, "imp", "signed.example")).rejects.toThrow(
      /is not a zone id; a zone is known by its numeric id \(<zoneId>/,
    );

    await plugin.delete(DNSSEC, "d", created.id, again);
    expect((await control.get(`/dns/zones/${zone.id}/dnssec`)).enabled).toBe(false);
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
    expect((await plugin.read(DNSSEC, "d", created.id, again, inputs)).id).toBe("");
    await plugin.delete(DNSSEC, "d", created.id, again); // the zone is gone: nothing left to do
    await plugin.delete(ZONE, "o", other.id, other.properties);
  });

  it("sees signing turned off through the API, and the zone deleted", async () => {
    const zone = await newZone("dnssec-drift.example");
    const inputs = await checked(DNSSEC, { zoneId: zone.id });
    const created = await plugin.create(DNSSEC, "d", inputs);
    await control.api("PUT", `/dns/zones/${zone.id}/dnssec`, { enabled: false });
    const read = await plugin.read(DNSSEC, "d", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ enabled: false, ds: null });
    const d = await plugin.diff(DNSSEC, "d", created.id, read.properties, inputs, read.inputs);
    expect(d).toMatchObject({ changes: true, diffs: ["enabled"], replaces: [] });
    await control.delete(`/dns/zones/${zone.id}`);
    expect((await plugin.read(DNSSEC, "d", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:dns:ZoneTransfer", () => {
  it("sets allow, notify and a TSIG key kept as a secret, rotates it, imports, and resets on delete", async () => {
    const zone = await newZone("xfr.example");
    const inputs = await checked(TRANSFER, {
      zoneId: zone.id,
      allow: ["192.0.2.0/24", " 2001:db8::1 "],
      notify: ["192.0.2.53"],
      tsig: true,
    });
    expect(inputs).toEqual({
      zoneId: zone.id,
      allow: ["192.0.2.0/24", "2001:db8::1"],
      notify: ["192.0.2.53"],
      tsig: true,
    });
    await previewSendsNothing(TRANSFER, inputs, "tsigKey");

    const created = await plugin.create(TRANSFER, "t", inputs);
    expect(created.id).toBe(zone.id);
    expect(created.properties).toMatchObject({
      ...inputs,
      tsigConfigured: true,
      tsigName: `xfr-${zone.id}.xfr.example`,
      tsigAlgorithm: "hmac-sha256",
    });
    expect(isSecret(created.properties.tsigKey)).toBe(true);
    const key = plain(created.properties.tsigKey) as string;
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(await control.get(`/dns/zones/${zone.id}/transfer`)).toEqual({
      allow: ["192.0.2.0/24", "2001:db8::1"],
      notify: ["192.0.2.53"],
      tsig_name: `xfr-${zone.id}.xfr.example`,
      tsig_configured: true,
    });

    // The API never shows the key again; a refresh keeps it, still secret.
    const read = await plugin.read(TRANSFER, "t", created.id, created.properties, inputs);
    expect(isSecret(read.properties.tsigKey)).toBe(true);
    expect(plain(read.properties.tsigKey)).toBe(key);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(TRANSFER, "t", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // A list change keeps the key.
    const lists = await checked(TRANSFER, { ...inputs, allow: ["198.51.100.0/24"], notify: [] });
    const listDiff = await plugin.diff(TRANSFER, "t", created.id, read.properties, lists, inputs);
    expect(listDiff).toMatchObject({ changes: true, replaces: [] });
    expect(listDiff.diffs.sort()).toEqual(["allow", "notify"]);
    const updated = await plugin.update(TRANSFER, "t", created.id, read.properties, lists);
    expect(updated).toMatchObject({ allow: ["198.51.100.0/24"], notify: [], tsigConfigured: true });
    expect(plain(updated.tsigKey)).toBe(key);
    expect(isSecret(updated.tsigKey)).toBe(true);

    // Changing the trigger rotates the key.
    const rotated = await checked(TRANSFER, { ...lists, tsigRotation: "2026-01" });
    expect((await plugin.diff(TRANSFER, "t", created.id, updated, rotated, lists)).diffs).toEqual(["tsigRotation"]);
    const afterRotation = await plugin.update(TRANSFER, "t", created.id, updated, rotated);
    const newKey = plain(afterRotation.tsigKey) as string;
    expect(isSecret(afterRotation.tsigKey)).toBe(true);
    expect(Buffer.from(newKey, "base64")).toHaveLength(32);
    expect(newKey).not.toBe(key);
    expect(afterRotation).toMatchObject({ tsigConfigured: true, tsigRotation: "2026-01", allow: ["198.51.100.0/24"] });
    const reread = await plugin.read(TRANSFER, "t", created.id, afterRotation, rotated);
    expect(plain(reread.properties.tsigKey)).toBe(newKey);
    expect(reread.inputs.tsigRotation).toBe("2026-01");
    expect((await plugin.diff(TRANSFER, "t", created.id, reread.properties, rotated, reread.inputs)).changes).toBe(
      false,
    );
    const numeric = await checked(TRANSFER, { ...lists, tsigRotation: 2 });
    const afterNumeric = await plugin.update(TRANSFER, "t", created.id, reread.properties, numeric);
    expect(plain(afterNumeric.tsigKey)).not.toBe(newKey);

    // TSIG off removes the key.
    const noTsig = await checked(TRANSFER, { ...numeric, tsig: false });
    const off = await plugin.update(TRANSFER, "t", created.id, afterNumeric, noTsig);
    expect(off).toMatchObject({ tsig: false, tsigConfigured: false, tsigName: null });
    expect(plain(off.tsigKey)).toBeNull();

    const other = await newZone("xfr-other.example");
    expect(
      (await plugin.diff(TRANSFER, "t", created.id, off, { ...noTsig, zoneId: other.id }, noTsig)).replaces,
    ).toEqual(["zoneId"]);

    // Import with only the zone id.
    const imported = await plugin.read(TRANSFER, "imp", zone.id);
    expect(imported.id).toBe(zone.id);
    expect(imported.inputs).toEqual({ zoneId: zone.id, allow: ["198.51.100.0/24"] });
    const importChecked = await checked(TRANSFER, imported.inputs);
    expect(
      (await plugin.diff(TRANSFER, "imp", zone.id, imported.properties, importChecked, imported.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(TRANSFER, "imp", `${zone.id}/x`)).rejects.toThrow(
      /is not a zone id; a zone is known by its numeric id \(<zoneId>/,
    );

    await plugin.delete(TRANSFER, "t", created.id, off);
    expect(await control.get(`/dns/zones/${zone.id}/transfer`)).toEqual({
      allow: [],
      notify: [],
      tsig_name: null,
      tsig_configured: false,
    });
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
    await plugin.delete(ZONE, "o", other.id, other.properties);
  });

  it("sees list and TSIG changes made through the API, and the zone deleted", async () => {
    const zone = await newZone("xfr-drift.example");
    const inputs = await checked(TRANSFER, { zoneId: zone.id, notify: ["192.0.2.1"], tsig: true });
    const created = await plugin.create(TRANSFER, "t", inputs);
    await control.api("PUT", `/dns/zones/${zone.id}/transfer`, { notify: ["192.0.2.2"], tsig: false });
    const read = await plugin.read(TRANSFER, "t", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ notify: ["192.0.2.2"], tsig: false, tsigConfigured: false });
    // The old key no longer exists, so it is not kept.
    expect(plain(read.properties.tsigKey)).toBeNull();
    const d = await plugin.diff(TRANSFER, "t", created.id, read.properties, inputs, read.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["notify", "tsig"]);
    // The repair issues a new key.
    const repaired = await plugin.update(TRANSFER, "t", created.id, read.properties, inputs);
    expect(repaired.tsigConfigured).toBe(true);
    expect(isSecret(repaired.tsigKey)).toBe(true);
    expect(Buffer.from(plain(repaired.tsigKey) as string, "base64")).toHaveLength(32);
    await control.delete(`/dns/zones/${zone.id}`);
    expect((await plugin.read(TRANSFER, "t", created.id, repaired, inputs)).id).toBe("");
  });

  it("warns instead of inventing a key when the zone already has one", async () => {
    const zone = await newZone("xfr-existing.example");
    await control.api("PUT", `/dns/zones/${zone.id}/transfer`, { tsig: true });
    const inputs = await checked(TRANSFER, { zoneId: zone.id, tsig: true });
    const logs = plugin.engineLogs.length;
    const created = await plugin.create(TRANSFER, "t", inputs);
    expect(created.properties.tsigConfigured).toBe(true);
    expect(plain(created.properties.tsigKey)).toBeNull();
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/already had a TSIG key.*tsigRotation/);
    const rotated = await plugin.update(TRANSFER, "t", created.id, created.properties, {
      ...inputs,
      tsigRotation: "1",
    });
    expect(Buffer.from(plain(rotated.tsigKey) as string, "base64")).toHaveLength(32);
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
  });

  it("rejects bad input in Check", async () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => `192.0.2.${i + 1}`);
    expect((await plugin.check(TRANSFER, "ok", { zoneId: "1", allow: sixteen, notify: sixteen })).failures).toEqual([]);
    await expectCheckFailures(TRANSFER, [
      [{ zoneId: "1", allow: [...sixteen, "192.0.2.99"] }, "allow"],
      [{ zoneId: "1", notify: [...sixteen, "192.0.2.99"] }, "notify"],
      [{ zoneId: "1", allow: ["192.0.2.1", "ns1.example.com"] }, "allow[1]"],
      [{ zoneId: "1", allow: ["192.0.2.1/24"] }, "allow[0]"],
      [{ zoneId: "1", notify: ["192.0.2.0/24"] }, "notify[0]"],
      [{ zoneId: "1", tsig: "yes" }, "tsig"],
      [{ zoneId: "1", tsigRotation: { at: 1 } }, "tsigRotation"],
      [{ allow: [] }, "zoneId"],
    ]);
  });
});

describe("nsp:dns:ZoneGrant", () => {
  it("shares a zone, changes the role, replaces on a new address, imports and stops sharing", async () => {
    const zone = await newZone("shared.example");
    const inputs = await checked(GRANT, { zoneId: zone.id, email: " Ops+DNS@Example.COM ", role: "viewer" });
    expect(inputs).toEqual({ zoneId: zone.id, email: "ops+dns@example.com", role: "viewer" });
    await previewSendsNothing(GRANT, inputs, "createdAt");

    const created = await plugin.create(GRANT, "g", inputs);
    expect(created.id).toBe(`${zone.id}/ops+dns@example.com`);
    expect(created.properties).toMatchObject({ ...inputs, createdAt: expect.any(String) });
    const read = await plugin.read(GRANT, "g", created.id, created.properties, inputs);
    expect(read).toMatchObject({ id: created.id, properties: created.properties, inputs });
    expect((await plugin.diff(GRANT, "g", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const operator = await checked(GRANT, { ...inputs, role: "operator" });
    expect(await plugin.diff(GRANT, "g", created.id, read.properties, operator, inputs)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["role"],
    });
    const updated = await plugin.update(GRANT, "g", created.id, read.properties, operator);
    expect(updated).toMatchObject({ role: "operator", createdAt: created.properties.createdAt });
    expect(
      (await control.list<{ email: string; role: string }>(`/dns/zones/${zone.id}/grants`)).map(
        (g) => `${g.email}:${g.role}`,
      ),
    ).toEqual(["ops+dns@example.com:operator"]);

    const renamed = await checked(GRANT, { ...operator, email: "dns@example.com" });
    expect((await plugin.diff(GRANT, "g", created.id, updated, renamed, operator)).replaces).toEqual(["email"]);
    expect(
      (await plugin.diff(GRANT, "g", created.id, updated, { ...operator, zoneId: "999" }, operator)).replaces,
    ).toEqual(["zoneId"]);

    const imported = await plugin.read(GRANT, "imp", `${zone.id}/Ops+DNS@Example.com`);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({ zoneId: zone.id, email: "ops+dns@example.com", role: "operator" });
    const importChecked = await checked(GRANT, imported.inputs);
    expect(
      (await plugin.diff(GRANT, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(GRANT, "imp", "ops@example.com")).rejects.toThrow(/<zoneId>\/<email>/);
    expect((await plugin.read(GRANT, "imp", `${zone.id}/nobody@example.com`)).id).toBe("");

    await plugin.delete(GRANT, "g", created.id, updated);
    expect(await control.list(`/dns/zones/${zone.id}/grants`)).toEqual([]);
    expect((await plugin.read(GRANT, "g", created.id, updated, operator)).id).toBe("");
    await plugin.delete(GRANT, "g", created.id, updated);
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
  });

  it("sees a role changed and a grant removed through the API", async () => {
    const zone = await newZone("grant-drift.example");
    const inputs = await checked(GRANT, { zoneId: zone.id, email: "dev@example.com", role: "operator" });
    const created = await plugin.create(GRANT, "g", inputs);
    await control.api("PUT", `/dns/zones/${zone.id}/grants/dev@example.com`, { role: "viewer" });
    const read = await plugin.read(GRANT, "g", created.id, created.properties, inputs);
    expect(read.properties.role).toBe("viewer");
    expect(await plugin.diff(GRANT, "g", created.id, read.properties, inputs, read.inputs)).toMatchObject({
      changes: true,
      diffs: ["role"],
      replaces: [],
    });
    await control.delete(`/dns/zones/${zone.id}/grants/dev@example.com`);
    expect((await plugin.read(GRANT, "g", created.id, read.properties, inputs)).id).toBe("");
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
    expect((await plugin.read(GRANT, "g", created.id, read.properties, inputs)).id).toBe("");
  });
});
