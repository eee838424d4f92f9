// Discovery and List read one set of facts per kind: every kind nsp-discover can list is
// listable through `pulumi do` (its schema declares listInputs), and the schema's list inputs
// are the ones its facts name, the parent required exactly where the API lists only per parent.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resources } from "../../provider/src/modules/all-definitions";
import { importIdOf, listPath, needsParent } from "../../provider/src/framework/api/list-facts";

const schema = JSON.parse(readFileSync(join(__dirname, "..", "..", "schema.json"), "utf8")) as {
  resources: Record<
    string,
    {
      inputProperties: Record<string, unknown>;
      listInputs?: { properties?: Record<string, unknown>; required?: string[] };
    }
  >;
};
const listed = resources.filter((r) => r.list);

describe("list facts", () => {
  it("every resource kind is listable or says why nsp-discover leaves it out", () => {
    expect(resources.filter((r) => !r.list && !r.notListed).map((r) => r.token)).toEqual([]);
    expect(listed.filter((r) => r.notListed).map((r) => r.token)).toEqual([]);
  });

  it.each(listed.map((r) => [r.token, r] as const))(
    "%s: schema.json declares the listInputs its facts make",
    (token, def) => {
      const spec = schema.resources[token]!;
      expect(spec.listInputs, `${token} can be discovered but has no listInputs`).toBeDefined();
      const facts = def.list!;
      const expected = [...(facts.parent ? [facts.parent.input] : []), ...Object.keys(facts.filters ?? {})];
      expect(Object.keys(spec.listInputs!.properties ?? {}).sort()).toEqual(expected.sort());
      for (const key of expected)
        expect(Object.keys(spec.inputProperties), `${token} list input ${key} is one of its inputs`).toContain(key);
      expect(spec.listInputs!.required ?? []).toEqual(needsParent(facts) ? [facts.parent!.input] : []);
      // A placeholder in the path is the parent's input, and the import id holds the parent first.
      if (needsParent(facts)) {
        expect(facts.path).toContain(`{${facts.parent!.input}}`);
        expect(def.importId.match(/<[^>]+>/g)).toHaveLength(2);
      }
    },
  );

  it("puts the parent's id in the path, encoded, and refuses a path without it", () => {
    expect(listPath("/vgate/pbx/{pbxId}/extensions", "pbx 1/a")).toBe("/vgate/pbx/pbx%201%2Fa/extensions");
    expect(() => listPath("/dns/zones/{zoneId}/records", undefined)).toThrow(/needs its parent's id/);
    expect(listPath("/dns/zones", undefined)).toBe("/dns/zones");
    expect(importIdOf("<zoneId>/<recordId>", { id: 7 }, { id: 3 }, "id")).toBe("3/7");
    expect(() => importIdOf("<zoneId>/<recordId>", {}, { id: 3 }, "id")).toThrow(/cannot build an import id/);
  });

  it("names in the discovery facts only kinds of the provider, and one kind --zone names", () => {
    const tokens = new Set(resources.map((r) => r.token));
    const listedTokens = new Set(listed.map((r) => r.token));
    const facts = listed.flatMap((r) => (r.list!.discovery ? [{ token: r.token, ...r.list!.discovery }] : []));
    for (const f of facts) {
      // A bulk kind is emitted instead of the objects, never listed itself.
      if (f.inBulk) expect(tokens.has(f.inBulk.token) && !listedTokens.has(f.inBulk.token), f.token).toBe(true);
      if (f.publishes) expect(listedTokens.has(f.publishes.token), f.token).toBe(true);
    }
    expect(facts.filter((f) => f.zoneName).length).toBe(1);
    expect(facts.some((f) => f.inBulk)).toBe(true);
  });

  it("nsp-discover's steps name no kind: what is special about one is in its facts", () => {
    const dir = join(__dirname, "..", "..", "provider", "src", "discover");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text.match(/nsp:[a-z]+:[A-Z]\w*/g) ?? [], file).toEqual([]);
    }
  });
});
