// Address arithmetic for reverse-zone ranges and the validation of IP fields. Addresses are
// held as bigints so that IPv4 and IPv6 share one code path.

export type IpVersion = 4 | 6;

export interface Cidr {
  version: IpVersion;
  addr: bigint;
  len: number;
}

const V4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function parseIPv4(s: string): bigint | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!V4_OCTET.test(p)) return null;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

export function parseIPv6(s: string): bigint | null {
  if (s.includes("%")) return null; // zone ids are meaningless in DNS data
  let head = s;
  let tailV4: bigint | null = null;
  const lastColon = s.lastIndexOf(":");
  if (lastColon >= 0 && s.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIPv4(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const dbl = head.split("::");
  if (dbl.length > 2) return null;
  const hex = /^[0-9a-fA-F]{1,4}$/;
  const left = dbl[0] === "" ? [] : (dbl[0] ?? "").split(":");
  const right = dbl.length === 2 ? (dbl[1] === "" ? [] : (dbl[1] ?? "").split(":")) : [];
  if (![...left, ...right].every((g) => hex.test(g))) return null;
  let groups: string[];
  if (dbl.length === 2) {
    const fill = 8 - left.length - right.length;
    if (fill < 1) return null;
    groups = [...left, ...Array<string>(fill).fill("0"), ...right];
  } else {
    groups = left;
  }
  if (groups.length !== 8) return null;
  let v = 0n;
  for (const g of groups) v = (v << 16n) | BigInt(parseInt(g, 16));
  if (tailV4 !== null) v = (v & ~0xffffffffn) | tailV4;
  return v;
}

export function isIPv4(s: string): boolean {
  return parseIPv4(s) !== null;
}

export function isIPv6(s: string): boolean {
  return parseIPv6(s) !== null;
}

export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

export function bits(version: IpVersion): number {
  return version === 4 ? 32 : 128;
}

export function parseAddress(s: string): { version: IpVersion; addr: bigint } | null {
  const v4 = parseIPv4(s);
  if (v4 !== null) return { version: 4, addr: v4 };
  const v6 = parseIPv6(s);
  if (v6 !== null) return { version: 6, addr: v6 };
  return null;
}

export type CidrResult = { ok: true; cidr: Cidr } | { ok: false; reason: string };

/** Parses `addr/len`; host bits must be zero so that one range has one spelling. */
export function parseCidr(s: string): CidrResult {
  const slash = s.indexOf("/");
  if (slash < 0) return { ok: false, reason: "must be a prefix such as 192.0.2.0/24" };
  const a = parseAddress(s.slice(0, slash));
  const lenText = s.slice(slash + 1);
  if (!a || !/^\d{1,3}$/.test(lenText)) return { ok: false, reason: "must be a prefix such as 192.0.2.0/24" };
  const len = Number(lenText);
  if (len > bits(a.version)) return { ok: false, reason: `prefix length must be at most ${bits(a.version)}` };
  const cidr: Cidr = { version: a.version, addr: a.addr, len };
  if ((a.addr & hostMask(cidr)) !== 0n) return { ok: false, reason: "host bits must be zero" };
  return { ok: true, cidr };
}

function hostMask(c: Cidr): bigint {
  return (1n << BigInt(bits(c.version) - c.len)) - 1n;
}

/** True when `inner` lies entirely inside `outer`. */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  if (outer.version !== inner.version || inner.len < outer.len) return false;
  const shift = BigInt(bits(outer.version) - outer.len);
  return inner.addr >> shift === outer.addr >> shift;
}

export function cidrOverlaps(a: Cidr, b: Cidr): boolean {
  return cidrContains(a, b) || cidrContains(b, a);
}

export function formatCidr(c: Cidr): string {
  if (c.version === 4) {
    const o: number[] = [];
    for (let i = 3; i >= 0; i--) o.push(Number((c.addr >> BigInt(i * 8)) & 0xffn));
    return `${o.join(".")}/${c.len}`;
  }
  const g: string[] = [];
  for (let i = 7; i >= 0; i--) g.push(((c.addr >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
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
