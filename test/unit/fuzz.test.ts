// Property-based tests: random and malformed inputs thrown at Check and Diff of every resource.
// No input may crash them, and every rejection must name a property of the resource.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffResource } from "../../provider/src/framework/diff";
import { checkResource } from "../../provider/src/framework/operations";
import { UNKNOWN } from "../../provider/src/framework/property-values";
import { resources } from "../../provider/src/registry";

const RUNS = 10_000;
// 10,000 cases of the larger resources take tens of seconds on a busy two-core machine.
const TIMEOUT = 180_000;

/** Values of the kinds a Pulumi program can send, and of the kinds it should not. */
const value = fc.oneof(
  fc.constant(UNKNOWN),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.constantFrom("", " ", "@", "www", "192.0.2.1", "2001:db8::1", "10.0.0.1/8", "AS64500", "DE,FR", "a b", "x".repeat(300), "1", "0", "-1"),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(UNKNOWN)), { maxLength: 20 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 5 }),
  fc.anything({ maxDepth: 2 }),
);

function inputsFor(keys: string[]) {
  // Mostly the resource's own properties, sometimes a stray one.
  const key = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  return fc.dictionary(key, value, { maxKeys: keys.length + 2 });
}

describe.each(resources.map((def) => [def.token, def] as const))("%s", (_token, def) => {
  const keys = Object.keys(def.args.shape);

  it(`Check survives ${RUNS} random inputs and names a property in every failure`, () => {
    fc.assert(
      fc.property(inputsFor(keys), (news) => {
        const { failures } = checkResource(def, news);
        for (const f of failures) {
          expect(typeof f.property).toBe("string");
          expect(f.property.length).toBeGreaterThan(0);
          const root = f.property.split(/[.[]/)[0]!;
          const strayKey = f.reason.startsWith("unknown property") && (f.property in news || (f.property === '""' && "" in news));
          expect(keys.includes(root) || strayKey, `${f.property}: ${f.reason}`).toBe(true);
          expect(f.reason.length).toBeGreaterThan(2);
        }
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it(`Diff survives ${RUNS} random prior states and inputs`, () => {
    fc.assert(
      fc.property(inputsFor(keys), inputsFor(keys), fc.option(inputsFor(keys), { nil: undefined }), (olds, news, oldInputs) => {
        const d = diffResource(def, olds, news, oldInputs);
        expect(d.changes).toBe(d.diffs.length > 0);
        for (const k of d.replaces) expect(d.diffs).toContain(k);
        for (const k of d.diffs) expect(keys).toContain(k);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
