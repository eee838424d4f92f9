// Every state a release wrote must stay readable by every later release. The committed record
// (test/fixtures/state-shapes.json) holds each resource's shape (its properties and their
// types, from the schema the definitions generate) with the shape's version; this test fails
// when a shape changes without a new version and migration, and names what to do.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPackageSchema } from "../../provider/src/framework/engine/schema";
import { stateVersionOf } from "../../provider/src/framework/engine/state-version";
import { packageInfo } from "../../provider/src/config/package-info";
import { functions, resources } from "../../provider/src/modules/all-definitions";

type Json = Record<string, any>;
interface Recorded {
  version: number;
  shape: Record<string, string>;
}

const RECORD = join(__dirname, "..", "fixtures", "state-shapes.json");
const RECORD_COMMAND = "NSP_RECORD_STATE_SHAPES=1 npx vitest run test/unit/state-shapes.test.ts";
const schema = buildPackageSchema(packageInfo, resources, functions);

/** A type as text: `string`, `integer[]`, `map<string>`, `{a: string, b?: integer}`; nested types spelled out. */
function typeText(spec: Json, seen: string[] = []): string {
  if (spec.$ref) {
    const ref = String(spec.$ref);
    if (!ref.startsWith("#/types/")) return ref.replace(/^pulumi\.json#\//, "").toLowerCase();
    const token = ref.slice("#/types/".length);
    if (seen.includes(token)) return token;
    const type = schema.types[token] as Json;
    const required = new Set<string>(type.required ?? []);
    const fields = Object.keys(type.properties ?? {})
      .sort()
      .map((k) => `${k}${required.has(k) ? "" : "?"}: ${typeText(type.properties[k], [...seen, token])}`);
    return `{${fields.join(", ")}}`;
  }
  if (spec.type === "array") return `${typeText(spec.items, seen)}[]`;
  if (spec.type === "object" && spec.additionalProperties) return `map<${typeText(spec.additionalProperties, seen)}>`;
  return String(spec.type);
}

/** What a state of the resource holds: every output property (inputs included) and its type. */
function shapeOf(token: string): Record<string, string> {
  const properties = (schema.resources[token] as Json).properties as Json;
  return Object.fromEntries(
    Object.keys(properties)
      .sort()
      .map((k) => [k, typeText(properties[k])]),
  );
}

const current: Record<string, Recorded> = Object.fromEntries(
  resources.map((def) => [def.token, { version: stateVersionOf(def), shape: shapeOf(def.token) }]),
);
if (process.env.NSP_RECORD_STATE_SHAPES)
  writeFileSync(
    RECORD,
    `${JSON.stringify({ generated: `by \`${RECORD_COMMAND}\`; do not edit`, resources: current }, null, 2)}\n`,
  );
const recorded: Record<string, Recorded> = existsSync(RECORD)
  ? (JSON.parse(readFileSync(RECORD, "utf8")) as { resources: Record<string, Recorded> }).resources
  : {};

/** Why a shape and its record disagree, and what to do; undefined when they agree. */
function shapeProblem(token: string, file: string, was: Recorded | undefined, now: Recorded): string | undefined {
  if (!was) return `${token} has no recorded state shape: record it with \`${RECORD_COMMAND}\` and commit ${file}`;
  if (now.version < was.version)
    return `${token}'s state version went down from ${was.version} to ${now.version}: states of version ${was.version} may exist; never remove a migration`;
  const removed = Object.keys(was.shape).filter((k) => !(k in now.shape));
  const retyped = Object.keys(was.shape).filter((k) => k in now.shape && now.shape[k] !== was.shape[k]);
  const added = Object.keys(now.shape).filter((k) => !(k in was.shape));
  if (now.version === was.version && (removed.length || retyped.length)) {
    const what = [
      removed.length ? `no longer has ${removed.join(", ")}` : "",
      retyped.length
        ? `changed the type of ${retyped.map((k) => `${k} (${was.shape[k]} to ${now.shape[k]})`).join(", ")}`
        : "",
    ]
      .filter(Boolean)
      .join(" and ");
    return (
      `${token} ${what}, but its state version is still ${now.version}: a state written before would no longer be read right. ` +
      (`Add a migration (renamed / reshaped, see docs/upgrading.md) to \`migrations\` in its definition, ` +
        `with its case in test/unit/migrations.test.ts, then record the shape with \`${RECORD_COMMAND}\``)
    );
  }
  if (now.version !== was.version || added.length) {
    const what =
      now.version !== was.version
        ? `moved to version ${now.version}`
        : `gained ${added.join(", ")}, which states written before lack (they stay readable)`;
    return `${token}'s state shape ${what}. Record it with \`${RECORD_COMMAND}\` and commit ${file}`;
  }
  return undefined;
}

describe("state shapes", () => {
  it.each(resources.map((def) => def.token))("%s: the recorded shape is the shape of its state version", (token) => {
    expect(shapeProblem(token, "test/fixtures/state-shapes.json", recorded[token], current[token]!)).toBeUndefined();
  });

  it("every recorded resource is still served, under its token or as an earlier token of one", () => {
    const served = new Set(resources.flatMap((def) => [def.token, ...(def.previousTokens ?? [])]));
    expect(Object.keys(recorded).filter((t) => !served.has(t))).toEqual([]);
  });

  describe("the check itself", () => {
    const was: Recorded = { version: 1, shape: { name: "string", ttl: "integer" } };
    it("passes an unchanged shape", () => expect(shapeProblem("nsp:x:Y", "f", was, was)).toBeUndefined());
    it("fails a renamed property without a new version, asking for a migration", () =>
      expect(
        shapeProblem("nsp:x:Y", "f", was, { version: 1, shape: { name: "string", ttlSeconds: "integer" } }),
      ).toMatch(/no longer has ttl, but its state version is still 1.*Add a migration/));
    it("fails a retyped property without a new version, naming both types", () =>
      expect(shapeProblem("nsp:x:Y", "f", was, { version: 1, shape: { name: "string", ttl: "string" } })).toMatch(
        /changed the type of ttl \(integer to string\)/,
      ));
    it("asks to record a new version, an added property, or a new resource", () => {
      expect(
        shapeProblem("nsp:x:Y", "f", was, { version: 2, shape: { name: "string", ttlSeconds: "integer" } }),
      ).toMatch(/moved to version 2.*Record it/);
      expect(shapeProblem("nsp:x:Y", "f", was, { version: 1, shape: { ...was.shape, note: "string" } })).toMatch(
        /gained note.*Record it/,
      );
      expect(shapeProblem("nsp:x:Y", "f", undefined, was)).toMatch(/no recorded state shape/);
    });
    it("fails a version that went down", () =>
      expect(shapeProblem("nsp:x:Y", "f", was, { version: 0, shape: was.shape })).toMatch(/went down/));
  });
});
