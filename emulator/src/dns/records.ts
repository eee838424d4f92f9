// Record content rules shared by the records API and the zone-file import, so a record that
// could not be created one way cannot sneak in the other.
import { formatCidr, isIPv4, isIPv6, parseCidr } from "../util/ip";
import type { RecordRow, RecordType, Store, ZoneRow } from "../model/store";

export const PROXIABLE_TYPES: ReadonlySet<RecordType> = new Set(["A", "AAAA", "CNAME"]);

/** Types whose content ends in a host name (a trailing dot there is cosmetic). */
export const NAME_TARGET_TYPES: ReadonlySet<RecordType> = new Set(["CNAME", "NS", "PTR", "ALIAS", "MX", "SRV"]);

const MAX_CONTENT_LENGTH = 4096;

/** Null when valid, else the reason (without the field name). */
export function contentProblem(type: RecordType, content: string): string | null {
  if (content.trim() === "") return "must not be empty";
  if (content.length > MAX_CONTENT_LENGTH) return `must be at most ${MAX_CONTENT_LENGTH} characters`;
  if (type === "A" && !isIPv4(content)) return "must be an IPv4 address for an A record";
  if (type === "AAAA" && !isIPv6(content)) return "must be an IPv6 address for an AAAA record";
  return null;
}

// Only the shape is documented, not a list of schemes, so any URL-style scheme is accepted.
const HEALTH_CHECK_RE = /^([a-z][a-z0-9+.-]*):(\d{1,5})(\/\S*)?$/;

export function healthCheckProblem(v: string): string | null {
  const m = HEALTH_CHECK_RE.exec(v);
  if (!m) return "must look like <scheme>:<port><path>, e.g. https:443/health";
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return "port must be between 1 and 65535";
  return null;
}

// A word runs to the next space outside double quotes, so `alpn="h2 h3"` stays one word.
const WORD = /(?:"(?:[^"\\]|\\.)*"?|[^\s"])+/g;

/** A host name as a DNS server keeps it: lower case, without the trailing dot (the root `.` stays). */
function storedHost(host: string): string {
  return host.length > 1 ? host.toLowerCase().replace(/\.$/, "") : host;
}

/** A leading number of the data (a preference, priority, flag) without leading zeros. */
function storedNumber(word: string): string {
  return /^\d+$/.test(word) ? String(Number(word)) : word;
}

/**
 * Content in the one form the API stores and returns, whatever spelling the request used (the
 * documents do not say; a DNS server keeps records in such a canonical form): IPv6 compressed and
 * lower case, host names lower case without the trailing dot, numbers without leading zeros,
 * single spaces between words, TXT as its unquoted data, CAA values quoted. Valid content only.
 * Two contents are the same record's data when their stored forms are equal.
 */
export function storedContent(type: RecordType, content: string): string {
  const c = content.trim();
  if (type === "A") return c;
  if (type === "AAAA") {
    const p = parseCidr(`${c}/128`);
    return p.ok ? formatCidr(p.cidr).replace(/\/128$/, "") : c.toLowerCase();
  }
  if (type === "TXT") return c.length >= 2 && c.startsWith('"') && c.endsWith('"') ? unquoteTxt(c) : content;
  const words = c.match(WORD) ?? [];
  const last = words.length - 1;
  if (NAME_TARGET_TYPES.has(type)) {
    // MX is `<preference> <host>`, SRV `<priority> <weight> <port> <target>`.
    return words.map((w, i) => (i === last ? storedHost(w) : storedNumber(w))).join(" ");
  }
  if (type === "CAA" && words.length >= 3) {
    // `<flags> <tag> "<value>"`: the tag is case-insensitive, the value is always quoted.
    const value = unquoteTxt(words.slice(2).join(" "));
    return `${storedNumber(words[0]!)} ${words[1]!.toLowerCase()} "${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  }
  if ((type === "HTTPS" || type === "SVCB") && words.length >= 2) {
    // `<priority> <target> <key>=<value> ...`: key names are case-insensitive, quotes around a
    // value without spaces are only presentation.
    const params = words.slice(2).map((p) => {
      const eq = p.indexOf("=");
      if (eq < 0) return p.toLowerCase();
      const value = p.slice(eq + 1);
      const bare =
        value.length >= 2 && value.startsWith('"') && value.endsWith('"') && !/[\s\\]/.test(value.slice(1, -1))
          ? value.slice(1, -1)
          : value;
      return `${p.slice(0, eq).toLowerCase()}=${bare}`;
    });
    return [storedNumber(words[0]!), storedHost(words[1]!), ...params].join(" ");
  }
  return words.join(" ");
}

/** `"a" "b"` -> `ab`, undoing \" and \\ escapes. */
export function unquoteTxt(s: string): string {
  const parts: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  let m: RegExpExecArray | null;
  let found = false;
  while ((m = re.exec(s))) {
    found = true;
    parts.push((m[1] ?? "").replace(/\\(.)/g, "$1"));
  }
  return found ? parts.join("") : s;
}

/** TXT content as zone-file text: quoted, split in 255-character strings. */
export function quoteTxt(content: string): string {
  if (content.startsWith('"') && content.endsWith('"') && content.length >= 2) return content;
  const chunks: string[] = [];
  for (let i = 0; i < content.length; i += 255) chunks.push(content.slice(i, i + 255));
  if (chunks.length === 0) chunks.push("");
  return chunks.map((c) => `"${c.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(" ");
}

/**
 * Stores a new record in a zone, its content in the stored spelling; callers have checked it (a
 * record route, a zone-file import, a mail domain's published records).
 */
export function insertRecord(
  store: Store,
  zone: ZoneRow,
  r: Pick<RecordRow, "name" | "type" | "ttl" | "content"> & Partial<RecordRow>,
): RecordRow {
  const row: RecordRow = {
    id: store.nextId(),
    account: zone.account,
    zone_id: zone.id,
    name: r.name,
    type: r.type,
    ttl: r.ttl,
    content: storedContent(r.type, r.content),
    enabled: r.enabled ?? true,
    proxied: r.proxied ?? false,
    weight: r.weight ?? null,
    health_check: r.health_check ?? null,
    created_at: store.timestamp(),
  };
  store.zoneRecords(zone.id).set(row.id, row);
  return row;
}
