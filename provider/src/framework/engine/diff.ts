import type { AnyResource } from "../definition";
import { isUnknown, containsUnknown, type PropertyMap } from "./property-values";
import { sameInstant } from "../api/wire";
import { keysWithRole, unwrap } from "../definition/zod-walk";

type DiffKind = "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  diffs: string[];
  detailed: Record<string, DiffKind>;
  deleteBeforeReplace: boolean;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a as object).filter((k) => (a as PropertyMap)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as PropertyMap)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as PropertyMap)[k], (b as PropertyMap)[k]));
}

/**
 * Compares the program's checked inputs with the last known state of the object, property by
 * property. Comparing against the state (what the API last returned) rather than the previous
 * inputs is what lets a refresh that saw drift lead to an update that repairs it.
 */
export function diffResource(
  def: AnyResource,
  olds: PropertyMap,
  news: PropertyMap,
  oldInputs: PropertyMap | undefined,
  ignoreChanges: readonly string[] = [],
  /** False when only which properties changed matters (an update): skips the per-element detail, which for a large list costs as much as the update's own planning. */
  elements = true,
): DiffResult {
  const replaceKeys = new Set<string>(def.replaceOnChanges ?? []);
  const writeOnly = new Set<string>(def.writeOnly ?? []);
  const kept = new Set(keysWithRole(def.args.shape as Record<string, never>, "keptWhenUnset"));
  const detailed: Record<string, DiffKind> = {};
  const changed: string[] = [];

  for (const key of Object.keys(def.args.shape)) {
    if (ignoreChanges.includes(key)) continue;
    const next = news[key];
    const prev = writeOnly.has(key) ? (oldInputs?.[key] ?? addedSince(def, key, oldInputs)) : olds[key];
    let kind: "ADD" | "DELETE" | "UPDATE" | undefined;
    if (next !== undefined && (isUnknown(next) || containsUnknown(next))) {
      kind = prev === undefined ? "ADD" : "UPDATE";
    } else if (next === undefined) {
      // A property the program never set is the API's to choose; only dropping one the program
      // used to set is a change, unless unset means "the value the object has" (keptWhenUnset).
      if (!kept.has(key) && oldInputs?.[key] !== undefined && prev !== undefined && prev !== null) kind = "DELETE";
    } else if (!deepEqual(next, prev) && !sameValue(def, key, prev, next, news)) {
      kind = prev === undefined || prev === null ? "ADD" : "UPDATE";
    }
    if (!kind) continue;
    changed.push(key);
    const suffix = replaceKeys.has(key) ? "_REPLACE" : "";
    const perElement =
      elements && kind === "UPDATE" && !containsUnknown(next) ? elementDiff(def, key, prev, next) : undefined;
    if (perElement && Object.keys(perElement).length) {
      for (const [path, k] of Object.entries(perElement)) detailed[path] = `${k}${suffix}` as DiffKind;
    } else {
      detailed[key] = `${kind}${suffix}` as DiffKind;
    }
  }

  const diffs = changed;
  const replaces = changed.filter((k) => replaceKeys.has(k));
  const oldArgs: PropertyMap = {};
  for (const key of Object.keys(def.args.shape)) oldArgs[key] = writeOnly.has(key) ? oldInputs?.[key] : olds[key];
  return {
    changes: diffs.length > 0,
    replaces,
    diffs,
    detailed,
    deleteBeforeReplace: replaces.length > 0 && mustDeleteFirst(def, oldArgs, news),
  };
}

/**
 * A write-only input the last inputs lack was added by a later release (forceDestroy, added after
 * 0.2.0): a state written before meant its default, so that default is no change.
 */
function addedSince(def: AnyResource, key: string, oldInputs: PropertyMap | undefined): unknown {
  if (!oldInputs || key in oldInputs) return undefined;
  const field = unwrap(def.args.shape[key] as never);
  return field.hasDefault ? field.defaultValue : undefined;
}

/**
 * Two spellings of one input that mean the same: one instant in a timestamp property, or the
 * definition's own equivalence. A value it cannot read (a state hand-edited, or from an older
 * version) is not the same.
 */
export function sameValue(def: AnyResource, key: string, prev: unknown, next: unknown, args: PropertyMap): boolean {
  if (sameInstant(key, prev, next)) return true;
  const same = def.sameValue?.[key];
  if (!same || prev === undefined || prev === null || next === undefined || next === null) return false;
  try {
    return same(prev, next, args);
  } catch {
    return false;
  }
}

/** The definition's per-element detail; a state it cannot read gets the whole-property view. */
function elementDiff(
  def: AnyResource,
  key: string,
  prev: unknown,
  next: unknown,
): Record<string, "ADD" | "DELETE" | "UPDATE"> | undefined {
  try {
    return def.detailedDiff?.[key]?.(prev, next);
  } catch {
    return undefined;
  }
}

/**
 * Asks the definition whether old and new would collide. Only known values can collide: unknown
 * ones exist only in a preview, where the answer does not matter yet. A state too malformed for
 * the hook to read (hand-edited, or from an older version) is not a collision either.
 */
function mustDeleteFirst(def: AnyResource, olds: PropertyMap, news: PropertyMap): boolean {
  if (!def.deleteBeforeReplace || containsUnknown(news)) return false;
  try {
    return def.deleteBeforeReplace(olds, news);
  } catch {
    return false;
  }
}
