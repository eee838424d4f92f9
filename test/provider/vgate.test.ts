// The PBX gateway through the built plugin binary, driven over gRPC as the engine drives it,
// against a live in-process emulator.
import { beforeAll, describe, expect, it } from "vitest";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { setCallsUp } from "../../emulator/src/vgate/state";
import { isSecret, plain, secret, UNKNOWN, type PluginHandle } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

type Obj = Record<string, unknown>;
const Kind = providerPb.PropertyDiff.Kind;

const PBX = "nsp:vgate:Pbx";
const EXTENSION = "nsp:vgate:Extension";
const TRUNK = "nsp:vgate:Trunk";
const NUMBER = "nsp:vgate:Number";
const FLOW = "nsp:vgate:NumberFlow";
const INBOUND = "nsp:vgate:InboundRoute";
const OUTBOUND = "nsp:vgate:OutboundRoute";
const IVR = "nsp:vgate:Ivr";
const GROUP = "nsp:vgate:RingGroup";
const QUEUE = "nsp:vgate:Queue";
const TIMECOND = "nsp:vgate:TimeCondition";

const { emulator, control, plugin, anotherPlugin } = useProvider({ emulator: { accounts: [{ name: "pbx-owner", token: `svc_${"7a6b".repeat(8)}` }] } });
/**
 * Reads after a change made outside the provider. One plugin process serves one pulumi command
 * and reads the objects of a PBX from one list per command (batchReads), so a later command is a
 * later process; this plugin, without batching, sees every change at once instead.
 */
let later: PluginHandle;

beforeAll(async () => {
  later = await anotherPlugin({ batchReads: false });
});

let seq = 0;
/** A PBX made through the API, for the objects under test. */
async function apiPbx(): Promise<string> {
  return (await control.post<{ id: string }>("/vgate/pbx", { name: `fixture ${++seq}` })).id;
}
async function apiObject(pbx: string, path: string, body: Obj): Promise<string> {
  return (await control.post<{ id: string }>(`/vgate/pbx/${pbx}/${path}`, body)).id;
}

describe("nsp:vgate:Pbx over gRPC", () => {
  it("walks a PBX through its lifecycle, keeping the template's SIP passwords secret across refreshes", async () => {
    const checked = await plugin.check(PBX, "office", { name: "Office", template: "small-office", city: "lon", settings: { record_calls: false } });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ name: "Office", template: "small-office", city: "lon", settings: { record_calls: false } });

    await control.resetStats();
    const preview = await plugin.create(PBX, "office", checked.inputs, true);
    expect(preview.id).toBe("");
    expect(plain(preview.properties.sipPasswords)).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(PBX, "office", checked.inputs);
    expect(created.id).toMatch(/^pbx_/);
    expect(created.properties).toMatchObject({ name: "Office", city: "lon", timezone: "Europe/London", template: "small-office", language: "en", settings: { record_calls: false }, status: "active" });
    expect(isSecret(created.properties.sipPasswords)).toBe(true);
    const passwords = plain(created.properties.sipPasswords) as Record<string, string>;
    expect(Object.keys(passwords).sort()).toEqual(["101", "102", "103"]);
    for (const pw of Object.values(passwords)) expect(pw.length).toBeGreaterThan(8);

    // The API never shows the passwords again; a refresh keeps them, still secret.
    const read = await plugin.read(PBX, "office", created.id, created.properties, checked.inputs);
    expect(read.properties).toEqual(created.properties);
    expect(isSecret(read.properties.sipPasswords)).toBe(true);
    expect(plain(read.properties.sipPasswords)).toEqual(passwords);
    expect((await plugin.diff(PBX, "office", created.id, read.properties, checked.inputs, checked.inputs)).changes).toBe(false);

    // Name, time zone, language and settings are patched; the city moves the PBX in place.
    const next = (await plugin.check(PBX, "office", { ...checked.inputs, name: "Head office", city: "nyc", timezone: "America/Chicago", language: "zh", settings: { record_calls: true } })).inputs;
    const diff = await plugin.diff(PBX, "office", created.id, read.properties, next, checked.inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.detailed.city).toBe(Kind.UPDATE);
    const updated = await plugin.update(PBX, "office", created.id, read.properties, next, false, checked.inputs);
    expect(updated).toMatchObject({ name: "Head office", city: "nyc", timezone: "America/Chicago", language: "zh", settings: { record_calls: true } });
    expect(plain(updated.sipPasswords)).toEqual(passwords);
    expect(isSecret(updated.sipPasswords)).toBe(true);
    const afterUpdate = await plugin.read(PBX, "office", created.id, updated, next);
    expect(plain(afterUpdate.properties.sipPasswords)).toEqual(passwords);

    // The template only matters at creation: replace.
    const repl = await plugin.diff(PBX, "office", created.id, afterUpdate.properties, { ...next, template: "reception" }, next);
    expect(repl.replaces).toEqual(["template"]);

    // Dropping settings clears them.
    const { settings: _, ...noSettings } = next;
    const cleared = await plugin.update(PBX, "office", created.id, afterUpdate.properties, noSettings, false, next);
    expect(cleared.settings).toEqual({});

    // Import by id: the inputs are what the API holds; the passwords cannot be had.
    const imported = await plugin.read(PBX, "imp", created.id);
    expect(imported.inputs).toEqual({ name: "Head office", city: "nyc", timezone: "America/Chicago", template: "small-office", language: "zh", settings: {} });
    expect(imported.properties.sipPasswords).toBeUndefined();
    const importCheck = await plugin.check(PBX, "imp", imported.inputs);
    expect((await plugin.diff(PBX, "imp", imported.id, imported.properties, importCheck.inputs, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(PBX, "imp", "not a pbx id")).rejects.toThrow(/must be a PBX id/);

    await plugin.delete(PBX, "office", created.id, cleared);
    expect((await plugin.read(PBX, "office", created.id, cleared, noSettings)).id).toBe("");
    await plugin.delete(PBX, "office", created.id, cleared);
  });

  it("moves a PBX only while no call is up, and the error says so", async () => {
    const inputs = (await plugin.check(PBX, "mv", { name: "Mover" })).inputs;
    const created = await plugin.create(PBX, "mv", inputs);
    expect(created.properties).toMatchObject({ city: "fra", template: "blank", sipPasswords: expect.anything() });
    expect(plain(created.properties.sipPasswords)).toEqual({});
    setCallsUp(emulator.app.store, created.id, 2);
    const moved = { ...inputs, city: "sgp" };
    await expect(plugin.update(PBX, "mv", created.id, created.properties, moved, false, inputs)).rejects.toThrow(/refused to move PBX .* to sgp: .*cannot move while a call is up/);
    expect((await plugin.read(PBX, "mv", created.id, created.properties, inputs)).properties.city).toBe("fra");
    setCallsUp(emulator.app.store, created.id, 0);
    expect((await plugin.update(PBX, "mv", created.id, created.properties, moved, false, inputs)).city).toBe("sgp");
    await plugin.delete(PBX, "mv", created.id, created.properties);
  });

  it("sees drift made through the API on Read", async () => {
    const inputs = (await plugin.check(PBX, "d", { name: "Drift", language: "en" })).inputs;
    const created = await plugin.create(PBX, "d", inputs);
    await control.patch(`/vgate/pbx/${created.id}`, { language: "zh" });
    const refreshed = await plugin.read(PBX, "d", created.id, created.properties, inputs);
    expect(refreshed.properties.language).toBe("zh");
    expect(await plugin.diff(PBX, "d", created.id, refreshed.properties, inputs, refreshed.inputs)).toMatchObject({ changes: true, diffs: ["language"], replaces: [] });
    await control.delete(`/vgate/pbx/${created.id}`);
    expect((await plugin.read(PBX, "d", created.id, refreshed.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    const cases: [Obj, string][] = [
      [{ name: "" }, "name"],
      [{}, "name"],
      [{ name: "x", language: "fr" }, "language"],
      [{ name: "x", template: "office" }, "template"],
      [{ name: "x", timezone: "Mars/Olympus" }, "timezone"],
      [{ name: "x", settings: "on" }, "settings"],
      [{ name: "x", colour: "red" }, "colour"],
    ];
    for (const [news, property] of cases) {
      const { failures } = await plugin.check(PBX, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toContain(property);
    }
    expect((await control.stats()).total).toBe(0);
  });
});

interface ObjectCase {
  type: string;
  /** The API path segment under the PBX. */
  path: string;
  /** Objects the case refers to, made through the API in a fresh PBX. */
  setup: (pbx: string) => Promise<Obj>;
  inputs: (refs: Obj) => Obj;
  update: (refs: Obj) => Obj;
  /** A patch through the API and the property that shows it. */
  drift: { body: Obj; property: string; value: unknown };
  bad: [Obj, string][];
}

const extFixture = async (pbx: string) => ({
  ext1: await apiObject(pbx, "extensions", { number: "201" }),
  ext2: await apiObject(pbx, "extensions", { number: "202" }),
});
const trunkFixture = async (pbx: string) => ({ trunk: await apiObject(pbx, "trunks", { mode: "peer", host: "192.0.2.50" }) });

const CASES: ObjectCase[] = [
  {
    type: EXTENSION,
    path: "extensions",
    setup: async (pbx) => extFixture(pbx),
    inputs: () => ({ number: "101", name: "Alice", userEmail: "alice@example.test", voicemail: { enabled: true, pin: "2468" }, ringTimeout: 25 }),
    update: (r) => ({ name: "Alice B", dnd: true, forward: { busy: `voicemail:${r.ext1}` }, outboundClass: "international" }),
    drift: { body: { name: "Changed" }, property: "name", value: "Changed" },
    bad: [
      [{ number: "10a" }, "number"],
      [{ userEmail: "nope" }, "userEmail"],
      [{ callerIdNumber: "0301234" }, "callerIdNumber"],
      [{ ringTimeout: 1.5 }, "ringTimeout"],
      [{ maxCalls: 0 }, "maxCalls"],
      [{ voicemail: "yes" }, "voicemail"],
    ],
  },
  {
    type: TRUNK,
    path: "trunks",
    setup: async () => ({}),
    inputs: () => ({ name: "Carrier", host: "sip.carrier.example", username: "acct", password: "first-secret", maxChannels: 4 }),
    update: () => ({ host: "sip2.carrier.example", codecs: ["opus", "ulaw"], password: "second-secret" }),
    drift: { body: { max_channels: 9 }, property: "maxChannels", value: 9 },
    bad: [
      [{ port: 70000 }, "port"],
      [{ authIps: ["not-an-ip"] }, "authIps[0]"],
      [{ callerId: "12" }, "callerId"],
      [{ maxChannels: -1 }, "maxChannels"],
      [{ codecs: "opus" }, "codecs"],
    ],
  },
  {
    type: NUMBER,
    path: "numbers",
    setup: trunkFixture,
    inputs: (r) => ({ e164: "+4930555401", trunkId: r.trunk }),
    update: () => ({ e164: "+4930555402", trunkId: null }),
    drift: { body: { e164: "+4930555409" }, property: "e164", value: "+4930555409" },
    bad: [
      [{ e164: undefined }, "e164"],
      [{ e164: "4930555" }, "e164"],
      [{ trunkId: "bad id!" }, "trunkId"],
    ],
  },
  {
    type: INBOUND,
    path: "inbound",
    setup: async (pbx) => ({ ...(await extFixture(pbx)), number: await apiObject(pbx, "numbers", { e164: `+4930555${410 + ++seq}` }) }),
    inputs: (r) => ({ name: "Main line", numberId: r.number, destination: `extension:${r.ext1}` }),
    update: (r) => ({ destination: `voicemail:${r.ext2}`, cidPattern: "+49." }),
    drift: { body: { destination: "hangup" }, property: "destination", value: "hangup" },
    bad: [
      [{ destination: undefined }, "destination"],
      [{ destination: "ivr: x" }, "destination"],
      [{ did: "+49 30" }, "did"],
      [{ numberId: "" }, "numberId"],
    ],
  },
  {
    type: OUTBOUND,
    path: "outbound",
    setup: async (pbx) => ({ ...(await trunkFixture(pbx)), trunk2: await apiObject(pbx, "trunks", { mode: "peer", host: "192.0.2.51" }) }),
    inputs: (r) => ({ name: "National", patterns: [{ match: "0ZX.", strip: 1, prepend: "+49" }], trunks: [r.trunk], priority: 10 }),
    update: (r) => ({ trunks: [r.trunk2, r.trunk], emergency: true, callerIdOverride: "+4930555499" }),
    drift: { body: { priority: 77 }, property: "priority", value: 77 },
    bad: [
      [{ patterns: [] }, "patterns"],
      [{ trunks: undefined }, "trunks"],
      [{ priority: -1 }, "priority"],
      [{ callerIdOverride: "x" }, "callerIdOverride"],
    ],
  },
  {
    type: IVR,
    path: "ivrs",
    setup: extFixture,
    inputs: (r) => ({ name: "Menu", greeting: "welcome", options: { "1": `extension:${r.ext1}` }, repeat: 2 }),
    update: (r) => ({ options: { "1": `extension:${r.ext1}`, "2": `extension:${r.ext2}` }, timeoutS: 5, directDial: true, invalid: `voicemail:${r.ext1}` }),
    drift: { body: { repeat: 4 }, property: "repeat", value: 4 },
    bad: [
      [{ timeoutS: -1 }, "timeoutS"],
      [{ directDial: "yes" }, "directDial"],
      [{ invalid: "" }, "invalid"],
      [{ options: ["1"] }, "options"],
    ],
  },
  {
    type: GROUP,
    path: "groups",
    setup: extFixture,
    inputs: (r) => ({ number: "600", name: "Sales", members: [r.ext1], ringS: 20 }),
    update: (r) => ({ strategy: "hunt", members: [r.ext1, r.ext2], noanswer: `voicemail:${r.ext1}` }),
    drift: { body: { ring_s: 45 }, property: "ringS", value: 45 },
    bad: [
      [{ members: "x" }, "members"],
      [{ ringS: 0 }, "ringS"],
      [{ number: "six" }, "number"],
    ],
  },
  {
    type: QUEUE,
    path: "queues",
    setup: extFixture,
    inputs: (r) => ({ number: "700", name: "Support", agents: [r.ext1], maxWaitS: 120 }),
    update: (r) => ({ agents: [r.ext2], announcePosition: true, announceEveryS: 30, timeout: `voicemail:${r.ext2}` }),
    drift: { body: { max_wait_s: 99 }, property: "maxWaitS", value: 99 },
    bad: [
      [{ maxWaitS: 1.5 }, "maxWaitS"],
      [{ announcePosition: "no" }, "announcePosition"],
      [{ agents: [""] }, "agents[0]"],
    ],
  },
  {
    type: TIMECOND,
    path: "timeconds",
    setup: async () => ({}),
    inputs: () => ({ name: "Business hours", schedule: [{ days: ["mon", "tue", "wed", "thu", "fri"], from: "09:00", to: "17:00" }] }),
    update: () => ({ schedule: [{ days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" }, { days: ["sat"], from: "10:00", to: "14:00" }] }),
    drift: { body: { name: "Changed" }, property: "name", value: "Changed" },
    bad: [
      [{ schedule: undefined }, "schedule"],
      [{ schedule: [] }, "schedule"],
      [{ name: "" }, "name"],
    ],
  },
];

describe.each(CASES)("$type over gRPC", (c) => {
  it("walks through its lifecycle and imports as <pbx>/<id>", async () => {
    const pbx = await apiPbx();
    const refs = await c.setup(pbx);
    const inputs = (await plugin.check(c.type, "obj", { pbxId: pbx, ...c.inputs(refs) })).inputs;

    await control.resetStats();
    const preview = await plugin.create(c.type, "obj", inputs, true);
    expect(preview.id).toBe("");
    expect(preview.properties.createdAt).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(c.type, "obj", inputs);
    expect(created.id).toMatch(/^[a-z]+_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ pbxId: pbx });
    for (const [k, v] of Object.entries(inputs)) expect(plain(created.properties[k]), k).toEqual(plain(v));
    const read = await plugin.read(c.type, "obj", created.id, created.properties, inputs);
    expect(read.id).toBe(created.id);
    expect(read.properties).toEqual(created.properties);
    expect(await plugin.diff(c.type, "obj", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false, replaces: [] });

    const next = (await plugin.check(c.type, "obj", { ...inputs, ...c.update(refs) })).inputs;
    const diff = await plugin.diff(c.type, "obj", created.id, read.properties, next, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.diffs.sort()).toEqual(Object.keys(c.update(refs)).sort());
    const updated = await plugin.update(c.type, "obj", created.id, read.properties, next, false, inputs);
    for (const [k, v] of Object.entries(next)) expect(plain(updated[k]), k).toEqual(plain(v));
    const reread = await plugin.read(c.type, "obj", created.id, updated, next);
    expect(reread.properties).toEqual(updated);

    // Objects cannot move between PBXs.
    const other = await apiPbx();
    expect((await plugin.diff(c.type, "obj", created.id, reread.properties, { ...next, pbxId: other }, next)).replaces).toEqual(["pbxId"]);

    const imported = await plugin.read(c.type, "imp", `${pbx}/${created.id}`);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toMatchObject({ pbxId: pbx });
    const importCheck = await plugin.check(c.type, "imp", imported.inputs);
    expect(importCheck.failures).toEqual([]);
    expect((await plugin.diff(c.type, "imp", imported.id, imported.properties, importCheck.inputs, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(c.type, "imp", "no-slash-and-no-pbx")).rejects.toThrow(/must have the form <pbx>\/<id>/);

    await plugin.delete(c.type, "obj", created.id, reread.properties);
    expect((await plugin.read(c.type, "obj", created.id, reread.properties, next)).id).toBe("");
    await plugin.delete(c.type, "obj", created.id, reread.properties);
  });

  it("sees drift made through the API on Read", async () => {
    const pbx = await apiPbx();
    const inputs = (await plugin.check(c.type, "drift", { pbxId: pbx, ...c.inputs(await c.setup(pbx)) })).inputs;
    const created = await plugin.create(c.type, "drift", inputs);
    await control.patch(`/vgate/pbx/${pbx}/${c.path}/${created.id}`, c.drift.body);
    const refreshed = await later.read(c.type, "drift", created.id, created.properties, inputs);
    expect(refreshed.properties[c.drift.property]).toEqual(c.drift.value);
    expect(await plugin.diff(c.type, "drift", created.id, refreshed.properties, inputs, refreshed.inputs)).toMatchObject({ changes: true, diffs: [c.drift.property], replaces: [] });
    await control.delete(`/vgate/pbx/${pbx}/${c.path}/${created.id}`);
    expect((await later.read(c.type, "drift", created.id, refreshed.properties, inputs)).id).toBe("");
    // A PBX deleted underneath takes its objects with it.
    const again = await plugin.create(c.type, "drift", inputs);
    await control.delete(`/vgate/pbx/${pbx}`);
    expect((await later.read(c.type, "drift", again.id, again.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    const base = { pbxId: "pbx_000000000000", ...c.inputs({ ext1: "ext_000000000001", ext2: "ext_000000000002", trunk: "trk_000000000001", trunk2: "trk_000000000002", number: "num_000000000001" }) };
    await control.resetStats();
    for (const [change, property] of [...c.bad, [{ pbxId: "" }, "pbxId"] as [Obj, string]]) {
      const news = Object.fromEntries(Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined));
      const { failures } = await plugin.check(c.type, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(change)).toContain(property);
    }
    expect((await control.stats()).total).toBe(0);
  });
});

describe("secrets of extensions and trunks", () => {
  it("keeps an extension's SIP password secret across refreshes and rotates it on a trigger", async () => {
    const pbx = await apiPbx();
    const inputs = (await plugin.check(EXTENSION, "e", { pbxId: pbx, passwordRotation: 1 })).inputs;
    const created = await plugin.create(EXTENSION, "e", inputs);
    expect(isSecret(created.properties.sipPassword)).toBe(true);
    const first = plain(created.properties.sipPassword) as string;
    expect(first.length).toBeGreaterThan(8);
    expect(created.properties).toMatchObject({ number: "101", sipUsername: "101", passwordRotation: 1, sipPasswordIssuedAt: expect.any(String) });

    const refreshed = await plugin.read(EXTENSION, "e", created.id, created.properties, inputs);
    expect(isSecret(refreshed.properties.sipPassword)).toBe(true);
    expect(plain(refreshed.properties.sipPassword)).toBe(first);
    expect(refreshed.inputs).toEqual({ pbxId: pbx, passwordRotation: 1 });

    const rotate = { ...inputs, passwordRotation: 2 };
    const d = await plugin.diff(EXTENSION, "e", created.id, refreshed.properties, rotate, inputs);
    expect(d).toMatchObject({ changes: true, diffs: ["passwordRotation"], replaces: [] });
    await control.resetStats();
    const rotated = await plugin.update(EXTENSION, "e", created.id, refreshed.properties, rotate, false, inputs);
    expect((await control.stats()).byRoute).toEqual({ "POST /vgate/pbx/{pbx}/extensions/{id}/password": 1 });
    expect(isSecret(rotated.sipPassword)).toBe(true);
    const second = plain(rotated.sipPassword) as string;
    expect(second).not.toBe(first);
    const after = await plugin.read(EXTENSION, "e", created.id, rotated, rotate);
    expect(plain(after.properties.sipPassword)).toBe(second);
    expect(isSecret(after.properties.sipPassword)).toBe(true);

    // A password issued through the API makes the stored one useless: the refresh says so.
    await new Promise((r) => setTimeout(r, 5));
    await control.post(`/vgate/pbx/${pbx}/extensions/${created.id}/password`, undefined);
    const stale = await later.read(EXTENSION, "e", created.id, after.properties, rotate);
    expect(plain(stale.properties.sipPassword)).toBe(second);
    expect(later.engineLogs.join("\n")).toMatch(/SIP password of extension 101 was issued again outside this program/);

    // An imported extension has no password until the trigger is set.
    const imported = await plugin.read(EXTENSION, "imp", `${pbx}/${created.id}`);
    expect(imported.properties.sipPassword).toBeUndefined();
    const withTrigger = (await plugin.check(EXTENSION, "imp", { ...imported.inputs, passwordRotation: "now" })).inputs;
    expect((await plugin.diff(EXTENSION, "imp", imported.id, imported.properties, withTrigger, imported.inputs)).diffs).toEqual(["passwordRotation"]);
    const issued = await plugin.update(EXTENSION, "imp", imported.id, imported.properties, withTrigger, false, imported.inputs);
    expect(plain(issued.sipPassword)).toEqual(expect.any(String));
    expect(plain(issued.sipPassword)).not.toBe(second);
  });

  it("keeps a trunk's password a secret input that the API never returns", async () => {
    const pbx = await apiPbx();
    const inputs = (await plugin.check(TRUNK, "t", { pbxId: pbx, host: "sip.carrier.example", username: "u", password: secret("pa55word") })).inputs;
    expect(isSecret(inputs.password)).toBe(true);
    const created = await plugin.create(TRUNK, "t", inputs);
    expect(isSecret(created.properties.password)).toBe(true);
    expect(plain(created.properties.password)).toBe("pa55word");
    expect(created.properties.passwordSet).toBe(true);
    const raw = await control.get(`/vgate/pbx/${pbx}/trunks/${created.id}`);
    expect(JSON.stringify(raw)).not.toContain("pa55word");
    const refreshed = await plugin.read(TRUNK, "t", created.id, created.properties, { ...inputs, password: "pa55word" });
    expect(isSecret(refreshed.properties.password)).toBe(true);
    expect(isSecret(refreshed.inputs.password)).toBe(true);
    expect(plain(refreshed.properties.password)).toBe("pa55word");
  });
});

describe("nsp:vgate:NumberFlow over gRPC", () => {
  it("sets, reads, changes, imports and clears a number's flow", async () => {
    const pbx = await apiPbx();
    const ext1 = await apiObject(pbx, "extensions", {});
    const ext2 = await apiObject(pbx, "extensions", {});
    const numberId = await apiObject(pbx, "numbers", { e164: "+4930555500" });
    const flow = { ring: [ext1, ext2], ring_s: 15, hours: [{ days: ["mon"], from: "09:00", to: "17:00" }], after_hours: `voicemail:${ext1}` };
    const inputs = (await plugin.check(FLOW, "f", { pbxId: pbx, numberId, flow })).inputs;
    await control.resetStats();
    const preview = await plugin.create(FLOW, "f", inputs, true);
    expect(preview.properties.groupId).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);

    const created = await plugin.create(FLOW, "f", inputs);
    expect(created.id).toBe(numberId);
    expect(created.properties).toMatchObject({ flow, groupId: expect.stringMatching(/^grp_/), timeconditionId: expect.stringMatching(/^tc_/) });
    const read = await plugin.read(FLOW, "f", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(FLOW, "f", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const next = { ...inputs, flow: { destination: `extension:${ext2}` } };
    expect((await plugin.diff(FLOW, "f", created.id, read.properties, next, inputs)).diffs).toEqual(["flow"]);
    const updated = await plugin.update(FLOW, "f", created.id, read.properties, next, false, inputs);
    expect(updated).toMatchObject({ flow: { destination: `extension:${ext2}` }, groupId: null, timeconditionId: null });
    const replace = await plugin.diff(FLOW, "f", created.id, updated, { ...next, numberId: "num_000000000000" }, next);
    expect(replace.replaces).toEqual(["numberId"]);

    const imported = await plugin.read(FLOW, "imp", `${pbx}/${numberId}`);
    expect(imported.inputs).toEqual({ pbxId: pbx, numberId, flow: { destination: `extension:${ext2}` } });
    const importCheck = await plugin.check(FLOW, "imp", imported.inputs);
    expect((await plugin.diff(FLOW, "imp", imported.id, imported.properties, importCheck.inputs, imported.inputs)).changes).toBe(false);

    // Drift: a flow changed or cleared through the API.
    await control.api("PUT", `/vgate/pbx/${pbx}/numbers/${numberId}/flow`, { destination: "hangup" });
    const drifted = await plugin.read(FLOW, "f", created.id, updated, next);
    expect(drifted.properties.flow).toEqual({ destination: "hangup" });
    expect((await plugin.diff(FLOW, "f", created.id, drifted.properties, next, drifted.inputs)).diffs).toEqual(["flow"]);
    await control.api("PUT", `/vgate/pbx/${pbx}/numbers/${numberId}/flow`, {});
    expect((await plugin.read(FLOW, "f", created.id, drifted.properties, next)).id).toBe("");

    const again = await plugin.create(FLOW, "f", next);
    await plugin.delete(FLOW, "f", again.id, again.properties);
    expect((await control.get<Obj>(`/vgate/pbx/${pbx}/numbers/${numberId}`)).flow).toBeNull();
    expect((await plugin.read(FLOW, "f", again.id, again.properties, next)).id).toBe("");
  });

  it("rejects bad input in Check before any request", async () => {
    await control.resetStats();
    const cases: [Obj, string][] = [
      [{ pbxId: "pbx_000000000000", numberId: "num_000000000000", flow: {} }, "flow"],
      [{ pbxId: "pbx_000000000000", flow: { destination: "hangup" } }, "numberId"],
      [{ pbxId: "pbx_000000000000", numberId: "num_000000000000", flow: "ring everyone" }, "flow"],
    ];
    for (const [news, property] of cases) expect((await plugin.check(FLOW, "bad", news)).failures.map((f) => f.property)).toContain(property);
    expect((await control.stats()).total).toBe(0);
  });
});

describe("objects that route to each other", () => {
  it("delete in dependency order, and deleting a referenced object first fails naming the blocker", async () => {
    const pbx = await apiPbx();
    const make = async (type: string, name: string, news: Obj) => {
      const inputs = (await plugin.check(type, name, { pbxId: pbx, ...news })).inputs;
      return { type, name, ...(await plugin.create(type, name, inputs)) };
    };
    const trunk = await make(TRUNK, "trunk", { mode: "peer", host: "192.0.2.60" });
    const alice = await make(EXTENSION, "alice", { number: "101" });
    const bob = await make(EXTENSION, "bob", { number: "102" });
    const group = await make(GROUP, "sales", { name: "Sales", members: [alice.id, bob.id] });
    const menu = await make(IVR, "menu", { name: "Menu", options: { "1": `group:${group.id}` } });
    const num = await make(NUMBER, "main", { e164: "+4930555600", trunkId: trunk.id });
    const route = await make(INBOUND, "in", { name: "Main line", numberId: num.id, destination: `ivr:${menu.id}` });
    const out = await make(OUTBOUND, "out", { name: "Out", patterns: [{ match: "X." }], trunks: [trunk.id] });

    await expect(plugin.delete(EXTENSION, "alice", alice.id, alice.properties)).rejects.toThrow(
      new RegExp(`nsp:vgate:Extension: the gateway refuses to delete extension ${alice.id} while something routes to it: .*ring group "Sales" \\(${group.id}\\)`),
    );
    await expect(plugin.delete(GROUP, "sales", group.id, group.properties)).rejects.toThrow(/IVR "Menu"/);
    await expect(plugin.delete(IVR, "menu", menu.id, menu.properties)).rejects.toThrow(/inbound route "Main line"/);
    await expect(plugin.delete(NUMBER, "main", num.id, num.properties)).rejects.toThrow(/inbound route "Main line"/);
    await expect(plugin.delete(TRUNK, "trunk", trunk.id, trunk.properties)).rejects.toThrow(/number \+4930555600 .*outbound route "Out"/);

    // What the engine does on destroy: dependents first.
    for (const r of [out, route, num, trunk, menu, group, bob, alice]) await plugin.delete(r.type, r.name, r.id, r.properties);
    const left = await Promise.all(["extensions", "trunks", "numbers", "inbound", "outbound", "ivrs", "groups"].map((p) => control.list(`/vgate/pbx/${pbx}/${p}`)));
    expect(left.flat()).toEqual([]);
  });
});

describe("a refresh of many objects of one PBX", () => {
  it("reads them from one list per kind", async () => {
    const pbx = await apiPbx();
    const exts: Array<{ inputs: Obj; id: string; properties: Obj }> = [];
    for (let i = 0; i < 6; i++) {
      const inputs = (await plugin.check(EXTENSION, `e${i}`, { pbxId: pbx, name: `Desk ${i}` })).inputs;
      exts.push({ inputs, ...(await plugin.create(EXTENSION, `e${i}`, inputs)) });
    }
    const refresh = await anotherPlugin();
    await control.resetStats();
    const read = await Promise.all(exts.map((e, i) => refresh.read(EXTENSION, `e${i}`, e.id, e.properties, e.inputs)));
    expect(read.map((r) => r.properties.name)).toEqual(exts.map((_, i) => `Desk ${i}`));
    expect(read.every((r, i) => plain(r.properties.sipPassword) === plain(exts[i]!.properties.sipPassword))).toBe(true);
    expect((await control.stats()).byRoute).toEqual({ "GET /vgate/pbx/{pbx}/extensions": 1 });
  });
});

describe("nsp:vgate:getCities and nsp:vgate:getTemplates", () => {
  it("list the seeded cities and templates", async () => {
    const all = await plugin.invoke("nsp:vgate:getCities", {});
    expect(all.failures).toEqual([]);
    const cities = all.result.cities as Obj[];
    expect(cities.map((c) => c.id)).toEqual(["fra", "lon", "nyc", "sgp", "syd"]);
    expect(cities[0]).toEqual({ id: "fra", name: "Frankfurt", country: "DE", timezone: "Europe/Berlin", accepting: true });
    const open = await plugin.invoke("nsp:vgate:getCities", { acceptingOnly: true });
    expect((open.result.cities as Obj[]).map((c) => c.id)).not.toContain("syd");
    expect((await plugin.invoke("nsp:vgate:getCities", { acceptingOnly: "yes" })).failures[0]?.property).toBe("acceptingOnly");

    const templates = (await plugin.invoke("nsp:vgate:getTemplates", {})).result.templates as Obj[];
    expect(templates.map((t) => t.id)).toEqual(["small-office", "reception", "after-hours", "contact-centre", "conference", "personal", "blank"]);
    expect(templates[0]).toMatchObject({ name: "Small office", extensions: [{ number: "101", name: "Desk 1" }, { number: "102", name: "Desk 2" }, { number: "103", name: "Desk 3" }] });
  });
});
