// NS delegation checks: the explicit verify call and the daily re-check of active zones.
import type { PublicDns } from "../control/public-dns";
import type { Store, ZoneRow } from "../model/store";
import { zoneService } from "./views";

/** Points of presence that serve every enabled zone; also the keys of analytics `per_pop`. */
export const POPS = ["ams", "fra", "lhr", "cdg", "iad", "ord", "sjc", "gru", "sin", "nrt", "syd", "jnb"];

export interface VerifyResult {
  active: boolean;
  status: ZoneRow["status"];
  seen: string[];
  expected: string[];
  ns: Array<{ host: string; expected: boolean; seen: boolean }>;
  serving_pops: number;
}

/**
 * Compares what public DNS reports for the zone with the service's two name servers (as sets,
 * case-insensitively). A match activates a pending zone; a mismatch on an active zone sets
 * `delegation.lost_at` but the zone stays active and served, as the API describes.
 */
export function checkDelegation(store: Store, publicDns: PublicDns, zone: ZoneRow): VerifyResult {
  const expected = [...(zoneService(store, zone)?.name_servers ?? [])];
  const seen = [...(publicDns.get(zone.name)?.ns ?? [])];
  const seenSet = new Set(seen);
  const expectedSet = new Set(expected);
  const active =
    expected.length > 0 && seenSet.size === expectedSet.size && [...expectedSet].every((h) => seenSet.has(h));
  const now = store.timestamp();
  zone.delegation.checked_at = now;
  if (active) {
    if (zone.status === "pending") {
      zone.status = "active";
      zone.verified_at = now;
    }
    zone.delegation.lost_at = null;
  } else if (zone.status === "active" && zone.delegation.lost_at === null) {
    zone.delegation.lost_at = now;
  }
  const hosts = [...new Set([...expected, ...seen])];
  return {
    active,
    status: zone.status,
    seen,
    expected,
    ns: hosts.map((host) => ({ host, expected: expectedSet.has(host), seen: seenSet.has(host) })),
    serving_pops: zone.enabled ? POPS.length : 0,
  };
}

/** The "daily" re-check, run on demand through the control API. */
export function recheckActiveZones(store: Store, publicDns: PublicDns): number {
  let n = 0;
  for (const z of store.zones.values()) {
    if (z.status !== "active") continue;
    checkDelegation(store, publicDns, z);
    n++;
  }
  return n;
}
