// The DNS records a mail domain needs (MX, SPF, DKIM, DMARC, the MTA-STS policy and TLS
// reporting), and how they are published into the domain's hosted zone, kept up to date on a
// DMARC change, checked (BYO) and removed again.
import { storedContent, insertRecord } from "../dns/records";
import type { Store, ZoneRow } from "../model/store";
import { MAIL_ZONE, type MailDomainRow, type MailServerRow, type PublishedRecord, type RecordKind } from "./state";

const MAIL_RECORD_TTL = 3600;

/** `name` relative to `zone` (`@` for the apex). The caller has checked that it is inside. */
export function relativeName(name: string, zone: string): string {
  return name === zone ? "@" : name.slice(0, -(zone.length + 1));
}

export function isInside(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

const under = (prefix: string, rel: string) => (rel === "@" ? prefix : `${prefix}.${rel}`);

type Wanted = Pick<PublishedRecord, "kind" | "name" | "type" | "content">;

/** The records the domain needs, in publishing order. */
function wantedRecords(domain: MailDomainRow, server: MailServerRow | null): Wanted[] {
  const rel = relativeName(domain.name, domain.zone_name);
  const rec = (kind: RecordKind, name: string, type: Wanted["type"], content: string): Wanted => ({
    kind,
    name,
    type,
    content,
  });
  const mx = server
    ? [rec("mx", rel, "MX", `10 ${server.hostname}`)]
    : [rec("mx", rel, "MX", `10 mx1.${MAIL_ZONE}`), rec("mx", rel, "MX", `20 mx2.${MAIL_ZONE}`)];
  const spf = server
    ? `v=spf1 ip4:${server.ip4}${server.ip6 ? ` ip6:${server.ip6}` : ""} -all`
    : `v=spf1 include:_spf.${MAIL_ZONE} -all`;
  return [
    ...mx,
    rec("spf", rel, "TXT", spf),
    rec(
      "dkim",
      under(`${domain.dkim_selector}._domainkey`, rel),
      "TXT",
      `v=DKIM1; k=ed25519; p=${domain.dkim_public_key}`,
    ),
    rec("dmarc", under("_dmarc", rel), "TXT", dmarcContent(domain)),
    rec("tls_policy", under("_mta-sts", rel), "TXT", `v=STSv1; id=${domain.mta_sts_id}`),
    rec("tls_policy", under("mta-sts", rel), "CNAME", `mta-sts.${MAIL_ZONE}`),
    rec("tls_rpt", under("_smtp._tls", rel), "TXT", `v=TLSRPTv1; rua=mailto:tls-reports+${domain.id}@${MAIL_ZONE}`),
  ];
}

function dmarcContent(domain: MailDomainRow): string {
  return `v=DMARC1; p=${domain.dmarc_policy}; rua=mailto:dmarc-reports+${domain.id}@${MAIL_ZONE}`;
}

/**
 * Publishes every wanted record into the zone: a record the domain published before and that
 * is still in the zone is put back to the wanted content; a missing one is added again.
 * Returns whether the zone changed.
 */
export function publish(store: Store, domain: MailDomainRow, zone: ZoneRow, server: MailServerRow | null): boolean {
  const zoneRecords = store.zoneRecords(zone.id);
  const previous = domain.records;
  let changed = false;
  domain.records = wantedRecords(domain, server).map((w, i) => {
    const prior = previous[i];
    const existing = prior?.record_id != null ? zoneRecords.get(prior.record_id) : undefined;
    if (existing && existing.name === w.name && existing.type === w.type) {
      if (existing.content !== w.content || existing.ttl !== MAIL_RECORD_TTL || !existing.enabled) {
        Object.assign(existing, { content: w.content, ttl: MAIL_RECORD_TTL, enabled: true });
        changed = true;
      }
      return { ...w, ttl: MAIL_RECORD_TTL, record_id: existing.id, check: prior?.check ?? null };
    }
    const row = insertRecord(store, zone, { name: w.name, type: w.type, ttl: MAIL_RECORD_TTL, content: w.content });
    changed = true;
    return { ...w, ttl: MAIL_RECORD_TTL, record_id: row.id, check: null };
  });
  if (changed) store.bumpSerial(zone);
  return changed;
}

/** The wanted records of a domain with nothing published (no hosted zone). */
export function unpublished(domain: MailDomainRow, server: MailServerRow | null): PublishedRecord[] {
  return wantedRecords(domain, server).map((w) => ({ ...w, ttl: MAIL_RECORD_TTL, record_id: null, check: null }));
}

/** Removes exactly the records this domain published that are still in the zone. */
export function unpublish(store: Store, domain: MailDomainRow): void {
  if (domain.zone_id === null) return;
  const zone = store.zones.get(domain.zone_id);
  if (!zone) return;
  const zoneRecords = store.zoneRecords(zone.id);
  let removed = false;
  for (const r of domain.records) if (r.record_id !== null && zoneRecords.delete(r.record_id)) removed = true;
  if (removed) store.bumpSerial(zone);
}

/** Points the published DMARC record at the domain's current policy. */
export function updateDmarc(store: Store, domain: MailDomainRow): void {
  const content = dmarcContent(domain);
  for (const r of domain.records) {
    if (r.kind !== "dmarc") continue;
    r.content = content;
    if (r.record_id === null || domain.zone_id === null) continue;
    const zone = store.zones.get(domain.zone_id);
    const row = zone ? store.zoneRecords(zone.id).get(r.record_id) : undefined;
    if (zone && row && row.content !== content) {
      row.content = content;
      store.bumpSerial(zone);
    }
  }
}

/**
 * `published` / `missing` (deleted from the zone) / `modified` (edited there) /
 * `not_published` (no hosted zone) for a domain on the service's nodes; the last check's result
 * (`unchecked` before the first) for a BYO domain.
 */
export function recordStatus(store: Store, domain: MailDomainRow, r: PublishedRecord): string {
  if (domain.server_id !== null) return r.check ?? "unchecked";
  if (r.record_id === null || domain.zone_id === null) return "not_published";
  const row = store.zoneRecords(domain.zone_id).get(r.record_id);
  if (!row) return "missing";
  return row.content === r.content && row.type === r.type && row.name === r.name && row.enabled
    ? "published"
    : "modified";
}

/**
 * What public DNS shows for each record, as far as the emulator knows it: the records of an
 * active, enabled zone of this emulator. A zone hosted elsewhere shows nothing (the public-DNS
 * view holds only NS and CNAME answers).
 */
export function checkRecords(store: Store, domain: MailDomainRow): void {
  const zone = domain.zone_id !== null ? store.zones.get(domain.zone_id) : undefined;
  const served =
    zone && zone.status === "active" && zone.enabled
      ? [...store.zoneRecords(zone.id).values()].filter((r) => r.enabled)
      : [];
  for (const r of domain.records) {
    const sameName = served.filter((s) => s.name === r.name && s.type === r.type);
    if (sameName.length === 0) r.check = "missing";
    else
      r.check = sameName.some((s) => storedContent(s.type, s.content) === storedContent(r.type, r.content))
        ? "ok"
        : "mismatch";
  }
  domain.checked_at = store.timestamp();
}
