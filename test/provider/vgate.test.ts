// The PBX gateway through the built plugin binary, driven over gRPC as the engine drives it,
// against a live in-process emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { setCallsUp } from "../../emulator/src/vgate/state";
import type * as grpc from "@grpc/grpc-js";
import { initFailure, isSecret, plain, secret, type PluginHandle } from "../helpers/plugin";
import { lifecycle, type LifecycleRow } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

type Obj = Record<string, unknown>;

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

// No server-side rate limit: the test's own control requests share the token with every plugin it
// starts (each checks the token at Configure), and what is under test here is not the quota.
const provider = useProvider({
  emulator: { rateLimitPerMinute: 0, accounts: [{ name: "pbx-owner", token: `svc_${"7a6b".repeat(8)}` }] },
});
const { emulator, control, plugin, anotherPlugin } = provider;
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
  it("moves a PBX only while no call is up, and the error says so", async () => {
    const inputs = (await plugin.check(PBX, "mv", { name: "Mover" })).inputs;
    const created = await plugin.create(PBX, "mv", inputs);
    expect(created.properties).toMatchObject({ city: "fra", template: "blank", sipPasswords: expect.anything() });
    expect(plain(created.properties.sipPasswords)).toEqual({});
    setCallsUp(emulator.app.store, created.id, 2);
    const moved = { ...inputs, city: "sgp" };
    await expect(plugin.update(PBX, "mv", created.id, created.properties, moved, false, inputs)).rejects.toThrow(
      /refused to move PBX .* to sgp: .*cannot move while a call is up/,
    );
    expect((await plugin.read(PBX, "mv", created.id, created.properties, inputs)).properties.city).toBe("fra");
    setCallsUp(emulator.app.store, created.id, 0);
    expect((await plugin.update(PBX, "mv", created.id, created.properties, moved, false, inputs)).city).toBe("sgp");
    await plugin.delete(PBX, "mv", created.id, created.properties);
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
  /** A patch through the API and the inputs Read then reports. */
  drift: { body: Obj; inputs: Obj };
  bad: [Obj, string][];
  /** Inputs the API never returns. */
  writeOnly?: string[];
}

const extFixture = async (pbx: string) => ({
  ext1: await apiObject(pbx, "extensions", { number: "201" }),
  ext2: await apiObject(pbx, "extensions", { number: "202" }),
});
const trunkFixture = async (pbx: string) => ({
  trunk: await apiObject(pbx, "trunks", { mode: "peer", host: "192.0.2.50" }),
});

const CASES: ObjectCase[] = [
  {
    type: EXTENSION,
    path: "extensions",
    setup: async (pbx) => extFixture(pbx),
    inputs: () => ({
      number: "101",
      name: "Alice",
      userEmail: "alice@example.test",
      voicemail: { enabled: true, pin: "2468" },
      ringTimeout: 25,
    }),
    update: (r) => ({
      name: "Alice B",
      dnd: true,
      forward: { busy: `voicemail:${r.ext1}` },
      outboundClass: "international",
    }),
    drift: { body: { name: "Changed" }, inputs: { name: "Changed" } },
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
    inputs: () => ({
      name: "Carrier",
      host: "sip.carrier.example",
      username: "acct",
      password: secret("first-secret"),
      maxChannels: 4,
    }),
    update: () => ({ host: "sip2.carrier.example", codecs: ["opus", "ulaw"], password: secret("second-secret") }),
    drift: { body: { max_channels: 9 }, inputs: { maxChannels: 9 } },
    writeOnly: ["password"],
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
    update: () => ({ e164: "+4930555402" }),
    drift: { body: { e164: "+4930555409" }, inputs: { e164: "+4930555409" } },
    bad: [
      [{ e164: undefined }, "e164"],
      [{ e164: "4930555" }, "e164"],
      [{ trunkId: "bad id!" }, "trunkId"],
    ],
  },
  {
    type: INBOUND,
    path: "inbound",
    setup: async (pbx) => ({
      ...(await extFixture(pbx)),
      number: await apiObject(pbx, "numbers", { e164: `+4930555${410 + ++seq}` }),
    }),
    inputs: (r) => ({ name: "Main line", numberId: r.number, destination: `extension:${r.ext1}` }),
    update: (r) => ({ destination: `voicemail:${r.ext2}`, cidPattern: "+49." }),
    drift: { body: { destination: "hangup" }, inputs: { destination: "hangup" } },
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
    setup: async (pbx) => ({
      ...(await trunkFixture(pbx)),
      trunk2: await apiObject(pbx, "trunks", { mode: "peer", host: "192.0.2.51" }),
    }),
    inputs: (r) => ({
      name: "National",
      patterns: [{ match: "0ZX.", strip: 1, prepend: "+49" }],
      trunks: [r.trunk],
      priority: 10,
    }),
    update: (r) => ({ trunks: [r.trunk2, r.trunk], emergency: true, callerIdOverride: "+4930555499" }),
    drift: { body: { priority: 77 }, inputs: { priority: 77 } },
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
    update: (r) => ({
      options: { "1": `extension:${r.ext1}`, "2": `extension:${r.ext2}` },
      timeoutS: 5,
      directDial: true,
      invalid: `voicemail:${r.ext1}`,
    }),
    drift: { body: { repeat: 4 }, inputs: { repeat: 4 } },
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
    drift: { body: { ring_s: 45 }, inputs: { ringS: 45 } },
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
    drift: { body: { max_wait_s: 99 }, inputs: { maxWaitS: 99 } },
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
    inputs: () => ({
      name: "Business hours",
      schedule: [{ days: ["mon", "tue", "wed", "thu", "fri"], from: "09:00", to: "17:00" }],
    }),
    update: () => ({
      schedule: [
        { days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" },
        { days: ["sat"], from: "10:00", to: "14:00" },
      ],
    }),
    drift: { body: { name: "Changed" }, inputs: { name: "Changed" } },
    bad: [
      [{ schedule: undefined }, "schedule"],
      [{ schedule: [] }, "schedule"],
      [{ name: "" }, "name"],
    ],
  },
];

/** Ids of the right form that name nothing: Check refuses the bad inputs before any request. */
const NO_REFS = {
  ext1: "ext_000000000001",
  ext2: "ext_000000000002",
  trunk: "trk_000000000001",
  trunk2: "trk_000000000002",
  number: "num_000000000001",
};

/** A row for an object of a PBX: made in a fresh PBX, imported as <pbx>/<id>, unable to move to another PBX. */
function objectRow(c: ObjectCase): LifecycleRow {
  let refs: Obj = {};
  const base = { pbxId: "pbx_000000000000", ...c.inputs(NO_REFS) };
  return {
    type: c.type,
    create: async () => {
      const pbx = await apiPbx();
      refs = await c.setup(pbx);
      return { pbxId: pbx, ...c.inputs(refs) };
    },
    unknownOutput: "createdAt",
    update: () => c.update(refs),
    replace: { pbxId: "pbx_000000000000" },
    apiPath: (inputs, id) => `/vgate/pbx/${inputs.pbxId}/${c.path}/${id}`,
    importId: (inputs, id) => `${inputs.pbxId}/${id}`,
    drift: c.drift,
    writeOnly: c.writeOnly,
    bad: [...c.bad, [{ pbxId: "" }, "pbxId"] as [Obj, string]].map(([change, property]) => [
      Object.fromEntries(Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined)),
      property,
    ]),
    nestedFailures: ["["],
  };
}

let flowRefs: { pbx: string; ext1: string; ext2: string } | undefined;
const flowPath = (inputs: Obj) => `/vgate/pbx/${inputs.pbxId}/numbers/${inputs.numberId}`;

lifecycle(provider, [
  {
    type: PBX,
    create: {
      name: "Office",
      template: "small-office",
      city: "lon",
      language: "en",
      settings: { record_calls: false },
    },
    unknownOutput: "sipPasswords",
    // The city moves the PBX in place.
    update: {
      name: "Head office",
      city: "nyc",
      timezone: "America/Chicago",
      language: "zh",
      settings: { record_calls: true },
    },
    replace: { template: "reception" },
    apiPath: (_inputs, id) => `/vgate/pbx/${id}`,
    drift: { body: { language: "zh" }, inputs: { language: "zh" } },
    bad: [
      [{ name: "" }, "name"],
      [{}, "name"],
      [{ name: "x", language: "fr" }, "language"],
      [{ name: "x", template: "office" }, "template"],
      [{ name: "x", timezone: "Mars/Olympus" }, "timezone"],
      [{ name: "x", settings: "on" }, "settings"],
      [{ name: "x", colour: "red" }, "colour"],
    ],
  },
  ...CASES.map(objectRow),
  {
    type: FLOW,
    create: async () => {
      const pbx = await apiPbx();
      flowRefs = { pbx, ext1: await apiObject(pbx, "extensions", {}), ext2: await apiObject(pbx, "extensions", {}) };
      const numberId = await apiObject(pbx, "numbers", { e164: `+4930555${500 + ++seq}` });
      return {
        pbxId: pbx,
        numberId,
        flow: {
          ring: [flowRefs.ext1, flowRefs.ext2],
          ring_s: 15,
          hours: [{ days: ["mon"], from: "09:00", to: "17:00" }],
          after_hours: `voicemail:${flowRefs.ext1}`,
        },
      };
    },
    unknownOutput: "groupId",
    update: () => ({ flow: { destination: `extension:${flowRefs!.ext2}` } }),
    replace: { numberId: "num_000000000000" },
    apiPath: (inputs) => `${flowPath(inputs)}/flow`,
    exists: async (inputs) => (await control.get<Obj>(flowPath(inputs))).flow !== null,
    importId: (inputs) => `${inputs.pbxId}/${inputs.numberId}`,
    drift: { method: "PUT", body: { destination: "hangup" }, inputs: { flow: { destination: "hangup" } } },
    bad: [
      [{ pbxId: "pbx_000000000000", numberId: "num_000000000000", flow: {} }, "flow"],
      [{ pbxId: "pbx_000000000000", flow: { destination: "hangup" } }, "numberId"],
      [{ pbxId: "pbx_000000000000", numberId: "num_000000000000", flow: "ring everyone" }, "flow"],
    ],
    skip: {
      "drift delete": "the API has no DELETE of a flow; a PUT of an empty flow clears it, which a test below makes",
    },
  },
]);

describe("objects of a PBX", () => {
  it("refuse an import id that is not <pbx>/<id>, and a PBX id that is not one", async () => {
    for (const c of CASES)
      await expect(plugin.read(c.type, "imp", "no-slash-and-no-pbx"), c.type).rejects.toThrow(
        /is known by its id \(<pbx>\/<id>/,
      );
    await expect(plugin.read(PBX, "imp", "not a pbx id")).rejects.toThrow(
      /is not a PBX id; a PBX is known by its id \(<pbx>\)/,
    );
  });

  it("are gone when their PBX is deleted underneath", async () => {
    for (const c of CASES) {
      const pbx = await apiPbx();
      const inputs = (await plugin.check(c.type, "under", { pbxId: pbx, ...c.inputs(await c.setup(pbx)) })).inputs;
      const created = await plugin.create(c.type, "under", inputs);
      await control.delete(`/vgate/pbx/${pbx}`);
      expect((await later.read(c.type, "under", created.id, created.properties, inputs)).id, c.type).toBe("");
    }
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
    expect(created.properties).toMatchObject({
      number: "101",
      sipUsername: "101",
      passwordRotation: 1,
      sipPasswordIssuedAt: expect.any(String),
    });

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
    expect(
      (await plugin.diff(EXTENSION, "imp", imported.id, imported.properties, withTrigger, imported.inputs)).diffs,
    ).toEqual(["passwordRotation"]);
    const issued = await plugin.update(
      EXTENSION,
      "imp",
      imported.id,
      imported.properties,
      withTrigger,
      false,
      imported.inputs,
    );
    expect(plain(issued.sipPassword)).toEqual(expect.any(String));
    expect(plain(issued.sipPassword)).not.toBe(second);
  });

  it("keeps a trunk's password a secret input that the API never returns", async () => {
    const pbx = await apiPbx();
    const inputs = (
      await plugin.check(TRUNK, "t", {
        pbxId: pbx,
        host: "sip.carrier.example",
        username: "u",
        password: secret("pa55word"),
      })
    ).inputs;
    expect(isSecret(inputs.password)).toBe(true);
    const created = await plugin.create(TRUNK, "t", inputs);
    expect(isSecret(created.properties.password)).toBe(true);
    expect(plain(created.properties.password)).toBe("pa55word");
    expect(created.properties.passwordSet).toBe(true);
    const raw = await control.get(`/vgate/pbx/${pbx}/trunks/${created.id}`);
    expect(JSON.stringify(raw)).not.toContain("pa55word");
    const refreshed = await plugin.read(TRUNK, "t", created.id, created.properties, {
      ...inputs,
      password: "pa55word",
    });
    expect(isSecret(refreshed.properties.password)).toBe(true);
    expect(isSecret(refreshed.inputs.password)).toBe(true);
    expect(plain(refreshed.properties.password)).toBe("pa55word");
  });
});

describe("nsp:vgate:NumberFlow over gRPC", () => {
  it("is gone when the flow is cleared through the API, and its delete leaves the number without one", async () => {
    const pbx = await apiPbx();
    const ext = await apiObject(pbx, "extensions", {});
    const numberId = await apiObject(pbx, "numbers", { e164: "+4930555700" });
    const inputs = (await plugin.check(FLOW, "f", { pbxId: pbx, numberId, flow: { destination: `extension:${ext}` } }))
      .inputs;
    const created = await plugin.create(FLOW, "f", inputs);
    expect(created.id).toBe(numberId);
    await control.api("PUT", `/vgate/pbx/${pbx}/numbers/${numberId}/flow`, {});
    expect((await later.read(FLOW, "f", created.id, created.properties, inputs)).id).toBe("");

    const again = await plugin.create(FLOW, "f", inputs);
    await plugin.delete(FLOW, "f", again.id, again.properties);
    expect(await control.get<Obj>(`/vgate/pbx/${pbx}/numbers/${numberId}`)).toMatchObject({ id: numberId, flow: null });
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
      new RegExp(
        `nsp:vgate:Extension: the gateway refuses to delete extension ${alice.id} while something routes to it: .*ring group "Sales" \\(${group.id}\\)`,
      ),
    );
    await expect(plugin.delete(GROUP, "sales", group.id, group.properties)).rejects.toThrow(/IVR "Menu"/);
    await expect(plugin.delete(IVR, "menu", menu.id, menu.properties)).rejects.toThrow(/inbound route "Main line"/);
    await expect(plugin.delete(NUMBER, "main", num.id, num.properties)).rejects.toThrow(/inbound route "Main line"/);
    await expect(plugin.delete(TRUNK, "trunk", trunk.id, trunk.properties)).rejects.toThrow(
      /number \+4930555600 .*outbound route "Out"/,
    );

    // What the engine does on destroy: dependents first.
    for (const r of [out, route, num, trunk, menu, group, bob, alice])
      await plugin.delete(r.type, r.name, r.id, r.properties);
    const left = await Promise.all(
      ["extensions", "trunks", "numbers", "inbound", "outbound", "ivrs", "groups"].map((p) =>
        control.list(`/vgate/pbx/${pbx}/${p}`),
      ),
    );
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

  it("reads each with its own GET when batching is off", async () => {
    const pbx = await apiPbx();
    const inputs = (await plugin.check(EXTENSION, "solo", { pbxId: pbx, name: "Solo" })).inputs;
    const created = await plugin.create(EXTENSION, "solo", inputs);
    await control.resetStats();
    const read = await later.read(EXTENSION, "solo", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ pbxId: pbx, name: "Solo" });
    expect((await control.stats()).byRoute).toEqual({ "GET /vgate/pbx/{pbx}/extensions/{id}": 1 });
  });
});

describe("an update of a PBX object", () => {
  it(
    "keeps the PBX in the state with and without a patch, and keeps a patch that went through when the " +
      "password rotation after it fails",
    async () => {
      const pbx = await apiPbx();
      const inputs = (await plugin.check(EXTENSION, "u", { pbxId: pbx, name: "Before", passwordRotation: 1 })).inputs;
      const created = await plugin.create(EXTENSION, "u", inputs);
      expect(created.properties.pbxId).toBe(pbx);

      const renamed = { ...inputs, name: "After" };
      const patched = await plugin.update(EXTENSION, "u", created.id, created.properties, renamed, false, inputs);
      expect(patched).toMatchObject({ pbxId: pbx, name: "After" });

      const unchanged = await plugin.update(EXTENSION, "u", created.id, patched, renamed, false, renamed);
      expect(unchanged).toMatchObject({ pbxId: pbx, name: "After" });

      await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["POST"], path: "/password$" });
      try {
        const both = { ...renamed, name: "Again", passwordRotation: 2 };
        const err = (await plugin.update(EXTENSION, "u", created.id, patched, both, false, renamed).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        ))!;
        expect(err.message).toMatch(/upstream failure/);
        const partial = initFailure(err);
        expect(partial.id).toBe(created.id);
        expect(partial.properties).toMatchObject({ pbxId: pbx, name: "Again" });
        // The rotation did not happen: the next update tries it again.
        expect(partial.properties.passwordRotation).not.toBe(2);
      } finally {
        await control.clearFaults();
      }
      expect((await control.get<Obj>(`/vgate/pbx/${pbx}/extensions/${created.id}`)).name).toBe("Again");
    },
  );
});

describe("nsp:vgate:getCities and nsp:vgate:getTemplates", () => {
  it("list the seeded cities and templates", async () => {
    const all = await plugin.invoke("nsp:vgate:getCities", {});
    expect(all.failures).toEqual([]);
    const cities = all.result.cities as Obj[];
    expect(cities.map((c) => c.id)).toEqual(["fra", "lon", "nyc", "sgp", "syd"]);
    expect(cities[0]).toEqual({
      id: "fra",
      name: "Frankfurt",
      country: "DE",
      timezone: "Europe/Berlin",
      accepting: true,
    });
    const open = await plugin.invoke("nsp:vgate:getCities", { acceptingOnly: true });
    expect((open.result.cities as Obj[]).map((c) => c.id)).not.toContain("syd");
    expect((await plugin.invoke("nsp:vgate:getCities", { acceptingOnly: "yes" })).failures[0]?.property).toBe(
      "acceptingOnly",
    );

    const templates = (await plugin.invoke("nsp:vgate:getTemplates", {})).result.templates as Obj[];
    expect(templates.map((t) => t.id)).toEqual([
      "small-office",
      "reception",
      "after-hours",
      "contact-centre",
      "conference",
      "personal",
      "blank",
    ]);
    expect(templates[0]).toMatchObject({
      name: "Small office",
      extensions: [
        { number: "101", name: "Desk 1" },
        { number: "102", name: "Desk 2" },
        { number: "103", name: "Desk 3" },
      ],
    });
  });
});
