// The state migrations: the framework that applies them (framework/engine/state-version.ts), earlier
// tokens (schema aliases, served by the plugin), and one case for each migration a definition
// declares, from a state of the release before to the state of the release that changed it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { byToken, defineResource, type AnyResource } from "../../provider/src/framework/definition";
import { diffStates } from "../../provider/src/framework/engine/operations";
import { UNKNOWN } from "../../provider/src/framework/engine/property-values";
import { buildPackageSchema } from "../../provider/src/framework/engine/schema";
import {
  recordedVersion,
  stampState,
  STATE_VERSION_KEY,
  stateVersionOf,
  upgradeInputs,
  upgradeKeys,
  upgradeState,
} from "../../provider/src/framework/engine/state-version";
import type { StateMigration } from "../../provider/src/framework/definition";
import { packageInfo } from "../../provider/src/config/package-info";
import { resources, resourcesByToken } from "../../provider/src/modules/all-definitions";

type Obj = Record<string, unknown>;

/** A resource of three releases: `ttl` became `ttlSeconds` in 0.2.0, and `tags` a list in 0.3.0. */
const example = (migrations: StateMigration[], previousTokens?: string[]) =>
  defineResource({
    token: "nsp:test:Thing",
    ...(previousTokens ? { previousTokens } : {}),
    migrations,
    description: "A thing.",
    args: z.object({
      name: z.string(),
      ttlSeconds: z.number().int().optional(),
      tags: z.array(z.string()).default([]),
    }),
    state: z.object({ createdAt: z.string() }),
    importId: "<id>",
    create: async () => {
      throw new Error("not called");
    },
  }) as AnyResource;

const renameTtl: StateMigration = { release: "0.2.0", change: "ttl is ttlSeconds", renamed: { ttl: "ttlSeconds" } };
const tagsAsList: StateMigration = {
  release: "0.3.0",
  change: "tags is a list",
  reshaped: { tags: (v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v) },
};
const thing = example([renameTtl, tagsAsList]);

describe("state versions", () => {
  it("a state without a version is version 0, and goes through every migration", () => {
    expect(recordedVersion(thing, { name: "a" })).toBe(0);
    expect(upgradeState(thing, { name: "a", ttl: 60, tags: "x,y", createdAt: "t" })).toEqual({
      name: "a",
      ttlSeconds: 60,
      tags: ["x", "y"],
      createdAt: "t",
      [STATE_VERSION_KEY]: 2,
    });
  });

  it("a state of a later version goes only through the migrations after it", () => {
    // Version 1 already has ttlSeconds; a property of that name in a version-0 sense is not renamed again.
    expect(upgradeState(thing, { name: "a", ttlSeconds: 60, ttl: "kept", tags: "", [STATE_VERSION_KEY]: 1 })).toEqual({
      name: "a",
      ttlSeconds: 60,
      ttl: "kept",
      tags: [],
      [STATE_VERSION_KEY]: 2,
    });
  });

  it("upgrading an upgraded state changes nothing", () => {
    const once = upgradeState(thing, { name: "a", ttl: 60, tags: "x" });
    expect(upgradeState(thing, once)).toEqual(once);
  });

  it("refuses a state of a later release, and an unreadable version, naming the way out", () => {
    expect(() => upgradeState(thing, { name: "a", [STATE_VERSION_KEY]: 3 })).toThrow(
      /later release of nsp \(its state has shape version 3; this plugin reads up to 2\).*pin the plugin's version/,
    );
    expect(() => upgradeState(thing, { name: "a", [STATE_VERSION_KEY]: "two" })).toThrow(
      /unreadable shape version "two"/,
    );
  });

  it("inputs, which carry no version, are taken in either shape", () => {
    expect(upgradeInputs(thing, { name: "a", ttl: 60, tags: "x" })).toEqual({ name: "a", ttlSeconds: 60, tags: ["x"] });
    expect(upgradeInputs(thing, { name: "a", ttlSeconds: 60, tags: ["x"] })).toEqual({
      name: "a",
      ttlSeconds: 60,
      tags: ["x"],
    });
    // Both spellings: the current one wins, the old one is dropped.
    expect(upgradeInputs(thing, { name: "a", ttl: 1, ttlSeconds: 2 })).toEqual({ name: "a", ttlSeconds: 2 });
  });

  it("leaves values the engine does not know yet to be reshaped once known", () => {
    expect(upgradeInputs(thing, { name: "a", tags: UNKNOWN })).toEqual({ name: "a", tags: UNKNOWN });
  });

  it("a renamed secret stays secret", () => {
    expect([...upgradeKeys(thing, ["ttl", "name"])].sort()).toEqual(["name", "ttl", "ttlSeconds"]);
  });

  it("writes the version only from the first migration on, so unchanged resources keep 0.1.0's states as they were", () => {
    expect(stateVersionOf(example([]))).toBe(0);
    expect(stampState(example([]), { name: "a", [STATE_VERSION_KEY]: 0 })).toEqual({ name: "a" });
    expect(stampState(thing, { name: "a" })).toEqual({ name: "a", [STATE_VERSION_KEY]: 2 });
  });

  it("Diff compares an old state and old inputs in the current shape: a rename alone is no change", () => {
    const d = diffStates(
      thing,
      { name: "a", ttl: 60, tags: "x", createdAt: "t" },
      { name: "a", ttlSeconds: 60, tags: ["x"] },
      { name: "a", ttl: 60, tags: "x" },
    );
    expect(d).toMatchObject({ changes: false, replaces: [] });
    // And in the other direction, as a refresh asks: the new state against the state's old inputs.
    const refreshed = diffStates(
      thing,
      upgradeState(thing, { name: "a", ttl: 60, tags: "x", createdAt: "t" }),
      { name: "a", ttl: 60, tags: "x" },
      { name: "a", ttlSeconds: 60, tags: ["x"] },
    );
    expect(refreshed.changes).toBe(false);
  });
});

describe("earlier tokens", () => {
  const renamed = example([], ["nsp:old:Thing"]);
  it("lead to the resource", () => {
    const map = byToken([renamed]);
    expect(map.get("nsp:test:Thing")).toBe(renamed);
    expect(map.get("nsp:old:Thing")).toBe(renamed);
  });
  it("are the resource's aliases in the schema, which the SDKs pass to the engine", () => {
    const schema = buildPackageSchema(packageInfo, [renamed], []);
    expect(schema.resources["nsp:test:Thing"].aliases).toEqual([{ type: "nsp:old:Thing" }]);
    expect(buildPackageSchema(packageInfo, [example([])], []).resources["nsp:test:Thing"]).not.toHaveProperty(
      "aliases",
    );
  });
  it("may not be another resource's token", () => {
    expect(() => byToken([renamed, { ...example([], ["nsp:old:Thing"]), token: "nsp:test:Other" }])).toThrow(
      /nsp:old:Thing is the token of both nsp:test:Thing and nsp:test:Other/,
    );
  });
  it("every served token leads to one definition", () => {
    expect(resourcesByToken.size).toBe(resources.reduce((n, r) => n + 1 + (r.previousTokens?.length ?? 0), 0));
  });
});

/**
 * One case per migration: a state (with its inputs) as the release before wrote it, and what the
 * release that changed it makes of it. Keyed `<token>@<release>`.
 */
const CASES: Record<string, { before: Obj; after: Obj }> = {
  "nsp:services:Policy@0.2.0": {
    before: {
      serviceId: "7",
      scheduleJson: '{ "mon": ["09:00", "17:00"] }',
      tz: "Europe/Berlin",
      logMode: "off",
      serviceName: "Resolver",
    },
    after: {
      serviceId: "7",
      schedule: { mon: ["09:00", "17:00"] },
      tz: "Europe/Berlin",
      logMode: "off",
      serviceName: "Resolver",
    },
  },
};

describe("each migration of a definition", () => {
  const declared = resources.flatMap((def) => (def.migrations ?? []).map((m, i) => ({ def, m, from: i })));

  it("has its case below", () => {
    expect(declared.map(({ def, m }) => `${def.token}@${m.release}`).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(declared.map(({ def, m, from }) => [`${def.token}@${m.release}`, def, from] as const))(
    "%s: the state and inputs of the release before become the new shape, and the new shape stays",
    (key, def, from) => {
      const { before, after } = CASES[key]!;
      const version = { [STATE_VERSION_KEY]: from + 1 };
      const stateBefore = from === 0 ? before : { ...before, [STATE_VERSION_KEY]: from };
      const upgraded = upgradeState({ ...def, migrations: def.migrations!.slice(0, from + 1) }, stateBefore);
      expect(upgraded).toEqual({ ...after, ...version });
      expect(upgradeState({ ...def, migrations: def.migrations!.slice(0, from + 1) }, upgraded)).toEqual(upgraded);
      const inputsOf = (state: Obj) =>
        Object.fromEntries(Object.entries(state).filter(([k]) => k in def.args.shape || !(k in def.state.shape)));
      const { [STATE_VERSION_KEY]: _v, ...afterInputs } = inputsOf(after) as Obj;
      expect(upgradeInputs(def, inputsOf(before))).toEqual(afterInputs);
      expect(upgradeInputs(def, afterInputs)).toEqual(afterInputs);
      // The new shape passes the definition's own validation.
      expect(def.args.safeParse(afterInputs).success).toBe(true);
    },
  );
});

describe("nsp:services:Policy's schedule", () => {
  const policy = resourcesByToken.get("nsp:services:Policy")!;
  it("an empty scheduleJson (always) becomes no schedule", () => {
    expect(upgradeState(policy, { serviceId: "7", scheduleJson: "" })).toEqual({
      serviceId: "7",
      [STATE_VERSION_KEY]: 1,
    });
    expect(upgradeInputs(policy, { serviceId: "7", scheduleJson: "  " })).toEqual({ serviceId: "7" });
  });
  it("text that holds no JSON object stays as it was, for Check to name", () => {
    expect(upgradeInputs(policy, { serviceId: "7", scheduleJson: "{" })).toEqual({ serviceId: "7", schedule: "{" });
  });
});
