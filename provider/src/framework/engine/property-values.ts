// The engine encodes secrets and unknowns inside google.protobuf.Struct values with
// well-known signature keys. Resource code never sees them: the server unwraps inputs into plain
// values and wraps outputs again, so CRUD functions deal only with ordinary JSON.

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type PropertyMap = Record<string, unknown>;

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

export function makeSecret(value: unknown): unknown {
  return { [SIG_KEY]: SECRET_SIG, value };
}

function isSigned(value: unknown, sig: string): value is Record<string, unknown> {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && (value as PropertyMap)[SIG_KEY] === sig
  );
}

export interface Unwrapped {
  value: PropertyMap;
  /** Top-level properties that held a secret anywhere inside them. */
  secretKeys: Set<string>;
}

/**
 * Strips secret wrappers (and first-class output values, which the engine may send even when we
 * did not ask for them) and remembers which top-level properties were secret, so the same keys
 * can be wrapped again on the way out.
 */
export function unwrapProperties(props: PropertyMap | undefined): Unwrapped {
  const secretKeys = new Set<string>();
  const value: PropertyMap = {};
  for (const [key, raw] of Object.entries(props ?? {})) {
    const found = { secret: false };
    value[key] = unwrapValue(raw, found);
    if (found.secret) secretKeys.add(key);
  }
  return { value, secretKeys };
}

function unwrapValue(raw: unknown, found: { secret: boolean }): unknown {
  if (isSigned(raw, SECRET_SIG)) {
    found.secret = true;
    return unwrapValue(raw.value, found);
  }
  if (isSigned(raw, OUTPUT_SIG)) {
    if (raw.secret === true) found.secret = true;
    return "value" in raw ? unwrapValue(raw.value, found) : UNKNOWN;
  }
  return mapShared(raw, (v) => unwrapValue(v, found));
}

/**
 * `value` with `fn` applied to each element or property value, sharing every part that `fn` left
 * as it was: a list of 100,000 records without a secret in it is not copied at all. Properties
 * that `fn` turns undefined are left out.
 */
function mapShared(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = fn(value[i]);
      if (out === undefined && v !== value[i]) out = value.slice(0, i);
      out?.push(v);
    }
    return out ?? value;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    let out: PropertyMap | undefined;
    for (let i = 0; i < entries.length; i++) {
      const [k, raw] = entries[i]!;
      const v = fn(raw);
      if (out === undefined && (v !== raw || v === undefined)) out = Object.fromEntries(entries.slice(0, i));
      if (out !== undefined && v !== undefined) out[k] = v;
    }
    return out ?? value;
  }
  return value;
}

/** Wraps the named top-level properties as secrets; undefined and null stay as they are. */
export function wrapSecrets(props: PropertyMap, keys: Iterable<string>): PropertyMap {
  const out: PropertyMap = { ...props };
  for (const key of keys) {
    const v = out[key];
    if (v !== undefined && v !== null) out[key] = makeSecret(v);
  }
  return out;
}

/** Struct values cannot hold undefined; drop those keys recursively before marshalling. */
export function dropUndefined(value: unknown): unknown {
  return mapShared(value, dropUndefined);
}
