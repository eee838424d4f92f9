// BIND zone-file export and import. The import is parsed completely (and every line validated)
// before anything is written, which is what makes `mode: apply` all-or-nothing.
import { ApiError } from "../pipeline/errors";
import { RECORD_TYPES, type RecordRow, type RecordType, type ZoneRow } from "../model/store";
import { normalizeRecordName } from "./names";
import { NAME_TARGET_TYPES, contentProblem, quoteTxt, storedContent, unquoteTxt } from "./records";

const SOA_REFRESH = 7200;
const SOA_RETRY = 3600;
const SOA_EXPIRE = 1209600;
const APEX_NS_TTL = 86400;
const DEFAULT_RECORD_TTL = 3600;

function absoluteTarget(content: string): string {
  const parts = content.trim().split(/\s+/);
  const last = parts[parts.length - 1] ?? "";
  if (last !== "" && !last.endsWith(".")) parts[parts.length - 1] = `${last}.`;
  return parts.join(" ");
}

function exportContent(r: RecordRow): string {
  if (r.type === "TXT") return quoteTxt(r.content);
  if (NAME_TARGET_TYPES.has(r.type)) return absoluteTarget(r.content);
  return r.content;
}

/** The zone as a BIND file. Disabled records are not served, so they are not exported either. */
export function exportZone(zone: ZoneRow, records: Iterable<RecordRow>, nameServers: string[]): string {
  const origin = `${zone.name}.`;
  const primary = `${nameServers[0] ?? "ns1.invalid"}.`;
  const lines = [
    `; zone ${zone.name}, serial ${zone.serial}, exported by nsp-emulator`,
    `$ORIGIN ${origin}`,
    `$TTL ${DEFAULT_RECORD_TTL}`,
    `@ ${DEFAULT_RECORD_TTL} IN SOA ${primary} hostmaster.${origin} ${zone.serial} ${SOA_REFRESH} ${SOA_RETRY} ${SOA_EXPIRE} ${zone.negative_ttl}`,
    ...nameServers.map((ns) => `@ ${APEX_NS_TTL} IN NS ${ns}.`),
  ];
  for (const r of records) {
    if (!r.enabled) continue;
    lines.push(`${r.name} ${r.ttl} IN ${r.type} ${exportContent(r)}`);
  }
  return `${lines.join("\n")}\n`;
}

export interface ParsedRecord {
  line: number;
  text: string;
  name: string;
  type: RecordType;
  ttl: number;
  content: string;
}

export interface SkippedLine {
  line: number;
  entry: string;
}

export interface ParseResult {
  records: ParsedRecord[];
  /** Lines not imported, each followed by the reason in parentheses. */
  skipped: SkippedLine[];
}

const TYPES: ReadonlySet<string> = new Set(RECORD_TYPES);
const CLASSES = new Set(["IN", "CH", "HS", "CS", "ANY"]);
const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

function parseTtl(tok: string): number | null {
  if (/^\d+$/.test(tok)) return Number(tok);
  if (!/^(\d+[smhdw])+$/i.test(tok)) return null;
  let total = 0;
  for (const m of tok.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(m[1]) * (TTL_UNITS[m[2] ?? "s"] ?? 1);
  return total;
}

interface LogicalLine {
  line: number;
  indented: boolean;
  tokens: string[];
  text: string;
}

/** Joins parenthesised continuations and drops comments, respecting quoted strings. */
function logicalLines(text: string): LogicalLine[] {
  const out: LogicalLine[] = [];
  let depth = 0;
  let cur: LogicalLine | null = null;
  const physical = text.split(/\r?\n/);
  for (let i = 0; i < physical.length; i++) {
    const raw = physical[i] ?? "";
    let content = "";
    let inQuote = false;
    for (let j = 0; j < raw.length; j++) {
      const ch = raw[j] as string;
      if (inQuote) {
        content += ch;
        if (ch === "\\" && j + 1 < raw.length) content += raw[++j];
        else if (ch === '"') inQuote = false;
      } else if (ch === '"') {
        inQuote = true;
        content += ch;
      } else if (ch === ";") {
        break;
      } else if (ch === "(") {
        depth++;
        content += " ";
      } else if (ch === ")") {
        depth = Math.max(0, depth - 1);
        content += " ";
      } else {
        content += ch;
      }
    }
    if (!cur) {
      if (content.trim() === "" && depth === 0) continue;
      cur = { line: i + 1, indented: /^\s/.test(content), tokens: [], text: "" };
    }
    cur.text = `${cur.text} ${content.trim().replace(/\s+/g, " ")}`.trim();
    // A token runs to the next unquoted space, so `alpn="h2 h3"` stays one token.
    cur.tokens.push(...(content.match(/(?:"(?:[^"\\]|\\.)*"?|[^\s"])+/g) ?? []));
    if (depth === 0) {
      if (cur.tokens.length > 0) out.push(cur);
      cur = null;
    }
  }
  if (cur && cur.tokens.length > 0) out.push(cur);
  return out;
}

function absoluteName(n: string, origin: string): string {
  if (n === "@") return origin;
  if (n.endsWith(".")) return n.slice(0, -1).toLowerCase();
  return `${n}.${origin}`.toLowerCase();
}

function relativeName(abs: string, zone: string): string | null {
  if (abs === zone) return "@";
  if (abs.endsWith(`.${zone}`)) return abs.slice(0, -(zone.length + 1));
  return null;
}

/**
 * Parses BIND-style lines for `zone`. SOA and apex NS lines are ignored; unsupported types,
 * other classes, names outside the zone and directives other than $ORIGIN/$TTL are reported in
 * `skipped`. A malformed line of a supported type is a validation_error naming the line.
 */
export function parseZoneFile(text: string, zone: string, ttlRange: { min: number; max: number }): ParseResult {
  const records: ParsedRecord[] = [];
  const skipped: SkippedLine[] = [];
  let origin = zone;
  let defaultTtl: number | null = null;
  let lastOwner: string | null = null;
  const skip = (ll: LogicalLine, reason: string): void => {
    skipped.push({ line: ll.line, entry: `${ll.text} (${reason})` });
  };
  const fail = (line: number, msg: string): never => {
    throw new ApiError("validation_error", `text: line ${line}: ${msg}`);
  };

  for (const ll of logicalLines(text)) {
    const toks = [...ll.tokens];
    const first = toks[0] as string;
    if (!ll.indented && first.startsWith("$")) {
      const directive = first.toUpperCase();
      if (directive === "$ORIGIN") {
        const arg = toks[1];
        if (!arg) fail(ll.line, "$ORIGIN needs a name");
        origin = absoluteName(arg as string, origin);
      } else if (directive === "$TTL") {
        const t = toks[1] !== undefined ? parseTtl(toks[1]) : null;
        if (t === null) fail(ll.line, "$TTL needs a number of seconds");
        defaultTtl = t;
      } else {
        skip(ll, `directive not supported`);
      }
      continue;
    }

    let owner: string;
    if (ll.indented) {
      if (lastOwner === null) fail(ll.line, "no owner name on the first record line");
      owner = lastOwner as string;
    } else {
      owner = absoluteName(toks.shift() as string, origin);
    }
    lastOwner = owner;

    let ttl: number | null = null;
    let cls = "IN";
    for (let k = 0; k < 2 && toks.length > 0; k++) {
      const t = toks[0] as string;
      const asTtl = parseTtl(t);
      if (asTtl !== null && ttl === null) {
        ttl = asTtl;
        toks.shift();
      } else if (CLASSES.has(t.toUpperCase())) {
        cls = t.toUpperCase();
        toks.shift();
      } else break;
    }
    const typeTok = toks.shift();
    if (typeTok === undefined) fail(ll.line, "missing record type");
    const type = (typeTok as string).toUpperCase();
    const name = relativeName(owner, zone);

    if (type === "SOA") continue;
    if (type === "NS" && name === "@") continue;
    if (cls !== "IN") {
      skip(ll, `class ${cls} not supported`);
      continue;
    }
    if (!TYPES.has(type)) {
      skip(ll, `type ${type} not supported`);
      continue;
    }
    if (name === null) {
      skip(ll, `outside the zone`);
      continue;
    }
    const rtype = type as RecordType;
    if (toks.length === 0) fail(ll.line, `${rtype} record has no content`);

    let content: string;
    if (rtype === "TXT") {
      content = toks.some((t) => t.startsWith('"')) ? unquoteTxt(toks.join(" ")) : toks.join(" ");
    } else if (NAME_TARGET_TYPES.has(rtype)) {
      const target = absoluteName(toks[toks.length - 1] as string, origin);
      content = [...toks.slice(0, -1), target].join(" ");
    } else {
      content = toks.join(" ");
    }
    const problem = contentProblem(rtype, content);
    if (problem) fail(ll.line, `content ${problem}`);
    const recName = normalizeRecordName(name);
    if (recName === null) fail(ll.line, `name ${name} is not a valid record name`);
    const effTtl = ttl ?? defaultTtl ?? DEFAULT_RECORD_TTL;
    if (effTtl < ttlRange.min || effTtl > ttlRange.max) {
      fail(ll.line, `ttl must be between ${ttlRange.min} and ${ttlRange.max}`);
    }
    records.push({
      line: ll.line,
      text: ll.text,
      name: recName as string,
      type: rtype,
      ttl: effTtl,
      content: storedContent(rtype, content),
    });
  }
  return { records, skipped };
}
