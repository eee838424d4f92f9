// ROA prefixes, checked and written in one canonical form before any request: IPv6 lower-case
// and compressed (RFC 5952) so that the program's spelling and the API's compare equal, and host
// bits zero so that `10.0.0.1/8` cannot pass for `10.0.0.0/8`.
import { isIPv4, isIPv6 } from "node:net";

export interface Prefix {
  version: 4 | 6;
  length: number;
  /** The canonical text, e.g. `2001:db8::/32`. */
  text: string;
}

export type PrefixResult = { ok: true; prefix: Prefix } | { ok: false; reason: string };

function v4ToBigint(s: string): bigint {
  return s.split(".").reduce((v, o) => (v << 8n) | BigInt(Number(o)), 0n);
}

function v6ToBigint(s: string): bigint {
  let text = s;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = v4ToBigint(tail);
    text = `${s.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const groups =
    rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((v, g) => (v << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function formatV4(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join(".");
}

function formatV6(v: bigint): string {
  const g = [7n, 6n, 5n, 4n, 3n, 2n, 1n, 0n].map((i) => ((v >> (i * 16n)) & 0xffffn).toString(16));
  // RFC 5952: compress the longest run of two or more zero groups, the first one on a tie.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === "0") j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
  }
  return best < 0 ? g.join(":") : `${g.slice(0, best).join(":")}::${g.slice(best + bestLen).join(":")}`;
}

export function parsePrefix(input: string): PrefixResult {
  const s = input.trim();
  const slash = s.indexOf("/");
  const addr = slash < 0 ? s : s.slice(0, slash);
  const lenText = slash < 0 ? "" : s.slice(slash + 1);
  const version = isIPv4(addr) ? 4 : isIPv6(addr) && !addr.includes("%") ? 6 : 0;
  if (version === 0 || !/^\d{1,3}$/.test(lenText))
    return {
      ok: false,
      reason: `must be an IPv4 or IPv6 prefix such as 192.0.2.0/24 or 2001:db8::/32, got ${JSON.stringify(input)}`,
    };
  const bits = version === 4 ? 32 : 128;
  const length = Number(lenText);
  if (length > bits)
    return { ok: false, reason: `the prefix length of an IPv${version} prefix must be at most ${bits}, got ${length}` };
  const value = version === 4 ? v4ToBigint(addr) : v6ToBigint(addr);
  const hostMask = (1n << BigInt(bits - length)) - 1n;
  const masked = value & ~hostMask;
  const text = `${version === 4 ? formatV4(masked) : formatV6(masked)}/${length}`;
  if (masked !== value)
    return { ok: false, reason: `${JSON.stringify(input)} has host bits set; did you mean ${text}?` };
  return { ok: true, prefix: { version, length, text } };
}

/** The longest prefix length of the family: the ceiling of a ROA's maxLength. */
export function familyBits(prefix: Prefix): number {
  return prefix.version === 4 ? 32 : 128;
}
