// Which values a security rule accepts, by field, checked in Check so that a bad rule never
// reaches the API. A value is a comma-separated list.
import { isIP } from "node:net";

/** ISO 3166-1 alpha-2: the officially assigned codes (no EU, UK, XK or other reserved codes). */
const COUNTRY_CODES: ReadonlySet<string> = new Set(
  `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW
`
    .trim()
    .split(/\s+/),
);

export const RULE_FIELDS = ["country", "asn", "ip", "isp"] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

const MAX_ITEMS = 100;
const MAX_ISP_NAME = 200;
const AS_MAX = 4294967295;

function addressValue(addr: string): { bits: number; value: bigint } | null {
  if (addr.includes("%")) return null;
  const version = isIP(addr);
  if (version === 4)
    return { bits: 32, value: addr.split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n) };
  if (version !== 6) return null;
  let text = addr;
  const v4Tail = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(2).map(Number) as [number, number, number, number];
    text = `${v4Tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return { bits: 128, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

function ipProblem(item: string): string | null {
  if (addressValue(item)) return null;
  const slash = item.indexOf("/");
  const addr = slash < 0 ? null : addressValue(item.slice(0, slash));
  const lenText = slash < 0 ? "" : item.slice(slash + 1);
  if (!addr || !/^\d{1,3}$/.test(lenText)) return `"${item}" is not an IP address or prefix such as 192.0.2.0/24`;
  const len = Number(lenText);
  if (len > addr.bits) return `"${item}": prefix length must be at most ${addr.bits}`;
  const hostMask = (1n << BigInt(addr.bits - len)) - 1n;
  return (addr.value & hostMask) === 0n ? null : `"${item}": host bits must be zero`;
}

function itemProblem(field: RuleField, item: string): string | null {
  switch (field) {
    case "country":
      return /^[a-z]{2}$/i.test(item) && COUNTRY_CODES.has(item.toUpperCase())
        ? null
        : `"${item}" is not an ISO 3166-1 alpha-2 country code such as DE`;
    case "asn": {
      const m = /^(?:AS)?(\d{1,10})$/i.exec(item);
      const n = m ? Number(m[1]) : 0;
      return n >= 1 && n <= AS_MAX ? null : `"${item}" is not an AS number such as 64500 or AS64500`;
    }
    case "ip":
      return ipProblem(item);
    case "isp":
      return item.length <= MAX_ISP_NAME ? null : `ISP names must be at most ${MAX_ISP_NAME} characters`;
  }
}

/** Null when `value` suits `field`, else the reason. */
export function ruleValueProblem(field: RuleField, value: string): string | null {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) return "must be a comma-separated list without empty items";
  if (items.length > MAX_ITEMS) return `must have at most ${MAX_ITEMS} items`;
  for (const item of items) {
    const p = itemProblem(field, item);
    if (p) return p;
  }
  return null;
}
