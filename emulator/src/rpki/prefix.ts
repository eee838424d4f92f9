// ROA prefixes: one spelling per prefix, so that duplicates are found and clients can compare.
import { type Cidr, bits, cidrContains, formatCidr, parseAddress } from "../util/ip";

export type PrefixResult = { ok: true; cidr: Cidr; text: string } | { ok: false; reason: string };

/**
 * Parses `addr/len` and returns its canonical text (IPv6 lower-case and compressed). Host bits
 * must be zero: `10.0.0.1/8` is refused with the prefix it probably meant, rather than being
 * silently turned into `10.0.0.0/8`.
 */
export function parseRoaPrefix(input: string): PrefixResult {
  const s = input.trim();
  const slash = s.indexOf("/");
  const a = slash < 0 ? null : parseAddress(s.slice(0, slash));
  const lenText = slash < 0 ? "" : s.slice(slash + 1);
  if (!a || !/^\d{1,3}$/.test(lenText))
    return { ok: false, reason: "must be an IPv4 or IPv6 prefix such as 192.0.2.0/24 or 2001:db8::/32" };
  const len = Number(lenText);
  const max = bits(a.version);
  if (len > max) return { ok: false, reason: `prefix length must be at most ${max} for IPv${a.version}` };
  const hostMask = (1n << BigInt(max - len)) - 1n;
  const cidr: Cidr = { version: a.version, addr: a.addr & ~hostMask, len };
  if ((a.addr & hostMask) !== 0n)
    return { ok: false, reason: `host bits must be zero; did you mean ${formatCidr(cidr)}?` };
  return { ok: true, cidr, text: formatCidr(cidr) };
}

/** Parses a prefix the emulator itself stored (always canonical). */
export function storedCidr(text: string): Cidr {
  const r = parseRoaPrefix(text);
  if (!r.ok) throw new Error(`stored prefix ${text} is not canonical: ${r.reason}`);
  return r.cidr;
}

/** RFC 6811: a ROA matches a route when it covers it and allows its length and origin. */
export function roaMatches(
  roa: { asn: number; cidr: Cidr; maxLength: number },
  route: { asn: number; cidr: Cidr },
): boolean {
  // AS0 ROAs (RFC 7607) say "originated by nobody": they cover a route but never validate it.
  return (
    cidrContains(roa.cidr, route.cidr) && route.cidr.len <= roa.maxLength && roa.asn === route.asn && roa.asn !== 0
  );
}
