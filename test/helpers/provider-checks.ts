// The checks every resource's gRPC test makes, bound to that file's plugin and emulator.
import { expect } from "vitest";
import type { EmulatorControl } from "./emulator-control";
import { plain, UNKNOWN, type PluginHandle } from "./plugin";

type Obj = Record<string, any>;

export function providerChecks(current: () => { plugin: PluginHandle; control: EmulatorControl }) {
  /** Check must accept these inputs; returns them as the provider checked them. */
  async function checked(type: string, news: Obj): Promise<Obj> {
    const { inputs, failures } = await current().plugin.check(type, "x", news);
    expect(failures).toEqual([]);
    return inputs;
  }

  /** Create in preview sends no request and leaves what only the API knows unknown; returns the preview's outputs. */
  async function previewSendsNothing(type: string, inputs: Obj, unknownOutput: string): Promise<Obj> {
    const { plugin, control } = current();
    await control.resetStats();
    const preview = await plugin.create(type, "p", inputs, true);
    expect(preview.id).toBe("");
    expect(plain(preview.properties[unknownOutput])).toBe(UNKNOWN);
    expect((await control.stats()).total).toBe(0);
    return preview.properties;
  }

  /** Import through Read with only the id, then Check and a Diff that finds no change. */
  async function importClean(
    type: string,
    importId: string,
    expectedId = importId,
  ): Promise<{ properties: Obj; inputs: Obj }> {
    const { plugin } = current();
    const imported = await plugin.read(type, "imp", importId);
    expect(imported.id).toBe(expectedId);
    const inputs = await checked(type, imported.inputs);
    const d = await plugin.diff(type, "imp", imported.id, imported.properties, inputs, imported.inputs);
    expect(d.changes, JSON.stringify(d)).toBe(false);
    return imported;
  }

  /**
   * Each case fails in Check naming the property, with a reason, and no request is sent.
   * `nested` also accepts a failure on a part of the property (`members[0]`, `rule.field`) for the
   * properties whose checks name the element at fault.
   */
  async function expectCheckFailures(type: string, cases: [Obj, string][], nested: ("[" | ".")[] = []): Promise<void> {
    const { plugin, control } = current();
    await control.resetStats();
    for (const [news, property] of cases) {
      const { failures } = await plugin.check(type, "bad", news);
      const names = (f: { property: string }) =>
        f.property === property || nested.some((sep) => f.property.startsWith(`${property}${sep}`));
      expect(failures.some(names), `${JSON.stringify(news)}: ${JSON.stringify(failures)}`).toBe(true);
      for (const f of failures) expect(f.reason.length).toBeGreaterThan(5);
    }
    expect((await control.stats()).total).toBe(0);
  }

  /**
   * Diff finds exactly the properties `changed`, none replacing; the update's preview sends no
   * request; returns the outputs of the update itself.
   */
  async function updatesInPlace(
    type: string,
    name: string,
    id: string,
    olds: Obj,
    news: Obj,
    oldInputs: Obj,
    changed: string[],
  ): Promise<Obj> {
    const { plugin, control } = current();
    const d = await plugin.diff(type, name, id, olds, news, oldInputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect([...d.diffs].sort()).toEqual([...changed].sort());
    await control.resetStats();
    await plugin.update(type, name, id, olds, news, true, oldInputs);
    expect((await control.stats()).total).toBe(0);
    return plugin.update(type, name, id, olds, news, false, oldInputs);
  }

  /**
   * Create while the API acts on the first POST to `path` but its answer is lost (the connection
   * resets after): the provider must find and adopt what the API made rather than make it twice.
   * Returns the created resource and the requests of the create, by route.
   */
  async function createWithLostAnswer(type: string, name: string, inputs: Obj, path: string) {
    const { plugin, control } = current();
    await control.resetStats();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: `${path}$`, count: 1 });
    try {
      const created = await plugin.create(type, name, inputs);
      return { ...created, byRoute: (await control.stats()).byRoute };
    } finally {
      await control.clearFaults();
    }
  }

  return { checked, previewSendsNothing, importClean, expectCheckFailures, updatesInPlace, createWithLostAnswer };
}
