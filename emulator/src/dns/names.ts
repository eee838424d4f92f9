// The name rules of DNS alone: record names relative to their zone, and reverse zones.
import type { Cidr } from "../util/ip";

const RECORD_LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A record name relative to its zone: `@`, or labels of letters, digits, hyphens and
 * underscores, optionally starting with `*`. Stored lowercase; returns null when invalid.
 */
export function normalizeRecordName(input: string): string | null {
  const name = input.toLowerCase();
  if (name === "@" || name === "*") return name;
  if (name.length === 0 || name.length > 253 || name.endsWith(".")) return null;
  const labels = name.split(".");
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as string;
    if (i === 0 && l === "*") continue;
    if (!RECORD_LABEL.test(l)) return null;
  }
  return name;
}

/**
 * The address block a reverse zone covers: `2.0.192.in-addr.arpa` is 192.0.2.0/24,
 * `8.b.d.0.1.0.0.2.ip6.arpa` is 2001:db8::/32. Null for any other zone.
 */
export function reverseZonePrefix(zone: string): Cidr | null {
  if (zone.endsWith(".in-addr.arpa")) {
    const labels = zone.slice(0, -".in-addr.arpa".length).split(".");
    if (labels.length < 1 || labels.length > 4) return null;
    let addr = 0n;
    for (const l of [...labels].reverse()) {
      if (!/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(l)) return null;
      addr = (addr << 8n) | BigInt(Number(l));
    }
    addr <<= BigInt(8 * (4 - labels.length));
    return { version: 4, addr, len: 8 * labels.length };
  }
  if (zone.endsWith(".ip6.arpa")) {
    const labels = zone.slice(0, -".ip6.arpa".length).split(".");
    if (labels.length < 1 || labels.length > 32) return null;
    let addr = 0n;
    for (const l of [...labels].reverse()) {
      if (!/^[0-9a-f]$/.test(l)) return null;
      addr = (addr << 4n) | BigInt(parseInt(l, 16));
    }
    addr <<= BigInt(4 * (32 - labels.length));
    return { version: 6, addr, len: 4 * labels.length };
  }
  return null;
}
