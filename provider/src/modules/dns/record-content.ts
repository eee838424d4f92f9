// The canonical spelling of DNS record data, shared by nsp:dns:Record and nsp:dns:ZoneRecords so
// that what a program writes, what the API returns and what a zone file carries compare equal
// when they mean the same record, and differ when they do not.
import { formatPrefix, parsePrefix } from "./ip";

/** Types whose content ends in a host name: letter case and a trailing dot do not matter there. */
export const NAME_TARGET_TYPES: ReadonlySet<string> = new Set(["CNAME", "NS", "PTR", "ALIAS", "MX", "SRV"]);

// A word runs to the next space outside double quotes, so `alpn="h2 h3"` stays one word.
export const WORD = /(?:"(?:[^"\\]|\\.)*"?|[^\s"])+/g;

function isQuoted(s: string): boolean {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"');
}

/** `"a" "b"` -> `ab`, undoing `\"` and `\\`. */
export function unquoteTxt(s: string): string {
  const parts = [...s.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1"));
  return parts.length > 0 ? parts.join("") : s;
}

function quoted(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A host name without case or the trailing dot; the root name `.` (a null MX) keeps its dot. */
function canonicalHost(host: string): string {
  return host.length > 1 ? host.toLowerCase().replace(/\.$/, "") : host;
}

/** A preference, priority, weight, port or flag without leading zeros. */
function canonicalNumber(word: string): string {
  return /^\d+$/.test(word) ? String(Number(word)) : word;
}

/**
 * The one spelling of a record's data that every source agrees on: TXT unquoted, IPv6 in RFC 5952
 * form, host names lower case without the trailing dot, numbers without leading zeros, single
 * spaces between words, CAA tags lower case with the value quoted, HTTPS/SVCB parameter keys lower
 * case with presentation-only quotes dropped.
 */
export function canonicalContent(type: string, content: string): string {
  if (type === "TXT") return isQuoted(content.trim()) ? unquoteTxt(content.trim()) : content;
  if (type === "AAAA") {
    const p = parsePrefix(`${content.trim()}/128`);
    return p.ok ? formatPrefix(p.cidr).replace(/\/128$/, "") : content.trim();
  }
  const words = content.match(WORD) ?? [];
  const last = words.length - 1;
  if (NAME_TARGET_TYPES.has(type))
    return words.map((w, i) => (i === last ? canonicalHost(w) : canonicalNumber(w))).join(" ");
  if (type === "CAA" && words.length >= 3)
    return `${canonicalNumber(words[0]!)} ${words[1]!.toLowerCase()} ${quoted(unquoteTxt(words.slice(2).join(" ")))}`;
  if ((type === "HTTPS" || type === "SVCB") && words.length >= 2) {
    const params = words.slice(2).map((p) => {
      const eq = p.indexOf("=");
      if (eq < 0) return p.toLowerCase();
      const value = p.slice(eq + 1);
      const bare = isQuoted(value) && !/[\s\\]/.test(value.slice(1, -1)) ? value.slice(1, -1) : value;
      return `${p.slice(0, eq).toLowerCase()}=${bare}`;
    });
    return [canonicalNumber(words[0]!), canonicalHost(words[1]!), ...params].join(" ");
  }
  return words.join(" ");
}

/** Whether two spellings of a `type` record's data mean the same record. */
export function sameContent(type: string, a: string, b: string): boolean {
  return a === b || canonicalContent(type, a) === canonicalContent(type, b);
}
