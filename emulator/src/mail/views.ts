// What the API returns for each mail object. Secrets (app passwords, the install token) and
// internal fields never leave through anything but these functions, except in the one answer
// that creates them.
import type { Store } from "../model/store";
import { fqdn } from "../model/names";
import { recordStatus } from "./records";
import {
  type AliasRow,
  type AppPasswordRow,
  type DestinationRow,
  type DomainRuleRow,
  type GroupRow,
  type MailDomainRow,
  type MailServerRow,
  type MailboxRow,
  type RouteRow,
  destinationByAddr,
  mail,
} from "./state";

export function domainRecordsView(store: Store, d: MailDomainRow) {
  return d.records.map((r) => ({
    kind: r.kind,
    name: fqdn(r.name, d.zone_name),
    type: r.type,
    content: r.content,
    ttl: r.ttl,
    record_id: r.record_id,
    status: recordStatus(store, d, r),
  }));
}

export function domainView(store: Store, d: MailDomainRow) {
  return {
    id: d.id,
    name: d.name,
    zone_id: d.zone_id,
    zone_name: d.zone_name,
    server_id: d.server_id,
    byo: d.server_id !== null,
    mode: d.mode,
    enabled: d.enabled,
    catch_all: d.catch_all,
    default_quota_bytes: d.default_quota_bytes,
    dmarc_policy: d.dmarc_policy,
    backup_enabled: d.backup_enabled,
    dkim_selector: d.dkim_selector,
    records: domainRecordsView(store, d),
    checked_at: d.checked_at,
    created_at: d.created_at,
  };
}

export function serverView(store: Store, s: MailServerRow) {
  const domains = store.list(mail(store).domains, s.account).filter((d) => d.server_id === s.id);
  return {
    id: s.id,
    name: s.name,
    ip4: s.ip4,
    ip6: s.ip6,
    hostname: s.hostname,
    status: s.last_check === null ? "waiting" : s.last_check.ok ? "online" : "degraded",
    last_check: s.last_check === null ? null : { ...s.last_check },
    domain_ids: domains.map((d) => d.id),
    token_issued_at: s.token_issued_at,
    created_at: s.created_at,
  };
}

export function appPasswordView(p: AppPasswordRow) {
  return { id: p.id, mailbox_id: p.mailbox_id, label: p.label, created_at: p.created_at, last_used_at: null };
}

/** `local@domain` for a local part of one of the account's mail domains. */
function addressAt(store: Store, local: string, domainId: number): string {
  return `${local}@${mail(store).domains.get(domainId)?.name ?? ""}`;
}

export function mailboxView(store: Store, m: MailboxRow) {
  const t = mail(store);
  return {
    id: m.id,
    domain_id: m.domain_id,
    local: m.local,
    address: addressAt(store, m.local, m.domain_id),
    display: m.display,
    quota_bytes: m.quota_bytes,
    used_bytes: 0,
    state: m.state,
    user_email: m.user_email,
    send_limit_hour: m.send_limit_hour,
    shared_with: [...m.shared_with],
    collab: m.collab,
    app_passwords: [...t.appPasswords.values()].filter((p) => p.mailbox_id === m.id).map(appPasswordView),
    created_at: m.created_at,
  };
}

export function aliasView(store: Store, a: AliasRow) {
  const t = mail(store);
  const target = t.mailboxes.get(a.target_mailbox_id);
  const targetDomain = target ? t.domains.get(target.domain_id) : undefined;
  return {
    id: a.id,
    domain_id: a.domain_id,
    local_part: a.local_part,
    address: addressAt(store, a.local_part, a.domain_id),
    target_mailbox_id: a.target_mailbox_id,
    target_address: target && targetDomain ? `${target.local}@${targetDomain.name}` : null,
    enabled: a.enabled,
    created_at: a.created_at,
  };
}

export function groupView(store: Store, g: GroupRow) {
  return {
    id: g.id,
    domain_id: g.domain_id,
    local_part: g.local_part,
    address: addressAt(store, g.local_part, g.domain_id),
    name: g.name,
    members: g.members.map((m) => ({ ...m })),
    allow_external_senders: g.allow_external_senders,
    members_can_send: g.members_can_send,
    enabled: g.enabled,
    archive: g.archive,
    posting: g.posting,
    reply_to: g.reply_to,
    subject_tag: g.subject_tag,
    created_at: g.created_at,
  };
}

export function ruleView(r: DomainRuleRow) {
  return {
    id: r.id,
    domain_id: r.domain_id,
    kind: r.kind,
    pattern: r.pattern,
    target: r.target,
    enabled: r.enabled,
    created_at: r.created_at,
  };
}

export function routeView(store: Store, r: RouteRow) {
  const dest = destinationByAddr(mail(store), r.account, r.dest);
  return {
    domain_id: r.domain_id,
    local_part: r.local_part,
    address: addressAt(store, r.local_part, r.domain_id),
    dest: r.dest,
    dest_confirmed: dest?.confirmed_at != null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function destinationView(d: DestinationRow) {
  return {
    id: d.id,
    addr: d.addr,
    confirmed: d.confirmed_at !== null,
    confirmed_at: d.confirmed_at,
    created_at: d.created_at,
  };
}
