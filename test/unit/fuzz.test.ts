// Property-based tests of Check and Diff over every resource. Random and malformed inputs must
// never crash them, and every rejection must name a property of the resource; valid inputs built
// from each resource's schema must pass Check; near-valid ones (every property valid on its own)
// must reach the resource's cross-field check, which random input almost never does.
//
// NSP_FUZZ_RUNS: cases per property and resource (default 100). The seed is printed on every
// run; NSP_FUZZ_SEED=<seed> replays a run, and NSP_FUZZ_PATH=<path> (both from fast-check's
// failure message) with `-t "<the failing test's name>"` replays only the failing case.
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import { checkProperties } from "../../provider/src/framework/engine/check";
import type { AnyResource } from "../../provider/src/framework/definition";
import { diffResource } from "../../provider/src/framework/engine/diff";
import { checkResource } from "../../provider/src/framework/engine/operations";
import { UNKNOWN, type PropertyMap } from "../../provider/src/framework/engine/property-values";
import { defOf, isIntegerSchema, unwrap } from "../../provider/src/framework/definition/zod-walk";
import { resources } from "../../provider/src/modules/all-definitions";
import { table, type Row } from "../e2e/harness/every-resource-table";

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

const RUNS = positiveInteger(process.env.NSP_FUZZ_RUNS, "NSP_FUZZ_RUNS") ?? 100;
const SEED = positiveInteger(process.env.NSP_FUZZ_SEED, "NSP_FUZZ_SEED") ?? Math.floor(Math.random() * 2 ** 31);
const PATH = process.env.NSP_FUZZ_PATH || undefined;
const PARAMS: fc.Parameters<unknown> = { seed: SEED, numRuns: RUNS, ...(PATH ? { path: PATH } : {}) };
// Scales with the budget only: a larger NSP_FUZZ_RUNS must not time out on a busy machine.
const TIMEOUT = Math.max(60_000, RUNS * 50);
process.stderr.write(
  `fuzz: seed ${SEED}, ${RUNS} cases per property and resource; replay with NSP_FUZZ_SEED=${SEED}\n`,
);

/** Values of the kinds a Pulumi program can send, and of the kinds it should not. */
const value = fc.oneof(
  fc.constant(UNKNOWN),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.constantFrom(
    "",
    " ",
    "@",
    "www",
    "192.0.2.1",
    "2001:db8::1",
    "10.0.0.1/8",
    "AS64500",
    "DE,FR",
    "a b",
    "x".repeat(300),
    "1",
    "0",
    "-1",
  ),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(UNKNOWN)), { maxLength: 20 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 5 }),
  fc.anything({ maxDepth: 2 }),
);

function randomInputs(keys: string[]) {
  // Mostly the resource's own properties, sometimes a stray one.
  const key = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  return fc.dictionary(key, value, { maxKeys: keys.length + 2 });
}

// ---- valid and near-valid inputs, from the schema and one known-good input per resource ----

/**
 * One valid input per resource: the rows of the every-resource stack, with ids standing in for
 * the objects a row refers to (and for the account's own services).
 */
function knownGoodInputs(): Map<string, PropertyMap> {
  const pem = (label: string) => `-----BEGIN ${label}-----\nMIIB\n-----END ${label}-----\n`;
  const seeds = {
    authDns: "1",
    resolver: "2",
    cdn: "3",
    vmId: "4",
    popA: "5",
    popB: "6",
    certPem: pem("CERTIFICATE"),
    keyPem: pem("PRIVATE KEY"),
  };
  const rows: Row[] = table(seeds);
  const byName = new Map(rows.map((r) => [r.name, r]));
  // Outputs a row refers to that are not among the referred row's inputs.
  const outputs: Record<string, string> = { number: "+31205550001" };
  const resolve = (v: unknown): unknown => {
    if (typeof v === "string")
      return v.replace(/\$\{(\w+)\.(\w+)\}/g, (_m, name: string, output: string) =>
        output === "id" ? "101" : String(byName.get(name)?.properties[output] ?? outputs[output] ?? output),
      );
    if (Array.isArray(v)) return v.map(resolve);
    if (v !== null && typeof v === "object") {
      if ("fn::secret" in v) return resolve((v as PropertyMap)["fn::secret"]);
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    }
    return v;
  };
  return new Map(rows.map((r) => [r.type, resolve(r.properties) as PropertyMap]));
}

/** The properties a resource's cross-field check reads when given this (valid) input. */
function keysReadByCheck(def: AnyResource, input: PropertyMap): Set<string> {
  const read = new Set<string>();
  const all = Object.keys(def.args.shape);
  const { value } = checkProperties(def.args, input);
  const watched = new Proxy(value, {
    get: (target, key) => {
      if (typeof key === "string") read.add(key);
      return Reflect.get(target, key);
    },
    has: (target, key) => {
      if (typeof key === "string") read.add(key);
      return Reflect.has(target, key);
    },
    // Spreading or iterating the input reads every property.
    ownKeys: (target) => {
      for (const k of all) read.add(k);
      return Reflect.ownKeys(target);
    },
  });
  def.check?.(watched as never);
  return new Set([...read].filter((k) => all.includes(k)));
}

/** Candidates of a property's declared type; a candidate its own schema refuses becomes `fallback`. */
function candidates(field: import("zod").ZodType, fallback: unknown): fc.Arbitrary<unknown> | undefined {
  const base = unwrap(field).base;
  const d = defOf(base);
  let raw: fc.Arbitrary<unknown> | undefined;
  if (d.type === "boolean") raw = fc.boolean();
  else if (d.type === "enum") raw = fc.constantFrom(...Object.values(d.entries ?? {}));
  else if (d.type === "literal") raw = fc.constantFrom(...(d.values ?? []));
  else if (d.type === "number")
    raw = isIntegerSchema(base)
      ? fc.oneof(fc.integer({ min: -10, max: 400 }), fc.integer({ min: -1e6, max: 1e6 }))
      : fc.double({ min: -1e6, max: 1e6, noNaN: true });
  else if (d.type === "string")
    raw = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom("", "www", "192.0.2.1", "2001:db8::1", "example.com", "101", "+31205550002"),
    );
  return raw?.map((v) => (field.safeParse(v).success ? v : fallback));
}

/**
 * Inputs whose every property is valid on its own: each property in `vary` takes any value its
 * schema accepts (or is left out, or null, where optional), every other keeps the known-good value.
 */
function inputsVarying(def: AnyResource, good: PropertyMap, vary: (key: string) => boolean): fc.Arbitrary<PropertyMap> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, field] of Object.entries(def.args.shape as Record<string, import("zod").ZodType>)) {
    const given = good[key];
    if (!vary(key)) {
      parts[key] = fc.constant(given);
      continue;
    }
    const { optional, nullable, hasDefault } = unwrap(field);
    const options: fc.Arbitrary<unknown>[] = [fc.constant(given)];
    if (optional || hasDefault) options.push(fc.constant(undefined));
    // A program's null means "not set" for a property that does not take null.
    if ((optional || hasDefault) && !nullable) options.push(fc.constant(null));
    const generated = candidates(field, given);
    if (generated) options.push(generated, generated);
    parts[key] = fc.oneof(...options);
  }
  return fc.record(parts).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
}

/** The invariants of every Check answer: each failure names a property of the resource (or the stray key). */
function expectNamedFailures(
  keys: string[],
  news: PropertyMap,
  failures: { property: string; reason: string }[],
): void {
  for (const f of failures) {
    expect(typeof f.property).toBe("string");
    expect(f.property.length).toBeGreaterThan(0);
    const root = f.property.split(/[.[]/)[0]!;
    const strayKey =
      f.reason.startsWith("unknown property") && (f.property in news || (f.property === '""' && "" in news));
    expect(keys.includes(root) || strayKey, `${f.property}: ${f.reason}`).toBe(true);
    expect(f.reason.length).toBeGreaterThan(2);
  }
}

const GOOD = knownGoodInputs();
/** Near-valid cases per resource with a cross-field check: how many reached it, how many it refused. */
const crossField = new Map<string, { cases: number; reached: number; refused: number }>();

afterAll(() => {
  const rows = [...crossField].map(([token, c]) => `${token} ${c.reached}/${c.cases} reached, ${c.refused} refused`);
  process.stderr.write(`fuzz: cross-field checks (seed ${SEED}):\n  ${rows.join("\n  ")}\n`);
});

describe.each(resources.map((def) => [def.token, def] as const))("%s", (token, def) => {
  const keys = Object.keys(def.args.shape);
  const good = GOOD.get(token);

  it(
    `Check survives ${RUNS} random inputs and names a property in every failure`,
    () => {
      fc.assert(
        fc.property(randomInputs(keys), (news) => expectNamedFailures(keys, news, checkResource(def, news).failures)),
        PARAMS,
      );
    },
    TIMEOUT,
  );

  it(
    `Check passes ${RUNS} valid inputs: each property the cross-field check does not read takes any value its own schema accepts`,
    () => {
      expect(good, "a known-good input of every resource (test/e2e/harness/every-resource-table.ts)").toBeDefined();
      expect(checkResource(def, good!).failures, "the known-good input").toEqual([]);
      const fixed = keysReadByCheck(def, good!);
      fc.assert(
        fc.property(
          inputsVarying(def, good!, (k) => !fixed.has(k)),
          (news) => {
            expect(checkResource(def, news).failures).toEqual([]);
          },
        ),
        PARAMS,
      );
    },
    TIMEOUT,
  );

  if (def.check) {
    it(
      `${RUNS} near-valid inputs (every property valid on its own) reach the cross-field check, and its failures name a property`,
      () => {
        const read = [...keysReadByCheck(def, good!)];
        expect(read.length, "the cross-field check reads some property").toBeGreaterThan(0);
        const spy = vi.spyOn(def, "check");
        const counts = { cases: 0, reached: 0, refused: 0 };
        try {
          fc.assert(
            fc.property(
              inputsVarying(def, good!, (k) => read.includes(k)),
              (news) => {
                const before = spy.mock.calls.length;
                const { failures } = checkResource(def, news);
                counts.cases++;
                if (spy.mock.calls.length > before) counts.reached++;
                if (failures.length > 0) counts.refused++;
                expectNamedFailures(keys, news, failures);
              },
            ),
            PARAMS,
          );
        } finally {
          spy.mockRestore();
          crossField.set(token, counts);
        }
        expect(counts.reached).toBe(counts.cases);
      },
      TIMEOUT,
    );
  }

  it(
    `Diff survives ${RUNS} random prior states and inputs`,
    () => {
      fc.assert(
        fc.property(
          randomInputs(keys),
          randomInputs(keys),
          fc.option(randomInputs(keys), { nil: undefined }),
          (olds, news, oldInputs) => {
            const d = diffResource(def, olds, news, oldInputs);
            expect(d.changes).toBe(d.diffs.length > 0);
            for (const k of d.replaces) expect(d.diffs).toContain(k);
            for (const k of d.diffs) expect(keys).toContain(k);
          },
        ),
        PARAMS,
      );
    },
    TIMEOUT,
  );
});

describe("the cross-field checks as a whole", () => {
  it("refuse some of the near-valid inputs: the generators reach the combinations they judge", () => {
    const withCheck = resources.filter((d) => d.check).map((d) => d.token);
    expect([...crossField.keys()].sort()).toEqual([...withCheck].sort());
    const refused = [...crossField.values()].reduce((n, c) => n + c.refused, 0);
    expect(refused).toBeGreaterThan(0);
  });
});
