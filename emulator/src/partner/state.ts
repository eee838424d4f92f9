// Partner access. In the emulator every account is also a partner (slug = the account name)
// working in managed mode; `setPartnerMode` switches a partner to oauth mode in-process, where
// customers arrive only through the consent step and POST /partner/subjects is refused.
import type { Store } from "../store";

export type PartnerMode = "managed" | "oauth";

export interface SubjectRow {
  external_ref: string;
  mode: PartnerMode;
  created_at: string;
}

export interface PartnerRow {
  mode: PartnerMode;
  /** external_ref -> subject, in creation order. */
  subjects: Map<string, SubjectRow>;
}

const tables = new WeakMap<Store, Map<string, PartnerRow>>();

export function partnerFor(store: Store, account: string): PartnerRow {
  let t = tables.get(store);
  if (!t) {
    t = new Map();
    tables.set(store, t);
  }
  let p = t.get(account);
  if (!p) {
    p = { mode: "managed", subjects: new Map() };
    t.set(account, p);
  }
  return p;
}

/** In-process hook for tests: the API has no endpoint that changes a partner's mode. */
export function setPartnerMode(store: Store, account: string, mode: PartnerMode): void {
  partnerFor(store, account).mode = mode;
}
