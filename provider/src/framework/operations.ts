import { checkProperties } from "./check";
import type { AnyFunction, AnyResource, CheckFailure, OperationContext } from "./definition";
import { deepEqual, diffResource, sameValue } from "./diff";
import { UNKNOWN, type PropertyMap } from "./property-values";
import { unwrap } from "./zod-walk";

// The resource operations on plain values. The gRPC server and the dynamic-provider adapter
// both call these, adding only their own transport (Structs and secret wrappers, or
// pulumi.dynamic results), so both modes behave identically.

export function checkResource(def: AnyResource, news: PropertyMap): { inputs: PropertyMap; failures: CheckFailure[] } {
  const { value, failures, hasUnknowns } = checkProperties(def.args, news);
  if (failures.length === 0 && !hasUnknowns && def.check) failures.push(...def.check(value));
  return { inputs: value, failures };
}

/** A create in preview sends nothing: what only the API can know is unknown. */
export function previewCreate(def: AnyResource, inputs: PropertyMap): PropertyMap {
  const state: PropertyMap = { ...inputs };
  for (const key of Object.keys(def.state.shape)) if (state[key] === undefined) state[key] = UNKNOWN;
  return state;
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
    super(`${cause instanceof Error ? cause.message : String(cause)} (the object ${id} exists; the next \`pulumi up\` finishes it)`);
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
async function tracking<T>(ctx: OperationContext, inputs: PropertyMap, fallback: { id: string; state: PropertyMap } | undefined, run: (ctx: OperationContext) => Promise<T>): Promise<T> {
  let last = fallback;
  const tracked: OperationContext = { ...ctx, progress: (id, state) => (last = { id, state }) };
  try {
    return await run(tracked);
  } catch (e) {
    if (last && !(e instanceof InitFailedError)) throw new InitFailedError(last.id, last.state, inputs, e);
    throw e;
  }
}

export async function createResource(def: AnyResource, ctx: OperationContext, inputs: PropertyMap): Promise<{ id: string; state: PropertyMap }> {
  const { id, state } = await tracking(ctx, inputs, undefined, (c) => def.create(c, inputs));
  return { id, state: carryOver(def, state, inputs) };
}

export interface ReadOutcome {
  id: string;
  state: PropertyMap;
  inputs: PropertyMap;
}

/** Serves refresh (with prior state) and import (without). Undefined means the object is gone. */
export async function readResource(def: AnyResource, ctx: OperationContext, id: string, prior: PropertyMap, priorInputs: PropertyMap): Promise<ReadOutcome | undefined> {
  if (!def.read) throw new Error(`${def.token} cannot be read back from the API`);
  const importing = Object.keys(prior).length === 0;
  const found = await def.read(ctx, id, { ...priorInputs, ...prior });
  if (!found) return undefined;
  const state = carryOver(def, found.state, priorInputs, prior);
  return { id: found.id, state, inputs: importing ? inputsForImport(def, state) : inputsForRefresh(def, state, priorInputs) };
}

export async function updateResource(
  def: AnyResource,
  ctx: OperationContext,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs?: PropertyMap,
  ignoreChanges: readonly string[] = [],
): Promise<PropertyMap> {
  if (!def.update) throw new Error(`${def.token} has no update; every change replaces it`);
  // The same diff the engine was shown: a property it was told to ignore must not reach the API.
  const { diffs } = diffResource(def, olds, news, oldInputs, ignoreChanges, false);
  const update = def.update;
  const state = await tracking(ctx, news, undefined, (c) => update(c, id, news, olds, diffs));
  return carryOver(def, state, news, olds);
}

export async function deleteResource(def: AnyResource, ctx: OperationContext, id: string, olds: PropertyMap): Promise<void> {
  if (!def.delete) return;
  try {
    await def.delete(ctx, id, olds);
  } catch (e) {
    // Already gone is what delete wanted.
    if ((e as { code?: string }).code !== "not_found") throw e;
  }
}

export async function invokeFunction(fn: AnyFunction, ctx: () => OperationContext, args: PropertyMap): Promise<{ result?: PropertyMap; failures: CheckFailure[] }> {
  const { value, failures } = checkProperties(fn.args, args);
  if (failures.length === 0 && fn.check) failures.push(...fn.check(value));
  if (failures.length) return { failures };
  return { result: (await fn.invoke(ctx(), value)) as PropertyMap, failures };
}

/**
 * What the API never echoes (write-only inputs) or shows only once (one-time outputs) is
 * carried over from what the engine gave us.
 */
function carryOver(def: AnyResource, state: PropertyMap, inputs: PropertyMap, prior: PropertyMap = {}): PropertyMap {
  const out: PropertyMap = { ...state };
  for (const key of def.writeOnly ?? []) if (out[key] === undefined && inputs[key] !== undefined) out[key] = inputs[key];
  for (const key of def.oneTime ?? []) if ((out[key] === undefined || out[key] === null) && prior[key] !== undefined) out[key] = prior[key];
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
    inputs[key] = value;
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
    const keepPrior = writeOnly.has(key) || state[key] === undefined || sameValue(def, key, state[key], priorInputs[key], state);
    inputs[key] = keepPrior ? priorInputs[key] : state[key];
  }
  return inputs;
}
