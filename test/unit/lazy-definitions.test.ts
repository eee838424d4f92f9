// The plugin finds a definition through modules/lazy-definitions.ts, by its token's module;
// everything else (the schema, discovery, dynamic mode) through all-definitions.ts. Both must
// name the same modules and hand out the same definition objects.
import { describe, expect, it } from "vitest";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import { functionByToken, loadModule, moduleNames, resourceByToken } from "../../provider/src/modules/lazy-definitions";

const moduleOf = (token: string) => token.split(":")[1]!;

describe("modules/lazy-definitions.ts", () => {
  it("has a loader for exactly the modules all-definitions lists", () => {
    const listed = new Set([...resources, ...functions].map((d) => moduleOf(d.token)));
    expect([...moduleNames].sort()).toEqual([...listed].sort());
  });

  it("loads, for each module, the definitions of its tokens and no other", async () => {
    for (const name of moduleNames) {
      const m = await loadModule(name);
      expect(m.resources).toEqual(resources.filter((r) => moduleOf(r.token) === name));
      expect(m.functions.map((f) => f.token).sort()).toEqual(
        functions
          .filter((f) => moduleOf(f.token) === name)
          .map((f) => f.token)
          .sort(),
      );
    }
  });

  it("finds every resource and function by its token as the same object all-definitions holds", async () => {
    for (const r of resources) expect(await resourceByToken(r.token)).toBe(r);
    for (const f of functions) expect(await functionByToken(f.token)).toBe(f);
    expect(await resourceByToken("nsp:dns:Nothing")).toBeUndefined();
    expect(await functionByToken("nsp:nowhere:getNothing")).toBeUndefined();
  });

  it("names a module it does not have", () => {
    expect(() => loadModule("nowhere")).toThrow(/no module named "nowhere"/);
  });
});
