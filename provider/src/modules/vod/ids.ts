/** The string ids the VOD API gives (assets, signing keys). */
export const VOD_STRING_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

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
