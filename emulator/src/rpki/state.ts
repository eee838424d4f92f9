// The hosted-RPKI tables. They hang off the emulator's Store through a WeakMap, so this area
// keeps its state beside the shared store without widening it; ids still come from the store's
// one counter and rows carry their account like every other table.
import { randomBytes } from "node:crypto";
import { invalid } from "../pipeline/errors";
import { areaState, type Store } from "../model/store";
import { formatCidr } from "../util/ip";
import { parseRoaPrefix } from "./prefix";

export const PARENT_RIRS = ["AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE"] as const;
export type ParentRir = (typeof PARENT_RIRS)[number];
export type CaState = "awaiting_parent" | "active";

export interface CaRow {
  id: number;
  account: string;
  handle: string;
  parent_rir: ParentRir;
  asns: number[];
  note: string | null;
  state: CaState;
  parent_handle: string | null;
  service_uri: string | null;
  /** The last parent response accepted, kept as given; never returned. */
  parent_response: string | null;
  /** Base64 of the CA's BPKI trust anchor, fixed at creation. */
  bpki_ta: string;
  synced_at: string | null;
  created_at: string;
}

export interface RoaRow {
  id: number;
  account: string;
  ca_id: number;
  asn: number;
  prefix: string;
  max_length: number;
  comment: string | null;
  created_at: string;
}

export const rpki = areaState(() => ({
  cas: new Map<number, CaRow>(),
  roas: new Map<number, RoaRow>(),
  /** asn -> the prefixes it announces, replacing the seeded table for that ASN. */
  announcements: new Map<number, string[]>(),
}));

/** The CA's ROAs in id order. */
export function caRoas(store: Store, caId: number): RoaRow[] {
  return [...rpki(store).roas.values()].filter((r) => r.ca_id === caId);
}

export function deleteCa(store: Store, ca: CaRow): void {
  const t = rpki(store);
  for (const r of caRoas(store, ca.id)) t.roas.delete(r.id);
  t.cas.delete(ca.id);
}

/**
 * A plausible BPKI trust anchor: the DER header of a ~780-byte certificate followed by random
 * bytes. Nothing parses it as a certificate; it only has to look like one and stay fixed.
 */
export function newBpkiTa(): string {
  return Buffer.concat([Buffer.from([0x30, 0x82, 0x03, 0x0c]), randomBytes(0x030c)]).toString("base64");
}

/**
 * The emulator's view of the global routing table. Unless a test replaced it, AS `n` (with
 * `a = n mod 65536`, `hi = a >> 8`, `lo = a & 255`) announces `10.<hi>.<lo>.0/24`,
 * `2001:db8:<a hex>::/48` and the more specific `2001:db8:<a hex>:100::/56`.
 */
function seededAnnouncements(asn: number): string[] {
  const a = asn % 65536;
  const v6 = (BigInt(0x20010db8) << 96n) | (BigInt(a) << 80n);
  return [
    `10.${a >> 8}.${a & 255}.0/24`,
    formatCidr({ version: 6, addr: v6, len: 48 }),
    formatCidr({ version: 6, addr: v6 | (0x100n << 64n), len: 56 }),
  ];
}

export function announcedBy(store: Store, asn: number): string[] {
  return rpki(store).announcements.get(asn) ?? seededAnnouncements(asn);
}

/**
 * Replaces what `asn` announces (null restores the seeded table). In-process hook for tests:
 * `setAnnouncements(app.store, 64500, ["192.0.2.0/24"])`.
 */
export function setAnnouncements(store: Store, asn: number, prefixes: readonly string[] | null): string[] {
  if (!Number.isInteger(asn) || asn < 1 || asn > 4294967295) throw invalid("asn", "must be between 1 and 4294967295");
  if (prefixes === null) {
    rpki(store).announcements.delete(asn);
    return seededAnnouncements(asn);
  }
  const canonical = prefixes.map((p, i) => {
    const r = parseRoaPrefix(p);
    if (!r.ok) throw invalid(`prefixes[${i}]`, r.reason);
    return r.text;
  });
  rpki(store).announcements.set(asn, canonical);
  return canonical;
}
