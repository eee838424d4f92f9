// What the areas' tables keep needing: a row made on first use, a prefixed string id unused in
// its table, a row's columns from a body's optional fields, and a row without its account.
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

/**
 * The body's optional fields as columns, in the order given: each one's value, null where the
 * body leaves it out (a new row's `note`, `owner`, `client_ref`...).
 */
export function nullWhereAbsent<B extends object, K extends keyof B>(
  body: B,
  keys: readonly K[],
): { [P in K]-?: Exclude<B[P], undefined> | null } {
  const out: Partial<Record<K, unknown>> = {};
  for (const k of keys) out[k] = body[k] ?? null;
  return out as { [P in K]-?: Exclude<B[P], undefined> | null };
}
