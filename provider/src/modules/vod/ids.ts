const STRING_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
import { NUMERIC_ID as NUMERIC } from "../../framework/ids";

/** A string id (asset, signing key) as the path wants it; a malformed import id fails before any request. */
export function stringIdOf(token: string, id: string, what: string, example: string): string {
  if (!STRING_ID.test(id)) throw new Error(`${token}: "${id}" is not ${what}; import it by its id, such as ${example}`);
  return id;
}

export function numericIdOf(token: string, id: string, what: string): string {
  if (!NUMERIC.test(id)) throw new Error(`${token}: "${id}" is not ${what}; import it by its numeric id`);
  return id;
}

/** The API's "none" (null, or an empty map) for an optional input is the input left out of the program. */
export function dropNone<T extends Record<string, unknown>>(state: T, keys: readonly (keyof T & string)[]): T {
  const out: Record<string, unknown> = { ...state };
  for (const k of keys) {
    const v = out[k];
    if (v === null || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)) delete out[k];
  }
  return out as T;
}
