// The plugin finds a definition through modules/lazy-definitions.ts, by its token's module;
// everything else (the schema, discovery, dynamic mode) through all-definitions.ts. Both take the
// modules from modules.ts and must hand out the same definition objects.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allModules } from "../../provider/src/modules/all-modules";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import { functionByToken, loadModule, moduleNames, resourceByToken } from "../../provider/src/modules/lazy-definitions";
import { MODULES } from "../../provider/src/modules/modules";

const ROOT = join(__dirname, "..", "..");

const moduleOf = (token: string) => token.split(":")[1]!;

describe("modules/lazy-definitions.ts", () => {
  it("modules.ts names every folder of provider/src/modules once", () => {
    const folders = readdirSync(join(ROOT, "provider/src/modules"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...MODULES].sort()).toEqual(folders.sort());
    expect(new Set(MODULES).size).toBe(MODULES.length);
  });

  it("all-modules.ts holds the modules of modules.ts in its order (run `npm run generate` when this fails)", async () => {
    expect(allModules).toHaveLength(MODULES.length);
    for (const [i, name] of MODULES.entries()) expect(allModules[i], name).toBe(await loadModule(name));
  });

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
