/** The string ids the VOD API gives (assets, signing keys). */
export { VOD_ID as VOD_STRING_ID } from "../../framework/api/validators";

/** The API's "none" (null, or an empty map) for an optional input is the input left out of the program. */
export function dropNone<T extends Record<string, unknown>>(state: T, keys: readonly (keyof T & string)[]): T {
  const out: Record<string, unknown> = { ...state };
  for (const k of keys) {
    const v = out[k];
    if (v === null || (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0))
      delete out[k];
  }
  return out as T;
}
