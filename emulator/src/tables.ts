// Two things the areas' tables keep needing: a row made on first use, and a prefixed string id
// unused in its table.
import { randomBytes } from "node:crypto";

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

/** The row as the API shows it: every column but the owning account. */
export function withoutAccount<R extends { account: string }>(row: R): Omit<R, "account"> {
  const { account: _account, ...rest } = row;
  return rest;
}
