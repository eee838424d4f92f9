// Bot-verification site keys. The tables hang off the Store through a WeakMap, like the other
// areas; ids come from the store's one counter and rows carry their account.
import { randomBytes } from "node:crypto";
import { accountTable } from "../model/store";

export const VERIFY_MODES = ["managed", "invisible", "interactive"] as const;
export const VERIFY_INTERACTIONS = ["off", "soft", "strict", "present"] as const;

export interface VerifySiteRow {
  id: number;
  account: string;
  name: string;
  hostnames: string[];
  mode: (typeof VERIFY_MODES)[number];
  fingerprint: boolean;
  interaction: (typeof VERIFY_INTERACTIONS)[number];
  enabled: boolean;
  /** The public key the widget embeds; fixed for the life of the site. */
  sitekey: string;
  /** Only the current secret verifies; rotation replaces it at once. */
  secret: string;
  secret_issued_at: string;
  created_at: string;
}

export const verifySites = accountTable<VerifySiteRow>("verify_sites");

export function newSitekey(): string {
  return `vsk_${randomBytes(12).toString("hex")}`;
}

export function newSecret(): string {
  return `vss_${randomBytes(24).toString("hex")}`;
}
