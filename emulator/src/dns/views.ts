// What the API returns for each DNS object. Internal fields (owning account, TSIG secret, keys)
// never leave through anything but these functions.
import type { Env } from "../pipeline/route";
import type { GrantRow, RangeRow, RecordRow, ServiceRow, Store, ZoneRow } from "../model/store";

export function zoneService(store: Store, zone: ZoneRow): ServiceRow | undefined {
  return store.services.get(zone.service_id);
}

export function zoneView(store: Store, z: ZoneRow) {
  return {
    id: z.id,
    service_id: z.service_id,
    name: z.name,
    mode: z.mode,
    delegation: { ...z.delegation },
    status: z.status,
    enabled: z.enabled,
    serial: z.serial,
    dnssec: z.dnssec !== null,
    secondary_master: z.secondary_master,
    negative_ttl: z.negative_ttl,
    name_servers: [...(zoneService(store, z)?.name_servers ?? [])],
    transfer: transferView(z),
    verified_at: z.verified_at,
    created_at: z.created_at,
  };
}

export function transferView(z: ZoneRow) {
  return {
    allow: [...z.transfer.allow],
    notify: [...z.transfer.notify],
    tsig_name: z.transfer.tsig_name,
    tsig_configured: z.transfer.tsig_name !== null,
  };
}

export function recordView(r: RecordRow) {
  return {
    id: r.id,
    zone_id: r.zone_id,
    name: r.name,
    type: r.type,
    ttl: r.ttl,
    content: r.content,
    enabled: r.enabled,
    proxied: r.proxied,
    weight: r.weight,
    health_check: r.health_check,
    created_at: r.created_at,
  };
}

export function rangeView(r: RangeRow) {
  return {
    id: r.id,
    zone_id: r.zone_id,
    prefix: r.prefix,
    owner: r.owner,
    external_ref: r.external_ref,
    note: r.note,
    enabled: r.enabled,
    created_at: r.created_at,
  };
}

export function grantView(g: GrantRow) {
  return { email: g.email, role: g.role, created_at: g.created_at };
}

export function dnssecView(z: ZoneRow) {
  return {
    enabled: z.dnssec !== null,
    ds: z.dnssec?.ds ?? null,
    dnskey: z.dnssec?.dnskey ?? null,
    warning:
      z.dnssec === null
        ? ""
        : `publish the DS record at the registrar of ${z.name}; until then resolvers treat the zone as unsigned`,
  };
}

/** The caller's zone with this id, or not_found. */
export function ownZone(env: Env & { account: { name: string } }, id: number): ZoneRow {
  return env.store.owned(env.store.zones, id, env.account.name, "zone");
}
