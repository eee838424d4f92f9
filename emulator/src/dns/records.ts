// Record content rules shared by the records API and the zone-file import, so a record that
// could not be created one way cannot sneak in the other.
import { isIPv4, isIPv6 } from "../util/ip";
import type { RecordType } from "../store";

export const PROXIABLE_TYPES: ReadonlySet<RecordType> = new Set(["A", "AAAA", "CNAME"]);

/** Types whose content ends in a host name (a trailing dot there is cosmetic). */
export const NAME_TARGET_TYPES: ReadonlySet<RecordType> = new Set(["CNAME", "NS", "PTR", "ALIAS", "MX", "SRV"]);

export const MAX_CONTENT_LENGTH = 4096;

/** Null when valid, else the reason (without the field name). */
export function contentProblem(type: RecordType, content: string): string | null {
  if (content.trim() === "") return "must not be empty";
  if (content.length > MAX_CONTENT_LENGTH) return `must be at most ${MAX_CONTENT_LENGTH} characters`;
  if (type === "A" && !isIPv4(content)) return "must be an IPv4 address for an A record";
  if (type === "AAAA" && !isIPv6(content)) return "must be an IPv6 address for an AAAA record";
  return null;
}

// Only the shape is documented, not a list of schemes, so any URL-style scheme is accepted.
export const HEALTH_CHECK_RE = /^([a-z][a-z0-9+.-]*):(\d{1,5})(\/\S*)?$/;

export function healthCheckProblem(v: string): string | null {
  const m = HEALTH_CHECK_RE.exec(v);
  if (!m) return "must look like <scheme>:<port><path>, e.g. https:443/health";
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return "port must be between 1 and 65535";
  return null;
}

/**
 * The comparison form of a record's content: what "exact duplicate" means for import. Case and a
 * trailing dot do not matter for host names, and quoting does not matter for TXT.
 */
export function canonicalContent(type: RecordType, content: string): string {
  let c = content.trim();
  if (NAME_TARGET_TYPES.has(type)) c = c.toLowerCase().replace(/\.$/, "");
  if (type === "AAAA") c = c.toLowerCase();
  if (type === "TXT" && c.length >= 2 && c.startsWith('"') && c.endsWith('"')) c = unquoteTxt(c);
  return c;
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
