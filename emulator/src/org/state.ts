// The account's organisation: made on the first request that needs it (the API creates it on the
// first GET /org), with its members, pending invitations and application switches.
import { createHash, randomBytes } from "node:crypto";
import { areaState, type Store } from "../model/store";

export const ROLES = ["admin", "member"] as const;
export const STATES = ["active", "suspended"] as const;
export const APPS = ["mail", "meet", "chat", "drive"] as const;
export type App = (typeof APPS)[number];

export interface MemberRow {
  sub: string;
  email: string;
  role: "owner" | (typeof ROLES)[number];
  state: (typeof STATES)[number];
  invite_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface InviteRow {
  id: string;
  email: string;
  role: (typeof ROLES)[number];
  created_at: string;
}

export interface OrgRow {
  id: string;
  account: string;
  name: string;
  slug: string;
  apps: Record<App, boolean>;
  /** sub -> member, in invitation order; the owner first. */
  members: Map<string, MemberRow>;
  invites: Map<string, InviteRow>;
  created_at: string;
  updated_at: string;
}

/** A person's subject is derived from the address, so the same person keeps one `sub`. */
export function subOf(email: string): string {
  return `usr_${createHash("sha256").update(email).digest("hex").slice(0, 16)}`;
}

function slugOf(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  return s.length >= 3 ? s : `org-${s || "x"}`;
}

export function newInviteId(): string {
  return `inv_${randomBytes(12).toString("hex")}`;
}

export const orgs = areaState(() => new Map<string, OrgRow>());

/** The account's organisation, created with the account holder as owner on first use. */
export function orgFor(store: Store, account: { name: string; email: string }): OrgRow {
  const t = orgs(store);
  let org = t.get(account.name);
  if (!org) {
    const now = store.timestamp();
    let slug = slugOf(account.name);
    for (let n = 2; [...t.values()].some((o) => o.slug === slug); n++) slug = `${slugOf(account.name)}-${n}`;
    org = {
      id: `org_${randomBytes(8).toString("hex")}`,
      account: account.name,
      name: account.name,
      slug,
      apps: { mail: true, meet: true, chat: true, drive: true },
      members: new Map(),
      invites: new Map(),
      created_at: now,
      updated_at: now,
    };
    const owner: MemberRow = {
      sub: subOf(account.email),
      email: account.email,
      role: "owner",
      state: "active",
      invite_id: null,
      created_at: now,
      updated_at: now,
    };
    org.members.set(owner.sub, owner);
    t.set(account.name, org);
  }
  return org;
}
