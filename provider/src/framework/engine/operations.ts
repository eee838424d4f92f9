import { checkProperties } from "./check";
import type { AnyFunction, AnyResource, CheckFailure, OperationContext } from "../definition";
import { deepEqual, diffResource, sameValue } from "./diff";
import { listInputsOf, listKindPage, type ListedObject, type ListPageOptions } from "../api/list-facts";
import { explainConflict } from "../api/natural-key";
import { refuseWhileHolding } from "./held-objects";
import { FORCE_DESTROY } from "../definition/holds";
import { UNKNOWN, type PropertyMap } from "./property-values";
import { stampState, upgradeInputs, upgradeState } from "./state-version";
import { unwrap } from "../definition/zod-walk";
import { z } from "zod";

// The resource operations on plain values. The gRPC server and the dynamic-provider adapter
// both call these, adding only their own transport (Structs and secret wrappers, or
// pulumi.dynamic results), so both modes behave identically. Every state and input map that comes
// in is brought to this release's shape first (state-version.ts), and every state that goes out
// records that shape's version.

export function checkResource(
  def: AnyResource,
  news: PropertyMap,
): { inputs: PropertyMap; failures: CheckFailure[]; warnings: string[] } {
  const { value, failures, hasUnknowns } = checkProperties(def.args, upgradeInputs(def, news));
  if (failures.length === 0 && !hasUnknowns && def.check) failures.push(...def.check(value));
  const warnings = failures.length === 0 && !hasUnknowns && def.warnings ? def.warnings(value) : [];
  return { inputs: value, failures, warnings };
}

/** A create in preview sends nothing: what only the API can know is unknown. */
export function previewCreate(def: AnyResource, inputs: PropertyMap): PropertyMap {
  const state: PropertyMap = { ...inputs };
  for (const key of Object.keys(def.state.shape)) if (state[key] === undefined) state[key] = UNKNOWN;
  return stampState(def, state);
}

/** An update in preview sends nothing: the last state with the new inputs over it. */
export function previewUpdate(def: AnyResource, olds: PropertyMap, news: PropertyMap): PropertyMap {
  return { ...upgradeState(def, olds), ...upgradeInputs(def, news) };
}

/** The engine's Diff: the last state and inputs of any release against the program's inputs. */
export function diffStates(
  def: AnyResource,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap | undefined,
  ignoreChanges: readonly string[] = [],
) {
  // A refresh asks for the diff with the roles swapped: the state's inputs as `news`, and those
  // may be of an earlier release's shape too.
  return diffResource(
    def,
    upgradeState(def, olds),
    upgradeInputs(def, news),
    upgradeInputs(def, oldInputs),
    ignoreChanges,
  );
}

/**
 * Diff, and the checks of a delete-first replacement before anything is deleted: the definition's
 * own, and what the object holds (held-objects.ts). They need the API, so they run only when `ctx`
 * gives a context (a token is configured).
 */
export async function diffChecked(
  def: AnyResource,
  ctx: () => OperationContext | undefined,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap | undefined,
  ignoreChanges: readonly string[] = [],
) {
  const d = diffStates(def, olds, news, oldInputs, ignoreChanges);
  const context = d.deleteBeforeReplace && (def.beforeDeleteFirst || def.holds) ? ctx() : undefined;
  if (!context) return d;
  const state = upgradeState(def, olds);
  if (def.beforeDeleteFirst) await def.beforeDeleteFirst(context, state, upgradeInputs(def, news));
  if (def.holds) await refuseWhileHolding("replacement", def.token, def.holds, context, id, state);
  return d;
}

/**
 * The object exists but a later step of its create or update failed: the engine must keep it,
 * with this state, so that the next `up` finishes it rather than creating another.
 */
export class InitFailedError extends Error {
  /** Set by the transport, which knows the resource type and which inputs were secret. */
  token = "";
  secretKeys = new Set<string>();

  constructor(
    readonly id: string,
    readonly state: PropertyMap,
    readonly inputs: PropertyMap,
    cause: unknown,
  ) {
    super(
      `${cause instanceof Error ? cause.message : String(cause)} (the object ${id} exists; the next \`pulumi up\` finishes it)`,
    );
  }

  static annotate(e: unknown, token: string, secretKeys: Iterable<string>): unknown {
    if (e instanceof InitFailedError) {
      e.token = token;
      for (const k of secretKeys) e.secretKeys.add(k);
    }
    return e;
  }
}

/** Runs an operation with a context that remembers the last progress its resource reported. */
async function tracking<T>(
  def: AnyResource,
  ctx: OperationContext,
  inputs: PropertyMap,
  run: (ctx: OperationContext) => Promise<T>,
): Promise<T> {
  let last: { id: string; state: PropertyMap } | undefined;
  const tracked: OperationContext = { ...ctx, progress: (id, state) => (last = { id, state: stampState(def, state) }) };
  try {
    return await run(tracked);
  } catch (e) {
    if (last && !(e instanceof InitFailedError)) throw new InitFailedError(last.id, last.state, inputs, e);
    throw e;
  }
}

export async function createResource(
  def: AnyResource,
  ctx: OperationContext,
  given: PropertyMap,
): Promise<{ id: string; state: PropertyMap }> {
  const inputs = upgradeInputs(def, given);
  const { id, state } = await tracking(def, ctx, inputs, (c) => def.create(c, inputs)).catch(async (e: unknown) => {
    throw await explainConflict(def, ctx.client, inputs, ctx.resourceName, e, ctx.signal);
  });
  return { id, state: stampState(def, carryOver(def, state, inputs)) };
}

interface ReadOutcome {
  id: string;
  state: PropertyMap;
  inputs: PropertyMap;
}

/** Serves refresh (with prior state) and import (without). Undefined means the object is gone. */
export async function readResource(
  def: AnyResource,
  ctx: OperationContext,
  id: string,
  priorState: PropertyMap,
  priorInputsGiven: PropertyMap,
): Promise<ReadOutcome | undefined> {
  if (!def.read) throw new Error(`${def.token} cannot be read back from the API`);
  const importing = Object.keys(priorState).length === 0;
  const prior = importing ? priorState : upgradeState(def, priorState);
  const priorInputs = upgradeInputs(def, priorInputsGiven);
  const found = await def.read(ctx, id, { ...priorInputs, ...prior });
  if (!found) return undefined;
  const state = stampState(def, carryOver(def, found.state, priorInputs, prior));
  return {
    id: found.id,
    state,
    inputs: importing ? inputsForImport(def, state) : inputsForRefresh(def, state, priorInputs),
  };
}

export async function updateResource(
  def: AnyResource,
  ctx: OperationContext,
  id: string,
  oldState: PropertyMap,
  newInputs: PropertyMap,
  oldInputs?: PropertyMap,
  ignoreChanges: readonly string[] = [],
): Promise<PropertyMap> {
  if (!def.update) throw new Error(`${def.token} has no update; every change replaces it`);
  const olds = upgradeState(def, oldState);
  const news = upgradeInputs(def, newInputs);
  // The same diff the engine was shown: a property it was told to ignore must not reach the API.
  const { diffs } = diffResource(def, olds, news, upgradeInputs(def, oldInputs), ignoreChanges, false);
  // forceDestroy is the provider's own: a change of it alone sends nothing.
  const toApi = diffs.filter((k) => k !== FORCE_DESTROY);
  const update = def.update;
  const state =
    toApi.length === 0 && diffs.length > 0
      ? { ...olds, ...news }
      : await tracking(def, ctx, news, (c) => update(c, id, news, olds, toApi));
  if (def.holds) state[FORCE_DESTROY] = news[FORCE_DESTROY];
  return stampState(def, carryOver(def, state, news, olds));
}

export async function deleteResource(
  def: AnyResource,
  ctx: OperationContext,
  id: string,
  olds: PropertyMap,
): Promise<void> {
  if (!def.delete) return;
  const state = upgradeState(def, olds);
  if (def.holds) await refuseWhileHolding("delete", def.token, def.holds, ctx, id, state);
  const remove = def.delete;
  try {
    await ctx.deletes.run(def.token, () => remove(ctx, id, state));
  } catch (e) {
    // Already gone is what delete wanted.
    if ((e as { code?: string }).code !== "not_found") throw e;
  }
}

export async function invokeFunction(
  fn: AnyFunction,
  ctx: () => OperationContext,
  args: PropertyMap,
): Promise<{ result?: PropertyMap; failures: CheckFailure[] }> {
  const { value, failures } = checkProperties(fn.args, args);
  if (failures.length === 0 && fn.check) failures.push(...fn.check(value));
  if (failures.length) return { failures };
  return { result: (await fn.invoke(ctx(), value)) as PropertyMap, failures };
}

/**
 * One page of the kind's objects (the plugin's List): the list inputs are checked first, so a
 * missing parent or a bad filter is named before any request. A kind with no list facts has none.
 */
export async function listResources(
  def: AnyResource,
  ctx: () => OperationContext,
  query: PropertyMap,
  opts: Omit<ListPageOptions, "signal">,
): Promise<{ objects?: ListedObject[]; continuation?: string; failures: CheckFailure[] }> {
  if (!def.list)
    return { failures: [{ property: "", reason: `${def.token} cannot be listed: the API has no list of it` }] };
  const { shape } = listInputsOf(def);
  const { value, failures } = checkProperties(z.object(shape), query);
  if (failures.length) return { failures };
  const context = ctx();
  return { ...(await listKindPage(def, context.client, value, { ...opts, signal: context.signal })), failures };
}

/**
 * What the API never echoes (write-only inputs) or shows only once (one-time outputs) is
 * carried over from what the engine gave us.
 */
function carryOver(def: AnyResource, state: PropertyMap, inputs: PropertyMap, prior: PropertyMap = {}): PropertyMap {
  const out: PropertyMap = { ...state };
  for (const key of def.writeOnly ?? [])
    if (out[key] === undefined && inputs[key] !== undefined) out[key] = inputs[key];
  for (const key of def.oneTime ?? [])
    if ((out[key] === undefined || out[key] === null) && prior[key] !== undefined) out[key] = prior[key];
  return out;
}

/** On import, the program's inputs are what the API holds, leaving out values equal to the defaults. */
function inputsForImport(def: AnyResource, state: PropertyMap): PropertyMap {
  const inputs: PropertyMap = {};
  for (const [key, field] of Object.entries(def.args.shape)) {
    const value = state[key];
    if (value === undefined || value === null) continue;
    const u = unwrap(field as never);
    if (u.hasDefault && deepEqual(u.defaultValue, value)) continue;
    const spell = (def.importSpelling as Record<string, ((v: unknown) => unknown) | undefined> | undefined)?.[key];
    inputs[key] = spell ? spell(value) : value;
  }
  return inputs;
}

/**
 * On refresh, inputs the program set take the live value, so that the next `up` shows the drift
 * and repairs it; inputs the program left to the API stay unset. A live value that only spells
 * the program's value another way leaves the program's spelling.
 */
function inputsForRefresh(def: AnyResource, state: PropertyMap, priorInputs: PropertyMap): PropertyMap {
  const inputs: PropertyMap = {};
  const writeOnly = new Set<string>(def.writeOnly ?? []);
  for (const key of Object.keys(def.args.shape)) {
    if (priorInputs[key] === undefined) continue;
    const keepPrior =
      writeOnly.has(key) || state[key] === undefined || sameValue(def, key, state[key], priorInputs[key], state);
    inputs[key] = keepPrior ? priorInputs[key] : state[key];
  }
  return inputs;
}
