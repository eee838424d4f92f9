// A table-driven lifecycle runner, in the spirit of pulumi-go-provider's LifeCycleTest: each
// resource's test gives a few rows, and the runner walks every row through create, read, a
// no-change diff, an in-place update, a replacing change, import, a drift edit and a drift delete
// made through the API, delete, and bad inputs, over gRPC against the emulator. What a row must see
// beyond the object itself (other objects, the API's lists) it checks in small hooks between the
// steps, so that no walk of a resource is written by hand beside its row.
import { describe, expect, it } from "vitest";
import { isSecret, plain } from "./plugin";
import type { useProvider } from "./use-provider";

type Obj = Record<string, any>;

export interface LifecycleRow {
  type: string;
  /** Inputs as the program writes them; a function when parents must be made first (through the API). */
  create: Obj | (() => Promise<Obj>);
  /** What Check makes of `create` (defaults filled in, values normalised): exactly these inputs. */
  checkedAs?: Obj | ((given: Obj) => Obj);
  /** Inputs written differently that mean the same object: a Diff against them finds no change. */
  equivalent?: Obj;
  /** Changes to `create` that only write it another way (another order, ...): Check makes exactly the same inputs of them. */
  checkedSame?: Obj;
  /** Outputs only the API knows: a Create in preview leaves them unknown and sends no request. */
  unknownOutput?: string | string[];
  /** The form of the id Create returns, or the id itself from the checked inputs. */
  idPattern?: RegExp | ((inputs: Obj) => string);
  /** Outputs Create returns besides the inputs (the API's defaults, derived values). */
  outputs?: Obj | ((inputs: Obj, id: string) => Obj);
  /** Create returns the inputs and `outputs`, nothing else. */
  exactOutputs?: true;
  /**
   * Outputs Create returns as secrets of this form, which the API never shows again: every Read and
   * Update keeps them, unless an update step rotates them.
   */
  secretOutputs?: Record<string, RegExp>;
  /** Outputs Create never returns. */
  absentOutputs?: string[];
  /** Exactly the requests Create sends, by route (the total follows: the emulator counts a request once in each). */
  createRequests?: Record<string, number>;
  /** Exactly the requests the Read after the create sends, by route. */
  readRequests?: Record<string, number>;
  /** Checks of what the create did that the runner cannot see (other objects, the API's lists). */
  afterCreate?(walk: Walk): unknown;
  /** Read returns exactly the outputs the last Create or Update returned. */
  stableReads?: true;
  /** Outputs that every Update and an import show exactly as Create returned them. */
  keptOutputs?: string[];
  /** Outputs an import shows exactly as given (after the updates); a function of the state the engine then holds. */
  importedOutputs?: Obj | ((state: Obj) => Obj);
  /**
   * Inputs changed in place: Diff names exactly these, Update sends them, the state then shows them
   * as Check writes them.
   * A function when they name objects that `create` made (it runs after `create`). Several steps
   * are walked one after the other, each with the outputs it must show and the requests it may
   * send (by route). An input set to `undefined` is removed from the program.
   */
  update?: Obj | (() => Obj) | UpdateStep[];
  /** Inputs that replace the object: Diff asks to replace exactly these (and deletes first when told so). */
  replace?: Obj | ReplaceStep[];
  /** The object's API path (GET, PATCH and DELETE of one object), from the checked inputs and the id. */
  apiPath(inputs: Obj, id: string): string;
  /** What a GET of apiPath shows after the create (and after a delete that leaves the object). */
  apiObject?: Obj;
  /** Exactly the requests the delete sends, by route. */
  deleteRequests?: Record<string, number>;
  /** What the test does before the delete (removes another resource's object the delete must not meet, ...). */
  beforeDelete?(walk: Walk): unknown;
  /** Checks of what the delete did that the runner cannot see (which other objects it left, ...). */
  afterDelete?(walk: Walk): unknown;
  /** With `skip.delete`: outputs a Read shows of the object the delete leaves. */
  readAfterDelete?: Obj;
  /** Whether the API still has the object, for an API without a GET of one object (a GET of apiPath that is not a 404 when unset). */
  exists?(inputs: Obj, id: string): Promise<boolean>;
  /** The API path of the parent whose delete takes the object with it. */
  parentPath?(inputs: Obj): string;
  /** The id `pulumi import` takes (the id when unset). */
  importId?(inputs: Obj, id: string): string;
  /** Exactly the inputs an import writes out (after the updates). */
  imported?: Obj | ((inputs: Obj) => Obj);
  /** Exactly the requests the import sends, by route. */
  importRequests?: Record<string, number>;
  /**
   * Inputs an import fills with what other resources made as well (every record the zone serves,
   * ...): Check of them does not give the program's inputs back, so only `imported` says what they hold.
   */
  importAdopts?: string[];
  /**
   * Further ids an import takes, each with exactly the inputs it writes out (a clean import, kept
   * under the id it was given), or `null` when the id names nothing to import.
   */
  moreImports?: (inputs: Obj, id: string) => [string, Obj | null][];
  /** Ids an import refuses before any request, each with the error it gives. */
  badImportIds?: (inputs: Obj, id: string) => [string, RegExp][];
  /** Inputs the API never returns (write-only secrets): an import cannot bring them back. */
  writeOnly?: string[];
  /**
   * A change made through the API (PATCH of apiPath unless `method` says otherwise, then the
   * requests of `also`, their paths under apiPath), and the inputs Read must then report: Diff names
   * exactly those. `properties`: outputs Read must show besides; `ignored`: outputs the program
   * never set, which are not drift; `repaired`: the outputs an Update back to the program shows;
   * `warning`: what the Read must tell the engine's log of the change. A function when it names
   * what the API lists (it runs inside the test).
   */
  drift?: Drift | (() => Drift);
  /** Inputs Check refuses, each with the property its failure must name. */
  bad?: [Obj, string][];
  /** Check names the element at fault inside a list or an object (`events[1]`, `rule.field`). */
  nestedFailures?: ("[" | ".")[];
  /**
   * The steps this resource cannot go through, each with the reason, which the test's name shows.
   * A row without `update`, `replace`, `drift` or `bad` must say why here: nothing is left out silently.
   * `delete`: the delete runs, but the object stays (a singleton the delete resets, ...).
   * `drift edit`: the API has no edit of the object; the drift test makes only the delete.
   * `drift delete`: the API cannot delete the object (a singleton); the drift test makes only the edit.
   */
  skip?: Partial<Record<SkippableStep, string>>;
}

export interface Drift {
  body: Obj;
  inputs: Obj;
  method?: "PATCH" | "PUT";
  also?: { method: string; path: string; body: Obj }[];
  properties?: Obj;
  ignored?: string[];
  repaired?: Obj;
  warning?: RegExp;
}

/** Where a walk stands, for the checks and acts a row adds of its own. */
export interface Walk {
  id: string;
  /** The inputs the engine holds, as Check wrote them. */
  inputs: Obj;
  /** The outputs the engine holds. */
  state: Obj;
}

export interface UpdateStep {
  inputs: Obj | (() => Obj);
  /** What the test does first (makes another object the Update must work around, ...). */
  before?(walk: Walk): unknown;
  /** Checks of what the Update did that the runner cannot see; `state` is what it returned. */
  after?(walk: Walk): unknown;
  /** Outputs the Update returns. */
  outputs?: Obj;
  /** Exactly the requests the Update sends, by route. */
  requests?: Record<string, number>;
  /** What a GET of apiPath then shows. */
  apiObject?: Obj;
  /** The kind of change Diff reports for each input (1 update, 2 delete, ...). */
  detailed?: Record<string, number>;
  /** Secret outputs (of `secretOutputs`) the Update replaces with new ones. */
  rotates?: string[];
}

export interface ReplaceStep {
  /** A function when they name objects made after the rows are declared. */
  inputs: Obj | (() => Obj);
  /** Whether the replacement deletes the object first (unchecked when unset). */
  deleteBeforeReplace?: boolean;
  /** The inputs Diff asks to replace, when not all of `inputs` (some of them change in place). */
  replaces?: string[];
}

export type SkippableStep =
  | "update"
  | "replace"
  | "import"
  | "drift"
  | "drift edit"
  | "drift delete"
  | "bad"
  | "delete";

type Provider = ReturnType<typeof useProvider>;

/** The keys of an object, sorted: what a Diff must name. */
const keys = (o: Obj) => Object.keys(o).sort();
/** The inputs with a change applied: a key set to `undefined` is removed. */
const changed = (inputs: Obj, change: Obj) =>
  Object.fromEntries(Object.entries({ ...inputs, ...change }).filter(([, v]) => v !== undefined));
const defined = (o: Obj) => changed({}, o);
/** The values Check gave the inputs a change names: it may rewrite them (sorted, canonical), and the state shows its form. */
const pick = (inputs: Obj, change: Obj) => Object.fromEntries(Object.keys(defined(change)).map((k) => [k, inputs[k]]));
const updateSteps = (row: LifecycleRow): UpdateStep[] =>
  !row.update ? [] : Array.isArray(row.update) ? row.update : [{ inputs: row.update }];
const replaceSteps = (row: LifecycleRow): ReplaceStep[] =>
  !row.replace ? [] : Array.isArray(row.replace) ? row.replace : [{ inputs: row.replace }];
const resolved = <T>(v: T | ((...a: any[]) => T), ...args: unknown[]): T =>
  typeof v === "function" ? (v as (...a: unknown[]) => T)(...args) : v;

export function lifecycle(provider: Provider, rows: LifecycleRow[]): void {
  const { plugin, control, checked, previewSendsNothing, importClean, expectCheckFailures, anotherPlugin } = provider;
  let seq = 0;
  // A change made through the API is seen by a later command, a later plugin process. One that
  // reads each object on its own stands for it: the plugin under test may answer Reads of one
  // command from a list it already fetched (batchReads).
  let later: ReturnType<typeof anotherPlugin> | undefined;
  const laterCommand = () => (later ??= anotherPlugin({ batchReads: false }));

  async function inputsOf(row: LifecycleRow): Promise<Obj> {
    return checked(row.type, typeof row.create === "function" ? await row.create() : row.create);
  }

  /** Read after a write: the same id, the same secrets (still secret), and inputs that match. */
  async function readBack(row: LifecycleRow, name: string, id: string, state: Obj, inputs: Obj, reader = plugin) {
    const read = await reader.read(row.type, name, id, state, inputs);
    expect(read.id).toBe(id);
    for (const [key, value] of Object.entries(state)) {
      if (!isSecret(value)) continue;
      expect(isSecret(read.properties[key]), `${key} stays secret`).toBe(true);
      expect(plain(read.properties[key])).toEqual(plain(value));
    }
    return read;
  }

  /** Exactly these requests, by route, since the last reset of the emulator's counts. */
  async function expectRequests(expected: Record<string, number> | undefined, what: string): Promise<void> {
    if (expected) expect((await control.stats()).byRoute, what).toEqual(expected);
  }

  async function gone(
    row: LifecycleRow,
    name: string,
    id: string,
    state: Obj,
    inputs: Obj,
    reader = plugin,
  ): Promise<void> {
    expect((await reader.read(row.type, name, id, state, inputs)).id).toBe("");
  }

  for (const row of rows) {
    const skip = row.skip ?? {};
    for (const step of ["update", "replace", "drift", "bad"] as const) {
      if (!row[step] && !skip[step] && !(step === "drift" && skip["drift edit"]))
        throw new Error(`${row.type}: the lifecycle row has no ${step}; give one, or the reason in skip.${step}`);
    }
    describe(`${row.type} lifecycle`, () => {
      const steps = [
        "create",
        "read",
        "no-change diff",
        row.update && "update",
        row.replace && "replace",
        !skip.import && "import",
        !skip.delete && "delete",
      ];
      const skipped = Object.entries(skip).map(([step, reason]) => `no ${step}: ${reason}`);
      it(`${steps.filter(Boolean).join(", ")}${skipped.length ? ` (${skipped.join("; ")})` : ""}`, async () => {
        const name = `lc${++seq}`;
        const given = typeof row.create === "function" ? await row.create() : row.create;
        const inputs = await checked(row.type, given);
        if (row.checkedAs) expect(inputs, "what Check makes of the inputs").toEqual(resolved(row.checkedAs, given));
        if (row.checkedSame)
          expect(
            await checked(row.type, changed(given, row.checkedSame)),
            "the same inputs written another way",
          ).toEqual(inputs);
        for (const output of [row.unknownOutput ?? []].flat())
          expect(await previewSendsNothing(row.type, inputs, output), "a preview shows the inputs").toMatchObject(
            inputs,
          );

        await control.resetStats();
        const created = await plugin.create(row.type, name, inputs);
        await expectRequests(row.createRequests, "the requests of the create");
        expect(created.id).not.toBe("");
        if (row.idPattern instanceof RegExp) expect(created.id).toMatch(row.idPattern);
        else if (row.idPattern) expect(created.id).toBe(row.idPattern(inputs));
        expect(created.properties).toMatchObject(inputs);
        if (row.outputs) expect(created.properties).toMatchObject(resolved(row.outputs, inputs, created.id));
        if (row.exactOutputs)
          expect(created.properties).toEqual({ ...inputs, ...resolved(row.outputs ?? {}, inputs, created.id) });
        for (const key of row.absentOutputs ?? []) expect(created.properties).not.toHaveProperty(key);
        const secrets: Obj = {};
        for (const [key, form] of Object.entries(row.secretOutputs ?? {})) {
          expect(isSecret(created.properties[key]), `${key} is a secret`).toBe(true);
          expect(plain(created.properties[key])).toMatch(form);
          expect(
            await control.get(row.apiPath(inputs, created.id)),
            `the API shows ${key} only once`,
          ).not.toHaveProperty(key);
          secrets[key] = plain(created.properties[key]);
        }
        if (row.exists) expect(await row.exists(inputs, created.id), "the API has the object").toBe(true);
        if (row.apiObject) expect(await control.get(row.apiPath(inputs, created.id))).toMatchObject(row.apiObject);
        await row.afterCreate?.({ id: created.id, inputs, state: created.properties });
        await control.resetStats();
        const read = await readBack(row, name, created.id, created.properties, inputs);
        await expectRequests(row.readRequests, "the requests of the read");
        if (row.stableReads) expect(read.properties).toEqual(created.properties);
        expect(read.inputs).toEqual(inputs);
        expect(await plugin.diff(row.type, name, created.id, read.properties, inputs, inputs)).toMatchObject({
          changes: false,
          replaces: [],
        });
        if (row.equivalent) {
          const same = await checked(row.type, changed(given, row.equivalent));
          expect(
            (await plugin.diff(row.type, name, created.id, read.properties, same, inputs)).changes,
            "inputs that mean the same object",
          ).toBe(false);
        }

        let state = read.properties;
        let current = inputs;
        for (const step of updateSteps(row)) {
          await step.before?.({ id: created.id, inputs: current, state });
          const update = resolved(step.inputs);
          const news = await checked(row.type, changed(current, update));
          const d = await plugin.diff(row.type, name, created.id, state, news, current);
          expect(d).toMatchObject({ changes: true, replaces: [] });
          expect(d.diffs.sort()).toEqual(keys(update));
          if (step.detailed) expect(d.detailed).toEqual(step.detailed);
          await control.resetStats();
          expect(
            await plugin.update(row.type, name, created.id, state, news, true, current),
            "a preview shows the change",
          ).toMatchObject(pick(news, update));
          expect((await control.stats()).total, "an update in preview sends no request").toBe(0);
          const updated = await plugin.update(row.type, name, created.id, state, news, false, current);
          await expectRequests(step.requests, "the requests of the update");
          for (const [key, value] of Object.entries(pick(news, update))) expect(updated[key], key).toEqual(value);
          if (step.outputs) expect(updated).toMatchObject(step.outputs);
          for (const key of row.keptOutputs ?? []) expect(updated[key], key).toEqual(created.properties[key]);
          if (step.apiObject) expect(await control.get(row.apiPath(news, created.id))).toMatchObject(step.apiObject);
          for (const [key, form] of Object.entries(row.secretOutputs ?? {})) {
            expect(isSecret(updated[key]), `${key} stays a secret`).toBe(true);
            if (!step.rotates?.includes(key)) expect(plain(updated[key]), `${key} is kept`).toBe(secrets[key]);
            else {
              expect(plain(updated[key])).toMatch(form);
              expect(plain(updated[key]), `${key} is rotated`).not.toBe(secrets[key]);
              secrets[key] = plain(updated[key]);
            }
          }
          await step.after?.({ id: created.id, inputs: news, state: updated });
          const after = await readBack(row, name, created.id, updated, news);
          if (row.stableReads) expect(after.properties).toEqual(updated);
          expect(after.inputs).toEqual(news);
          expect((await plugin.diff(row.type, name, created.id, after.properties, news, news)).changes).toBe(false);
          [state, current] = [after.properties, news];
        }

        for (const step of replaceSteps(row)) {
          const change = resolved(step.inputs);
          const news = await checked(row.type, changed(current, change));
          const d = await plugin.diff(row.type, name, created.id, state, news, current);
          expect(d.changes).toBe(true);
          expect(d.replaces.sort()).toEqual(step.replaces?.sort() ?? keys(change));
          if (step.deleteBeforeReplace !== undefined)
            expect(d.deleteBeforeReplace ?? false, "deletes before it replaces").toBe(step.deleteBeforeReplace);
        }

        if (!skip.import) {
          await control.resetStats();
          const imported = await importClean(row.type, row.importId?.(current, created.id) ?? created.id, created.id);
          await expectRequests(row.importRequests, "the requests of the import");
          const kept = { ...current };
          for (const key of [...(row.writeOnly ?? []), ...(row.importAdopts ?? [])]) delete kept[key];
          // An import writes out only what differs from the defaults; Check fills those back in.
          expect(await checked(row.type, imported.inputs)).toMatchObject(kept);
          if (row.imported) expect(imported.inputs).toEqual(resolved(row.imported, current));
          for (const [key, value] of Object.entries(resolved(row.importedOutputs ?? {}, state)))
            expect(imported.properties[key], key).toEqual(value);
          const refreshed = await plugin.read(row.type, "imp", created.id, imported.properties, imported.inputs);
          expect(refreshed.inputs, "a refresh of the imported object keeps what the import wrote").toEqual(
            imported.inputs,
          );
          for (const key of row.keptOutputs ?? [])
            expect(imported.properties[key], key).toEqual(created.properties[key]);
          for (const [id, writes] of row.moreImports?.(current, created.id) ?? []) {
            if (writes) expect((await importClean(row.type, id)).inputs, id).toEqual(writes);
            else expect((await plugin.read(row.type, "imp", id)).id, `${id} names nothing to import`).toBe("");
          }
        }
        if (row.badImportIds) {
          await control.resetStats();
          for (const [id, error] of row.badImportIds(current, created.id))
            await expect(plugin.read(row.type, "imp", id), id).rejects.toThrow(error);
          expect((await control.stats()).total, "a refused import id sends no request").toBe(0);
        }

        await row.beforeDelete?.({ id: created.id, inputs: current, state });
        await control.resetStats();
        await plugin.delete(row.type, name, created.id, state);
        await expectRequests(row.deleteRequests, "the requests of the delete");
        if (skip.delete) {
          if (row.apiObject)
            expect(await control.get(row.apiPath(current, created.id)), "the delete leaves the object").toMatchObject(
              row.apiObject,
            );
          if (row.readAfterDelete)
            expect(
              (await plugin.read(row.type, name, created.id, state, current)).properties,
              "a Read of what the delete leaves",
            ).toMatchObject(row.readAfterDelete);
        }
        await row.afterDelete?.({ id: created.id, inputs: current, state });
        if (skip.delete) return;
        await gone(row, name, created.id, state, current);
        if (row.exists) expect(await row.exists(current, created.id), "the API no longer has the object").toBe(false);
        else await expect(control.get(row.apiPath(current, created.id))).rejects.toThrow(/: 404 /);
        // The engine may delete again after an interrupted run: nothing there is no error.
        await plugin.delete(row.type, name, created.id, state);
      });

      if (!skip.drift && (row.drift || skip["drift edit"])) {
        const what = [row.drift && "an edit", !skip["drift delete"] && "a delete"].filter(Boolean).join(" and ");
        it(`sees ${what} made through the API${row.parentPath ? ", and the object gone with its parent" : ""}`, async () => {
          const name = `drift${++seq}`;
          const drift = row.drift && resolved(row.drift);
          const inputs = await inputsOf(row);
          const created = await plugin.create(row.type, name, inputs);
          const path = row.apiPath(inputs, created.id);
          let read = { properties: created.properties, inputs };
          if (drift) {
            await control.api(drift.method ?? "PATCH", path, drift.body);
            for (const call of drift.also ?? []) await control.api(call.method, path + call.path, call.body);
            const reader = await laterCommand();
            const logged = reader.engineLogs.length;
            read = await readBack(row, name, created.id, created.properties, inputs, reader);
            if (drift.warning)
              expect(reader.engineLogs.slice(logged).join("\n"), "the Read warns of the change").toMatch(drift.warning);
            expect(read.inputs).toMatchObject(drift.inputs);
            expect(read.properties).toMatchObject({ ...drift.inputs, ...drift.properties });
            for (const key of drift.ignored ?? [])
              expect(read.inputs, `${key} was never set by the program: not drift`).not.toHaveProperty(key);
            const d = await plugin.diff(row.type, name, created.id, read.properties, inputs, read.inputs);
            expect(d.changes).toBe(true);
            expect(d.diffs.sort()).toEqual(keys(drift.inputs));
            const replacing = new Set(replaceSteps(row).flatMap((step) => Object.keys(resolved(step.inputs))));
            expect(d.replaces.sort(), "a drifted property replaces only when the row says it does").toEqual(
              keys(drift.inputs).filter((k) => replacing.has(k)),
            );
            if (drift.repaired) {
              const repaired = await plugin.update(
                row.type,
                name,
                created.id,
                read.properties,
                inputs,
                false,
                read.inputs,
              );
              expect(repaired, "an update back to the program").toMatchObject(drift.repaired);
              read = { properties: repaired, inputs };
            }
          }
          if (!skip["drift delete"]) {
            await control.delete(path);
            await gone(row, name, created.id, read.properties, read.inputs, await laterCommand());
          }
          if (row.parentPath) {
            const again = await plugin.create(row.type, `${name}b`, inputs);
            await control.delete(row.parentPath(inputs));
            await gone(row, `${name}b`, again.id, again.properties, inputs, await laterCommand());
          }
        });
      }

      if (row.bad) {
        const bad = row.bad;
        it("refuses bad inputs in Check, naming the property, before any request", async () => {
          await expectCheckFailures(row.type, bad, row.nestedFailures);
        });
      }
    });
  }
}
