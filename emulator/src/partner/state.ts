// Partner access. In the emulator every account is also a partner (slug = the account name)
// working in managed mode; `setPartnerMode` switches a partner to oauth mode in-process, where
// customers arrive only through the consent step and POST /partner/subjects is refused.
//
// A managed customer is a customer account of its own (zones, records, mail, ... apart from the
// partner's), created with the subject. The partner reaches it only through short-lived
// credentials minted for it; they are bearer tokens like any other, with an expiry.
import { areaState, type Store, type TokenRecord } from "../model/store";
import { newToken } from "../util/random";

export type PartnerMode = "managed" | "oauth";

export interface SubjectRow {
  external_ref: string;
  mode: PartnerMode;
  /** The customer's own account; unique per subject, so a re-created reference starts empty. */
  account: string;
  created_at: string;
}

export interface PartnerRow {
  mode: PartnerMode;
  /** external_ref -> subject, in creation order. */
  subjects: Map<string, SubjectRow>;
}

/** A credential minted for a customer, kept after it expires so tests can count renewals. */
export interface MintedCredential {
  token: string;
  partner: string;
  subject: string;
  account: string;
  scope: "read" | "write";
  created_at: number;
  expires_at: number;
  revoked: boolean;
}

export const DEFAULT_PARTNER_TOKEN_TTL_SECONDS = 900;

interface PartnerTables {
  partners: Map<string, PartnerRow>;
  minted: MintedCredential[];
  ttlSeconds: number;
}

const tablesOf = areaState(
  (): PartnerTables => ({ partners: new Map(), minted: [], ttlSeconds: DEFAULT_PARTNER_TOKEN_TTL_SECONDS }),
);

export function partnerFor(store: Store, account: string): PartnerRow {
  const t = tablesOf(store).partners;
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

/** How long a minted credential lives (the emulator's `--partner-token-ttl`). */
export function setPartnerTokenTtl(store: Store, seconds: number): void {
  tablesOf(store).ttlSeconds = seconds;
}

export function partnerTokenTtl(store: Store): number {
  return tablesOf(store).ttlSeconds;
}

/** Creates a managed customer and the customer account behind it. */
export function addSubject(store: Store, partner: string, ref: string): SubjectRow {
  // "/" cannot occur in an account name given to the emulator, so this never meets one of them.
  const account = `${partner}/${ref}/${store.nextId()}`;
  store.ensureAccount(account);
  const row: SubjectRow = { external_ref: ref, mode: "managed", account, created_at: store.timestamp() };
  partnerFor(store, partner).subjects.set(ref, row);
  return row;
}

/**
 * The partner stops acting for the customer: every credential minted for it stops working at
 * once. The customer's account and what it holds stay (they are the customer's), unreachable.
 */
export function removeSubject(store: Store, partner: string, row: SubjectRow): void {
  partnerFor(store, partner).subjects.delete(row.external_ref);
  for (const m of tablesOf(store).minted) {
    if (m.account !== row.account || m.revoked) continue;
    m.revoked = true;
    store.tokens.delete(m.token);
  }
}

export function mintCredential(
  store: Store,
  partner: string,
  row: SubjectRow,
  scope: "read" | "write",
): MintedCredential {
  const t = tablesOf(store);
  const now = store.now();
  const token = newToken();
  const minted: MintedCredential = {
    token,
    partner,
    subject: row.external_ref,
    account: row.account,
    scope,
    created_at: now,
    expires_at: now + t.ttlSeconds * 1000,
    revoked: false,
  };
  const rec: TokenRecord = {
    token,
    account: row.account,
    scope,
    expires_at: minted.expires_at,
    acting_for: { partner, subject: row.external_ref },
  };
  store.tokens.set(token, rec);
  // Every credential minted for one customer shares one rate-limit bucket, and so one label.
  store.tokenLabels.set(token, `minted:${partner}/${row.external_ref}`);
  t.minted.push(minted);
  return minted;
}

export function mintedCredentials(store: Store): readonly MintedCredential[] {
  return tablesOf(store).minted;
}

/** A minted credential revoked from outside the API (the control API) is listed as revoked. */
export function noteRevoked(store: Store, token: string): void {
  for (const m of tablesOf(store).minted) if (m.token === token) m.revoked = true;
}

/** Control hook: the credentials still live (optionally of one partner and subject) expire now. */
export function expireCredentials(store: Store, filter: { partner?: string; subject?: string } = {}): number {
  const now = store.now();
  let n = 0;
  for (const m of tablesOf(store).minted) {
    if (m.revoked || m.expires_at <= now) continue;
    if (filter.partner !== undefined && m.partner !== filter.partner) continue;
    if (filter.subject !== undefined && m.subject !== filter.subject) continue;
    m.expires_at = now;
    const rec = store.tokens.get(m.token);
    if (rec) rec.expires_at = now;
    n++;
  }
  return n;
}
