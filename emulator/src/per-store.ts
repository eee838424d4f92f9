// An area's tables hang off the emulator's Store, so every emulator (each test starts its own)
// has its own; they are made on the area's first request, which is also when an area registers
// its quota counters with the store. Beside them, the two things those tables keep needing: a
// row made on first use, and a prefixed string id unused in its table.
import { randomBytes } from "node:crypto";
import type { Store } from "./store";

/** The accessor of an area's tables: `make` runs once per Store, on first use. */
export function perStore<T>(make: (store: Store) => T): (store: Store) => T {
  const tables = new WeakMap<Store, T>();
  return (store) => {
    let t = tables.get(store);
    if (t === undefined) {
      t = make(store);
      tables.set(store, t);
    }
    return t;
  };
}

/** The value under `key`, made and stored on first use (an account's numbers, its settings). */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/** `<prefix>_<12 hex>`, not yet a key of `taken`: the string ids of the areas that use them. */
export function uniqueId(prefix: string, taken: { has(id: string): boolean }): string {
  for (;;) {
    const id = `${prefix}_${randomBytes(6).toString("hex")}`;
    if (!taken.has(id)) return id;
  }
}
