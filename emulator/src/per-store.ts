// An area's tables hang off the emulator's Store, so every emulator (each test starts its own)
// has its own; they are made on the area's first request, which is also when an area registers
// its quota counters with the store.
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
