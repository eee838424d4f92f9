// The dynamic-provider adapter (@nsp/pulumi-dynamic) without an engine: its check and diff must
// give what the plugin gives for the same definitions (no network), a half-done create must come
// out as Pulumi's initialization error (the in-process emulator on loopback), its classes must
// cover the registry, and what Pulumi serializes into the state must be small and credential-free.
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/src/process/server";
import { EmulatorControl } from "../helpers/emulator-control";
import * as adapter from "../../provider/src/dynamic/adapter";
import { renderDeclarations } from "../../provider/src/dynamic/declarations";
import { diffResource } from "../../provider/src/framework/engine/diff";
import { UNKNOWN } from "../../provider/src/framework/engine/property-values";
import { record } from "../../provider/src/modules/dns/record";
import { zone } from "../../provider/src/modules/dns/zone";
import { resources } from "../../provider/src/modules/all-definitions";

const P = adapter.PROVIDER_KEY;
const K = adapter.INPUT_KEYS;
const closure = "exports.handler = ...";

/** A record's state as the adapter stores it: what the API returned, plus the input names. */
function recordState(inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { [P]: closure, ...inputs, createdAt: "2026-01-01T00:00:00Z", ...extra, [K]: Object.keys(inputs) };
}

describe("dynamic adapter: check", () => {
  it("drops __provider, applies defaults and normalises, as the plugin's Check does", async () => {
    const r = await adapter.check("nsp:dns:Zone", {}, { [P]: closure, serviceId: "2", name: "Example.COM." });
    expect(r).toEqual({
      inputs: { serviceId: "2", name: "example.com", mode: "zone", enabled: true, forceDestroy: false },
      failures: [],
    });
  });

  it("names each failing property: unknown keys, then the definition's rules across properties", async () => {
    const unknown = await adapter.check(
      "nsp:dns:Record",
      {},
      { [P]: closure, zoneId: "5", type: "MX", content: "10 mx.example.", colour: "red" },
    );
    expect(unknown.failures).toEqual([
      { property: "colour", reason: expect.stringMatching(/^unknown property "colour"/) },
    ]);
    const proxied = await adapter.check(
      "nsp:dns:Record",
      {},
      { [P]: closure, zoneId: "5", type: "MX", content: "10 mx.example.", proxied: true },
    );
    expect(proxied.failures).toEqual([
      { property: "proxied", reason: "only A, AAAA and CNAME records can be proxied, not MX" },
    ]);
  });

  it("passes values not yet known (preview) through and leaves cross-property rules for later", async () => {
    const r = await adapter.check(
      "nsp:dns:Record",
      {},
      { [P]: closure, zoneId: UNKNOWN, type: "A", content: "not-an-ip" },
    );
    expect(r.failures).toEqual([]);
    expect(r.inputs.zoneId).toBe(UNKNOWN);
  });

  it("rejects a type this version does not know, without a stack trace", async () => {
    const err = await adapter.check("nsp:dns:Nope", {}, {}).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/unknown resource type "nsp:dns:Nope"/);
    expect((err as Error).stack).not.toMatch(/adapter\.ts/);
  });
});

describe("dynamic adapter: diff", () => {
  const www = { zoneId: "5", name: "www", type: "A", content: "192.0.2.1", ttl: 600, enabled: true, proxied: false };

  it("no change, an in-place update, and a replacement", async () => {
    const olds = recordState(www);
    expect(await adapter.diff("nsp:dns:Record", "9", olds, { [P]: closure, ...www })).toMatchObject({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const ttl = await adapter.diff("nsp:dns:Record", "9", olds, { [P]: closure, ...www, ttl: 900 });
    expect(ttl).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["ttl"],
      detailedDiff: { ttl: { kind: "UPDATE", inputDiff: true } },
    });
    const renamed = await adapter.diff("nsp:dns:Record", "9", olds, { [P]: closure, ...www, name: "web" });
    expect(renamed).toMatchObject({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
      detailedDiff: { name: { kind: "UPDATE_REPLACE" } },
    });
  });

  it("deleteBeforeReplace follows the definition (a zone keeping its name must go first)", async () => {
    const inputs = { serviceId: "2", name: "example.com", mode: "zone", enabled: true };
    const olds = { [P]: closure, ...inputs, status: "pending", serial: 1, [K]: Object.keys(inputs) };
    const moved = await adapter.diff("nsp:dns:Zone", "5", olds, { [P]: closure, ...inputs, serviceId: "3" });
    expect(moved).toMatchObject({ changes: true, replaces: ["serviceId"], deleteBeforeReplace: true });
    const renamed = await adapter.diff("nsp:dns:Zone", "5", olds, { [P]: closure, ...inputs, name: "example.org" });
    expect(renamed).toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });
  });

  it("takes a state 0.1.0 wrote (the input names of 0.1.0 too) in the current shape: no change, and a real change still seen", async () => {
    const policy = { serviceId: "7", logMode: "blocked" };
    const olds = {
      [P]: closure,
      ...policy,
      scheduleJson: '{"mon":["09:00"]}',
      serviceName: "Resolver",
      [K]: [...Object.keys(policy), "scheduleJson"],
    };
    expect(
      await adapter.diff("nsp:services:Policy", "7", olds, { [P]: closure, ...policy, schedule: { mon: ["09:00"] } }),
    ).toMatchObject({ changes: false, replaces: [] });
    expect(await adapter.diff("nsp:services:Policy", "7", olds, { [P]: closure, ...policy })).toMatchObject({
      changes: true,
      diffs: ["schedule"],
      replaces: [],
    });
    // A program still spelling it the 0.1.0 way passes Check with the new shape.
    expect(
      (await adapter.check("nsp:services:Policy", {}, { [P]: closure, ...policy, scheduleJson: '{"mon":["09:00"]}' }))
        .inputs,
    ).toMatchObject({ schedule: { mon: ["09:00"] } });
  });

  it("an input the program stops setting is a change only if the program had set it (input names kept in the state)", async () => {
    const withWeight = recordState({ ...www, weight: 10 });
    expect(await adapter.diff("nsp:dns:Record", "9", withWeight, { [P]: closure, ...www })).toMatchObject({
      changes: true,
      diffs: ["weight"],
    });
    // The API chose a weight the program never set: not a change.
    const apiWeight = recordState(www, { weight: 10 });
    expect(await adapter.diff("nsp:dns:Record", "9", apiWeight, { [P]: closure, ...www })).toMatchObject({
      changes: false,
    });
  });

  it("gives the plugin's answer, whose engine sends the prior inputs that the adapter rebuilds from the state", async () => {
    const cases: [
      typeof record | typeof zone,
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ][] = [
      [record, www, { ttl: 3600 }, { ...www, ttl: 60 }],
      [record, { ...www, weight: 5, healthCheck: "https:443/health" }, {}, { ...www }],
      [record, www, { weight: 7 }, { ...www, content: "192.0.2.2" }],
      [
        zone,
        { serviceId: "2", name: "a.example", mode: "zone", enabled: true, negativeTtl: 300 },
        { status: "active" },
        { serviceId: "2", name: "a.example", mode: "host", enabled: false },
      ],
    ];
    for (const [def, oldInputs, apiOnly, news] of cases) {
      const state = { ...oldInputs, ...apiOnly };
      const plugin = diffResource(def, state, news, oldInputs);
      const dynamic = await adapter.diff(
        def.token,
        "1",
        { [P]: closure, ...state, [K]: Object.keys(oldInputs) },
        { [P]: closure, ...news },
      );
      expect(dynamic).toMatchObject({
        changes: plugin.changes,
        replaces: plugin.replaces,
        deleteBeforeReplace: plugin.deleteBeforeReplace,
        diffs: plugin.diffs,
      });
      // Rebuilt from the state: the same names, with the state's values (Diff reads only which
      // inputs were set, and the values of write-only ones, which the state carries).
      expect(Object.keys(adapter.priorInputs(def, { ...state, [K]: Object.keys(oldInputs) })!)).toEqual(
        Object.keys(oldInputs),
      );
    }
  });
});

describe("dynamic adapter: configure", () => {
  afterEach(() => adapter.reset());
  const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

  it("reads nsp:* from the stack configuration, numbers given as strings", () => {
    adapter.configure(
      config({
        "nsp:apiToken": "svc_abc",
        "nsp:baseUrl": "http://127.0.0.1:1/api/v1",
        "nsp:requestsPerMinute": "60",
        "nsp:maxRetries": "2",
      }),
      {},
    );
    expect(adapter.settings()).toEqual({
      baseUrl: "http://127.0.0.1:1/api/v1",
      requestsPerMinute: 60,
      maxRetries: 2,
      hasToken: true,
    });
  });

  it("falls back to the plugin's environment variables", () => {
    adapter.configure(config({}), { NSP_API_TOKEN: "svc_env", NSP_BASE_URL: "http://127.0.0.1:2/api/v1" });
    expect(adapter.settings()).toMatchObject({
      baseUrl: "http://127.0.0.1:2/api/v1",
      requestsPerMinute: 300,
      maxRetries: 5,
      hasToken: true,
    });
  });

  it("refuses plain http to a host other than loopback unless insecureHttp opts in", () => {
    const remote = { "nsp:apiToken": "svc_abc", "nsp:baseUrl": "http://10.0.0.1/api/v1" };
    expect(() => adapter.configure(config(remote), {})).toThrow(
      /baseUrl uses plain http to 10\.0\.0\.1.*nsp:insecureHttp true/,
    );
    expect(adapter.settings()).toBeUndefined();
    adapter.configure(config({ ...remote, "nsp:insecureHttp": "true" }), {});
    expect(adapter.settings()).toMatchObject({ baseUrl: "http://10.0.0.1/api/v1", hasToken: true });
  });

  it("rejects bad settings without echoing the token; without a token operations say how to set one", async () => {
    expect(() => adapter.configure(config({ "nsp:apiToken": "oops-secret" }), {})).toThrow(
      /apiToken must be an API token starting with "svc_"/,
    );
    expect(() => adapter.configure(config({ "nsp:apiToken": "oops-secret" }), {})).not.toThrow(/oops-secret/);
    adapter.configure(config({}), {});
    await expect(adapter.create("nsp:dns:Zone", { serviceId: "2", name: "a.example" })).rejects.toThrow(
      /pulumi config set --secret nsp:apiToken/,
    );
  });
});

describe("dynamic adapter: a create that fails half-way (in-process emulator on loopback)", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let control: EmulatorControl;

  beforeAll(async () => {
    emulator = await startEmulator({ rateLimitPerMinute: 0 });
    control = new EmulatorControl(emulator.baseUrl, emulator.token);
  });
  afterAll(async () => {
    adapter.reset();
    await emulator?.close();
  });

  it("refuses at the first check a token the API does not know, naming the setting, with one read per process", async () => {
    const unknown = `svc_${"0f".repeat(16)}`;
    adapter.configure({ get: (k) => ({ "nsp:apiToken": unknown, "nsp:baseUrl": emulator.baseUrl })[k] }, {});
    const refused = await adapter
      .check("nsp:dns:Zone", {}, { [P]: closure, serviceId: "2", name: "a.example" })
      .catch((e: Error) => e);
    expect(String(refused)).toMatch(/does not know the API token in nsp:apiToken .*unauthorized/);
    expect(String(refused)).not.toContain(unknown);
    adapter.configure({ get: (k) => ({ "nsp:apiToken": emulator.token, "nsp:baseUrl": emulator.baseUrl })[k] }, {});
    await control.resetStats();
    for (const name of ["a.example", "b.example"])
      expect((await adapter.check("nsp:dns:Zone", {}, { [P]: closure, serviceId: "2", name })).failures).toEqual([]);
    expect((await control.stats()).byRoute).toEqual({ "GET /me": 1 });
  });

  it("throws what Pulumi's host turns into an initialization error: id, partial state with the provider, reasons", async () => {
    adapter.configure(
      { get: (k) => ({ "nsp:apiToken": emulator.token, "nsp:baseUrl": emulator.baseUrl, "nsp:maxRetries": "0" })[k] },
      {},
    );
    const serviceId = String((await control.services()).find((x) => x.type === "auth_dns")!.id);
    const { inputs } = await adapter.check(
      "nsp:dns:Zone",
      {},
      { [P]: closure, serviceId, name: "half.example", enabled: false },
    );
    await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["PATCH"], status: 503 });
    const err = (await adapter.create("nsp:dns:Zone", { ...inputs, [P]: closure }).catch((e: unknown) => e)) as {
      id: string;
      properties: Record<string, unknown>;
      reasons: string[];
      message: string;
    };
    await control.clearFaults();
    expect(err.message).toMatch(/the object \d+ exists/);
    expect(err.message).not.toContain(emulator.token);
    expect(err.id).toMatch(/^\d+$/);
    expect(err.reasons).toEqual([err.message]);
    expect(err.properties).toMatchObject({
      [P]: closure,
      name: "half.example",
      enabled: true,
      [K]: ["serviceId", "name", "mode", "enabled", "forceDestroy"],
    });
    // The next up: the partial state differs from the program, and the update finishes the object.
    const d = await adapter.diff("nsp:dns:Zone", err.id, err.properties, { ...inputs, [P]: closure });
    expect(d).toMatchObject({ changes: true, replaces: [], diffs: ["enabled"] });
    const done = await adapter.update("nsp:dns:Zone", err.id, err.properties, { ...inputs, [P]: closure });
    expect(done.outs).toMatchObject({ enabled: false });
    expect((await control.list<{ name: string }>("/dns/zones")).filter((z) => z.name === "half.example")).toHaveLength(
      1,
    );
  });
});

describe("dynamic resource classes", () => {
  const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
  let dynamic: typeof import("../../provider/src/dynamic/index");

  beforeAll(async () => {
    pulumi.runtime.setMocks(
      {
        newResource(args) {
          registered.push({ type: args.type, name: args.name, inputs: args.inputs });
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call() {
          return {};
        },
      },
      "dynamic-unit",
      "test",
      false,
    );
    dynamic = await import("../../provider/src/dynamic/index");
  });

  it("one class per definition, grouped by module and exported by module name", () => {
    for (const def of resources) {
      const [, module, name] = def.token.split(":") as [string, string, string];
      const cls = (dynamic as unknown as Record<string, Record<string, unknown>>)[module]?.[name] as
        | { token: string; name: string }
        | undefined;
      expect(cls, def.token).toBeTypeOf("function");
      expect(cls!.token).toBe(def.token);
      expect(cls!.name).toBe(name);
    }
  });

  it("registers pulumi-nodejs:dynamic/<module>:<Name> with a small provider closure that only requires the package", async () => {
    const z = new dynamic.dns.Zone!("z", { serviceId: "2", name: "unit.example" }) as pulumi.CustomResource & {
      status: pulumi.Output<string>;
    };
    await new Promise((resolve) => z.id.apply(resolve));
    const reg = registered.find((r) => r.name === "z")!;
    expect(reg.type).toBe("pulumi-nodejs:dynamic/dns:Zone");
    expect(reg.inputs).toMatchObject({ serviceId: "2", name: "unit.example" });
    const text = reg.inputs.__provider as string;
    expect(text.length).toBeLessThan(4096);
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"])
      expect(text).toContain(`${method}: __f`);
    expect(text.match(/require\("([^"]+)"\)/g)?.every((m) => m === 'require("@nsp/pulumi-dynamic")')).toBe(true);
    expect(text).toContain('token: "nsp:dns:Zone"');
    expect(text).not.toMatch(/svc_|zod|undici/);
    // Output-only properties are declared, so the engine fills them.
    expect(z.status).toBeInstanceOf(Object);
    expect(pulumi.Output.isInstance(z.status)).toBe(true);
  });

  it("inputs the definition declares secret are registered as secrets even when passed plain", async () => {
    const site = new dynamic.cdn.Site!("site", {
      hostname: "www.unit.example",
      origin: "192.0.2.7",
      keyPem: "-----BEGIN PRIVATE KEY-----",
    }) as pulumi.CustomResource & {
      keyPem: pulumi.Output<string>;
      hostname: pulumi.Output<string>;
    };
    await new Promise((resolve) => site.id.apply(resolve));
    expect(await pulumi.isSecret(site.keyPem)).toBe(true);
    expect(await pulumi.isSecret(site.hostname)).toBe(false);
  });

  it("declarations cover every class with Input args and Output properties, without zod", () => {
    const text = renderDeclarations(resources, "0.0.0");
    for (const def of resources)
      expect(text).toContain(`class ${def.token.split(":")[2]} extends pulumi.dynamic.Resource`);
    expect(text).toContain('mode?: pulumi.Input<"zone" | "host">;');
    expect(text).toContain("readonly status: pulumi.Output<string>;");
    expect(text).toContain("readonly negativeTtl: pulumi.Output<number | undefined>;");
    expect(text).not.toMatch(/zod|: any\b|<any>/);
  });
});
