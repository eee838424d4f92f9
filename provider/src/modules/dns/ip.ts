// Address and prefix parsing for the DNS inputs that hold IPs (transfer lists, reverse-zone
// ranges). Checked here so that a typo fails in Check, before any request; prefixes are written
// back in the canonical form the API stores (IPv6 lower-case and compressed), so that a program
// writing `2001:DB8:0:1::/64` shows no change against what the API returns.

interface Cidr {
  version: 4 | 6;
  addr: bigint;
  len: number;
}

const V4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function parseIPv4(s: string): bigint | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!V4_OCTET.test(p)) return null;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

function parseIPv6(s: string): bigint | null {
  // A zone index (`fe80::1%eth0`) means nothing to a DNS server elsewhere.
  if (s.includes("%")) return null;
  let head = s;
  let tailV4: bigint | null = null;
  const lastColon = s.lastIndexOf(":");
  if (lastColon >= 0 && s.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIPv4(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const left = halves[0] === "" ? [] : (halves[0] ?? "").split(":");
  const right = halves.length === 2 && halves[1] !== "" ? (halves[1] ?? "").split(":") : [];
  if (![...left, ...right].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  let groups = left;
  if (halves.length === 2) {
    const fill = 8 - left.length - right.length;
    if (fill < 1) return null;
    groups = [...left, ...Array<string>(fill).fill("0"), ...right];
  }
  if (groups.length !== 8) return null;
  let v = 0n;
  for (const g of groups) v = (v << 16n) | BigInt(parseInt(g, 16));
  if (tailV4 !== null) v = (v & ~0xffffffffn) | tailV4;
  return v;
}

function parseAddress(s: string): { version: 4 | 6; addr: bigint } | null {
  const v4 = parseIPv4(s);
  if (v4 !== null) return { version: 4, addr: v4 };
  const v6 = parseIPv6(s);
  return v6 === null ? null : { version: 6, addr: v6 };
}

const bits = (version: 4 | 6) => (version === 4 ? 32 : 128);

export function isIpAddress(s: string): boolean {
  return parseAddress(s) !== null;
}

/** A prefix `addr/len` with its host bits zero, or the reason it is not one. */
export function parsePrefix(s: string): { ok: true; cidr: Cidr } | { ok: false; reason: string } {
  const slash = s.indexOf("/");
  const a = slash < 0 ? null : parseAddress(s.slice(0, slash));
  const lenText = slash < 0 ? "" : s.slice(slash + 1);
  if (!a || !/^\d{1,3}$/.test(lenText))
    return { ok: false, reason: `must be a prefix such as 192.0.2.0/24 or 2001:db8::/48, got ${JSON.stringify(s)}` };
  const len = Number(lenText);
  if (len > bits(a.version))
    return { ok: false, reason: `prefix length must be at most ${bits(a.version)}, got ${JSON.stringify(s)}` };
  const hostMask = (1n << BigInt(bits(a.version) - len)) - 1n;
  if ((a.addr & hostMask) !== 0n) return { ok: false, reason: `host bits must be zero, got ${JSON.stringify(s)}` };
  return { ok: true, cidr: { version: a.version, addr: a.addr, len } };
}

export function isPrefix(s: string): boolean {
  return parsePrefix(s).ok;
}

/** The canonical spelling: dotted quad for IPv4, RFC 5952 (lower case, longest zero run compressed) for IPv6. */
export function formatPrefix(c: Cidr): string {
  if (c.version === 4) {
    const octets: number[] = [];
    for (let i = 3; i >= 0; i--) octets.push(Number((c.addr >> BigInt(i * 8)) & 0xffn));
    return `${octets.join(".")}/${c.len}`;
  }
  const g: string[] = [];
  for (let i = 7; i >= 0; i--) g.push(((c.addr >> BigInt(i * 16)) & 0xffffn).toString(16));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === "0") j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const text = best < 0 ? g.join(":") : `${g.slice(0, best).join(":")}::${g.slice(best + bestLen).join(":")}`;
  return `${text}/${c.len}`;
}

/** True when two prefixes share an address (one contains the other). */
export function prefixesOverlap(a: string, b: string): boolean {
  const pa = parsePrefix(a);
  const pb = parsePrefix(b);
  if (!pa.ok || !pb.ok || pa.cidr.version !== pb.cidr.version) return false;
  const len = Math.min(pa.cidr.len, pb.cidr.len);
  const shift = BigInt(bits(pa.cidr.version) - len);
  return pa.cidr.addr >> shift === pb.cidr.addr >> shift;
}
