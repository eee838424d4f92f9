// Name rules for zones and records.
import { invalid } from "../errors";
import { type Cidr } from "../util/ip";

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A list of host names, lower-cased without a trailing dot; a bad or repeated one is a validation
 * error on `hostnames[i]` (duplicates are refused rather than merged). `example` shows a good one.
 */
export function normalizeHostnames(list: readonly string[], example: string): string[] {
  const out = list.map((h, i) => {
    const n = normalizeZoneName(h);
    if (n === null) throw invalid(`hostnames[${i}]`, `must be a host name such as ${example}`);
    return n;
  });
  out.forEach((h, i) => {
    const first = out.indexOf(h);
    if (first !== i) throw invalid(`hostnames[${i}]`, `duplicate of hostnames[${first}] (${h})`);
  });
  return out;
}

/** Lowercases and strips one trailing dot; returns null unless it is a valid domain name. */
export function normalizeZoneName(input: string): string | null {
  const name = input.trim().toLowerCase().replace(/\.$/, "");
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split(".");
  // A zone is never a bare TLD here, so at least two labels.
  if (labels.length < 2) return null;
  if (!labels.every((l) => LABEL.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) return null;
  return name;
}

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

/** The fully qualified name (without trailing dot) of a record name in `zone`. */
export function fqdn(name: string, zone: string): string {
  return name === "@" ? zone : `${name}.${zone}`;
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

const EMAIL = /^[^\s@/]+@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

export function normalizeEmail(input: string): string | null {
  const e = input.trim().toLowerCase();
  return e.length <= 254 && EMAIL.test(e) ? e : null;
}
