// What a security rule's `value` may hold, by `field`. A value is a comma-separated list (a rule
// matches when the request's country, AS, address or ISP is `in` / `not_in` the list).
import { isIP, parseCidr } from "../util/ip";
import { COUNTRY_CODES } from "./countries";

export const RULE_FIELDS = ["country", "asn", "ip", "isp"] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

const RULE_VALUE_MAX_ITEMS = 100;
const RULE_VALUE_MAX_LENGTH = 4096;
const ISP_NAME_MAX_LENGTH = 200;
const AS_MAX = 4294967295;

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
    case "ip": {
      if (isIP(item)) return null;
      if (!item.includes("/")) return `"${item}" is not an IP address or prefix such as 192.0.2.0/24`;
      const c = parseCidr(item);
      return c.ok ? null : `"${item}": ${c.reason}`;
    }
    case "isp":
      return item.length <= ISP_NAME_MAX_LENGTH ? null : `ISP names must be at most ${ISP_NAME_MAX_LENGTH} characters`;
  }
}

/** Null when `value` suits `field`, else the reason (without the field name). */
export function ruleValueProblem(field: RuleField, value: string): string | null {
  if (value.trim() === "") return "must not be empty";
  if (value.length > RULE_VALUE_MAX_LENGTH) return `must be at most ${RULE_VALUE_MAX_LENGTH} characters`;
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) return "must be a comma-separated list without empty items";
  if (items.length > RULE_VALUE_MAX_ITEMS) return `must have at most ${RULE_VALUE_MAX_ITEMS} items`;
  for (const item of items) {
    const p = itemProblem(field, item);
    if (p) return p;
  }
  return null;
}
