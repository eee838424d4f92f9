// Hosted mail: domains (on the service's nodes or on BYO servers), mailboxes, app passwords,
// aliases, groups, domain rules, forwarding routes and destinations. The tables hang off the
// Store through a WeakMap like the other areas; the zone-delete hook and the quota counters are
// registered the first time the area is used. Mail domains, aliases and domain rules have
// integer ids from the store's counter; the other objects have prefixed random string ids.
import { randomBytes } from "node:crypto";
import { ApiError, notFound } from "../pipeline/errors";
import type { Env } from "../pipeline/route";
import { areaTables, type Store } from "../model/store";

export const MAIL_MODES = ["mailbox", "forward", "both"] as const;
export const DMARC_POLICIES = ["none", "quarantine", "reject"] as const;
export const MAILBOX_STATES = ["active", "disabled"] as const;
export const GROUP_POSTING = ["anyone", "org", "members"] as const;
export const GROUP_REPLY_TO = ["sender", "group"] as const;
export const GROUP_ROLES = ["member", "manager", "owner"] as const;
export const RULE_KINDS = ["forward_copy", "reject_sender", "quarantine_sender", "relay_rcpt"] as const;
const RECORD_KINDS = ["mx", "spf", "dkim", "dmarc", "tls_policy", "tls_rpt"] as const;

export type MailMode = (typeof MAIL_MODES)[number];
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
export type RecordKind = (typeof RECORD_KINDS)[number];

const MIB = 1024 * 1024;
export const QUOTA_MIN = MIB;
export const QUOTA_MAX = 1024 * 1024 * MIB;
export const DEFAULT_QUOTA = 5 * 1024 * MIB;
export const SEND_LIMIT_MAX = 10000;
export const DEFAULT_SEND_LIMIT = 200;
export const MAX_APP_PASSWORDS = 20;

/** The service's own mail hosts, under which BYO servers also get their names. */
export const MAIL_ZONE = "mail.nsp-emulator.test";

export interface MailServerRow {
  id: string;
  account: string;
  name: string;
  ip4: string;
  ip6: string | null;
  hostname: string;
  /** The agent's current session credential; part of the install command, never returned alone. */
  install_token: string;
  token_issued_at: string;
  last_check: SelfCheck | null;
  created_at: string;
}

export interface SelfCheck {
  at: string;
  ok: boolean;
  port25: boolean;
  ptr: string | null;
  version: string;
}

/** One record the domain publishes (or, without a hosted zone, asks the customer to add). */
export interface PublishedRecord {
  kind: RecordKind;
  /** Relative to the zone, as in the DNS records API. */
  name: string;
  type: "MX" | "TXT" | "CNAME";
  content: string;
  ttl: number;
  /** The record in the hosted zone; null when nothing is published there. */
  record_id: number | null;
  /** BYO domains: the result of the last check. */
  check: "ok" | "missing" | "mismatch" | null;
}

export interface MailDomainRow {
  id: number;
  account: string;
  name: string;
  zone_id: number | null;
  zone_name: string;
  server_id: string | null;
  mode: MailMode;
  enabled: boolean;
  catch_all: string | null;
  default_quota_bytes: number;
  dmarc_policy: DmarcPolicy;
  backup_enabled: boolean;
  dkim_selector: string;
  /** Base64 of the raw Ed25519 public key published in the DKIM record. */
  dkim_public_key: string;
  /** The policy id published in `_mta-sts`, fixed at creation. */
  mta_sts_id: string;
  records: PublishedRecord[];
  checked_at: string | null;
  created_at: string;
}

export interface MailboxRow {
  id: string;
  account: string;
  domain_id: number;
  local: string;
  display: string | null;
  quota_bytes: number;
  state: (typeof MAILBOX_STATES)[number];
  user_email: string | null;
  send_limit_hour: number;
  shared_with: string[];
  collab: boolean;
  created_at: string;
}

export interface AppPasswordRow {
  id: string;
  account: string;
  mailbox_id: string;
  label: string | null;
  created_at: string;
}

export interface AliasRow {
  id: number;
  account: string;
  domain_id: number;
  local_part: string;
  target_mailbox_id: string;
  enabled: boolean;
  created_at: string;
}

export interface GroupMember {
  address: string;
  role: (typeof GROUP_ROLES)[number];
}

export interface GroupRow {
  id: string;
  account: string;
  domain_id: number;
  local_part: string;
  name: string;
  members: GroupMember[];
  allow_external_senders: boolean;
  members_can_send: boolean;
  enabled: boolean;
  archive: boolean;
  posting: (typeof GROUP_POSTING)[number];
  reply_to: (typeof GROUP_REPLY_TO)[number];
  subject_tag: string | null;
  created_at: string;
}

export interface DomainRuleRow {
  id: number;
  account: string;
  domain_id: number;
  kind: (typeof RULE_KINDS)[number];
  pattern: string;
  target: string | null;
  enabled: boolean;
  created_at: string;
}

export interface RouteRow {
  account: string;
  domain_id: number;
  local_part: string;
  dest: string;
  created_at: string;
  updated_at: string;
}

export interface DestinationRow {
  id: string;
  account: string;
  addr: string;
  confirmed_at: string | null;
  created_at: string;
}

export const mail = areaTables(
  () => ({
    servers: new Map<string, MailServerRow>(),
    domains: new Map<number, MailDomainRow>(),
    mailboxes: new Map<string, MailboxRow>(),
    appPasswords: new Map<string, AppPasswordRow>(),
    aliases: new Map<number, AliasRow>(),
    groups: new Map<string, GroupRow>(),
    rules: new Map<number, DomainRuleRow>(),
    /** domain id -> local part -> route */
    routes: new Map<number, Map<string, RouteRow>>(),
    destinations: new Map<string, DestinationRow>(),
  }),
  { mail_domains: "domains", mailboxes: "mailboxes" },
  // The zone's records go with it; the domain stays, with nothing published, until deleted.
  (store, t) =>
    store.onZoneDelete((zone) => {
      for (const d of t.domains.values()) {
        if (d.zone_id !== zone.id) continue;
        d.zone_id = null;
        for (const r of d.records) r.record_id = null;
      }
    }),
);

/** Random lower-case letters in groups of four: easy to type into a mail client, 95 bits. */
export function newAppPassword(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const bytes = randomBytes(20);
  let out = "";
  for (let i = 0; i < 20; i++) {
    if (i > 0 && i % 4 === 0) out += "-";
    out += letters[(bytes[i] as number) % 26];
  }
  return out;
}

export function newInstallToken(): string {
  return `mst_${randomBytes(16).toString("hex")}`;
}

export function installCommand(server: MailServerRow): string {
  return `curl -fsSL https://get.${MAIL_ZONE}/byo.sh | sudo sh -s -- --server ${server.id} --token ${server.install_token}`;
}

type AccountEnv = Env & { account: { name: string } };

export const ownDomain = (env: AccountEnv, id: number): MailDomainRow =>
  env.store.owned(mail(env.store).domains, id, env.account.name, "mail domain");
export const ownMailbox = (env: AccountEnv, id: string): MailboxRow =>
  env.store.owned(mail(env.store).mailboxes, id, env.account.name, "mailbox");

export type MailTables = ReturnType<typeof mail>;

export function domainRoutes(t: MailTables, domainId: number): Map<string, RouteRow> {
  let m = t.routes.get(domainId);
  if (!m) {
    m = new Map();
    t.routes.set(domainId, m);
  }
  return m;
}

/**
 * A local part names one thing in a domain: a mailbox, an alias, a group or a forwarding route.
 * Returns what holds it now (skipping `except`), or null.
 */
export function localPartHolder(
  t: MailTables,
  domainId: number,
  local: string,
  except?: { kind: string; id: string | number },
): { kind: string; id: string | number } | null {
  const skip = (kind: string, id: string | number) => except !== undefined && except.kind === kind && except.id === id;
  for (const m of t.mailboxes.values())
    if (m.domain_id === domainId && m.local === local && !skip("mailbox", m.id)) return { kind: "mailbox", id: m.id };
  for (const a of t.aliases.values())
    if (a.domain_id === domainId && a.local_part === local && !skip("alias", a.id)) return { kind: "alias", id: a.id };
  for (const g of t.groups.values())
    if (g.domain_id === domainId && g.local_part === local && !skip("group", g.id)) return { kind: "group", id: g.id };
  if (t.routes.get(domainId)?.has(local) && !skip("route", local)) return { kind: "route", id: local };
  return null;
}

/** The conflict of a second claim on a local part; `hint` says how the caller may still take it. */
export function localPartTaken(
  domain: MailDomainRow,
  local: string,
  holder: { kind: string; id: string | number },
  hint = "",
): ApiError {
  return new ApiError("conflict", `${local}@${domain.name} is already used by ${holder.kind} ${holder.id}${hint}`);
}

export function deleteMailbox(t: MailTables, box: MailboxRow): void {
  for (const [id, p] of t.appPasswords) if (p.mailbox_id === box.id) t.appPasswords.delete(id);
  // An alias delivers to one mailbox; without it the alias has nowhere to go.
  for (const [id, a] of t.aliases) if (a.target_mailbox_id === box.id) t.aliases.delete(id);
  t.mailboxes.delete(box.id);
}

/** Everything of the domain except its published records, which the caller removes. */
export function deleteDomainObjects(t: MailTables, domain: MailDomainRow): void {
  for (const box of [...t.mailboxes.values()]) if (box.domain_id === domain.id) deleteMailbox(t, box);
  for (const [id, a] of t.aliases) if (a.domain_id === domain.id) t.aliases.delete(id);
  for (const [id, g] of t.groups) if (g.domain_id === domain.id) t.groups.delete(id);
  for (const [id, r] of t.rules) if (r.domain_id === domain.id) t.rules.delete(id);
  t.routes.delete(domain.id);
  t.domains.delete(domain.id);
}

export function destinationByAddr(t: MailTables, account: string, addr: string): DestinationRow | undefined {
  for (const d of t.destinations.values()) if (d.account === account && d.addr === addr) return d;
  return undefined;
}

/**
 * What the confirmation link sent to a destination does. In-process hook for tests (there is
 * no control endpoint yet): `confirmDestination(app.store, "acme", "ops@example.net")`.
 */
export function confirmDestination(store: Store, account: string, addr: string): DestinationRow {
  const d = destinationByAddr(mail(store), account, addr.trim().toLowerCase());
  if (!d) throw notFound("destination");
  d.confirmed_at ??= store.timestamp();
  return d;
}

/**
 * What the agent on a BYO server reports after it starts. In-process hook for tests:
 * `reportSelfCheck(app.store, "srv_...", { port25: true, ptr: "mx.example.net" })`.
 */
export function reportSelfCheck(
  store: Store,
  serverId: string,
  result: { port25: boolean; ptr: string | null; version?: string },
): MailServerRow {
  const s = mail(store).servers.get(serverId);
  if (!s) throw notFound("mail server");
  s.last_check = {
    at: store.timestamp(),
    ok: result.port25 && result.ptr === s.hostname,
    port25: result.port25,
    ptr: result.ptr,
    version: result.version ?? "1.0.0",
  };
  return s;
}
