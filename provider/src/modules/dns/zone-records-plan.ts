// The rules behind nsp:dns:ZoneRecords, kept free of I/O so that they are unit-tested on their own:
// the canonical form of a record (so that a program, the zone file the API exports and the
// record list all compare equal), zone-file text in and out, and the plan that turns the live
// records of a zone into the wanted ones with as few requests as the API allows.
import { RECORD_TYPES } from "./record";
import { canonicalContent, NAME_TARGET_TYPES, WORD, unquoteTxt } from "./record-content";

export { canonicalContent, NAME_TARGET_TYPES, unquoteTxt };

export interface ZoneRecord {
  name: string;
  type: string;
  content: string;
  ttl: number;
}

/** A record as the records list shows it, with what the zone file cannot carry. */
export interface LiveRecord extends ZoneRecord {
  id: string;
  enabled: boolean;
  /**
   * What the zone file cannot carry is at the API's defaults (enabled, not proxied, no weight or
   * health check), so nothing is lost when an import deletes the record and adds its new value.
   */
  apiDefaults: boolean;
}

export const DEFAULT_TTL = 3600;

const TYPES: ReadonlySet<string> = new Set(RECORD_TYPES);

/** TXT data as zone-file text: quoted, in strings of at most 255 characters. */
export function quoteTxt(content: string): string {
  const chunks: string[] = [];
  for (let i = 0; i < content.length; i += 255) chunks.push(content.slice(i, i + 255));
  if (chunks.length === 0) chunks.push("");
  return chunks.map((c) => `"${c.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(" ");
}

/**
 * Data that cannot travel through a zone file unchanged: a line break ends the line, and outside
 * quotes `;` starts a comment and parentheses join lines.
 */
export function zoneFileContentProblem(type: string, content: string): string | undefined {
  if (/[\r\n]/.test(content)) return "must not contain line breaks";
  if (type === "TXT") return undefined;
  const outsideQuotes = content.replace(/"(?:[^"\\]|\\.)*"/g, "");
  if (/[;()]/.test(outsideQuotes))
    return "must not contain `;`, `(` or `)` outside double quotes (they have a meaning in zone files)";
  return undefined;
}

/** Records of one name and type form a set (an RRset); the unit a ZoneRecords resource owns. */
export function rrsetKey(r: { name: string; type: string }): string {
  return `${r.name} ${r.type}`;
}

/** What makes a record distinct within the list: name, type and data. */
export function recordKey(r: ZoneRecord): string {
  return `${r.name} ${r.type} ${r.content}`;
}

export function compareRecords(a: ZoneRecord, b: ZoneRecord): number {
  const pairs: [string | number, string | number][] = [
    [a.name, b.name],
    [a.type, b.type],
    [a.content, b.content],
    [a.ttl, b.ttl],
  ];
  for (const [x, y] of pairs) if (x !== y) return x < y ? -1 : 1;
  return 0;
}

/** The canonical list: canonical data, sorted, so that order in the program does not matter. */
export function canonicalRecords(records: readonly ZoneRecord[]): ZoneRecord[] {
  return records
    .map((r) => ({
      name: r.name.toLowerCase(),
      type: r.type,
      content: canonicalContent(r.type, r.content),
      ttl: r.ttl,
    }))
    .sort(compareRecords);
}

export function ownedRrsets(...lists: readonly (readonly ZoneRecord[] | undefined)[]): Set<string> {
  const owned = new Set<string>();
  for (const list of lists) for (const r of list ?? []) owned.add(rrsetKey(r));
  return owned;
}

// ---- zone files -----------------------------------------------------------------------------

function zoneFileContent(r: ZoneRecord): string {
  if (r.type === "TXT") return quoteTxt(r.content);
  if (!NAME_TARGET_TYPES.has(r.type)) return r.content;
  const words = r.content.split(" ");
  const last = words.length - 1;
  if (!words[last]!.endsWith(".")) words[last] = `${words[last]}.`;
  return words.join(" ");
}

/**
 * Zone-file lines for an import. Names stay relative to the zone (the import's origin), and host
 * names in the data are written absolute, so the text does not need the zone's name.
 */
export function renderZoneFile(records: readonly ZoneRecord[]): string {
  return records.map(zoneFileLine).join("");
}

/**
 * A zone's records as a whole zone file: its `$ORIGIN`, then one line per record in canonical
 * order, as nsp:dns:ZoneRecords keeps `zoneFile` in its state.
 */
export function renderZoneFileOf(zoneName: string, records: readonly ZoneRecord[]): string {
  return [`$ORIGIN ${zoneName.toLowerCase().replace(/\.$/, "")}.\n`, renderZoneFile(records)].join("");
}

function zoneFileLine(r: ZoneRecord): string {
  // Joined, not a template: a template's result is a tree of pieces until something reads it
  // whole, about three times the size of the flat text, and a zone's text holds 100,000 lines.
  return [r.name, " ", r.ttl, " IN ", r.type, " ", zoneFileContent(r), "\n"].join("");
}

/** One import's worth of records and their zone-file text. */
export interface ZoneFileChunk {
  records: ZoneRecord[];
  text: string;
}

/**
 * Zone-file text cut into pieces of at most `maxBytes` (UTF-8) each, whole lines only, so that a
 * large zone travels in several imports of a size any server takes. A single line longer than
 * `maxBytes` gets a piece of its own.
 */
export function zoneFileChunks(records: readonly ZoneRecord[], maxBytes: number): ZoneFileChunk[] {
  const chunks: ZoneFileChunk[] = [];
  let lines: string[] = [];
  let chunkRecords: ZoneRecord[] = [];
  let bytes = 0;
  const flush = () => {
    if (chunkRecords.length > 0) chunks.push({ records: chunkRecords, text: lines.join("") });
    lines = [];
    chunkRecords = [];
    bytes = 0;
  };
  for (const r of records) {
    const line = zoneFileLine(r);
    const size = Buffer.byteLength(line);
    if (bytes + size > maxBytes) flush();
    lines.push(line);
    chunkRecords.push(r);
    bytes += size;
  }
  flush();
  return chunks;
}

interface LogicalLine {
  indented: boolean;
  words: string[];
}

/** The lines of a text one at a time, without an array of all of them. */
function* physicalLines(text: string): Generator<string> {
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    yield text.slice(start, newline > start && text[newline - 1] === "\r" ? end - 1 : end);
    start = end + 1;
  }
}

/**
 * Drops comments and joins parenthesised continuations, respecting quoted strings. A generator:
 * the export of a 100,000-record zone is parsed line by line, never held as lines and words.
 */
function* logicalLines(text: string): Generator<LogicalLine> {
  let depth = 0;
  let cur: LogicalLine | undefined;
  for (const raw of physicalLines(text)) {
    let content = "";
    let quoted = false;
    for (let i = 0; i < raw.length; i++) {
      const ch = raw[i]!;
      if (quoted) {
        content += ch;
        if (ch === "\\" && i + 1 < raw.length) content += raw[++i];
        else if (ch === '"') quoted = false;
      } else if (ch === '"') {
        quoted = true;
        content += ch;
      } else if (ch === ";") {
        break;
      } else if (ch === "(" || ch === ")") {
        depth = Math.max(0, depth + (ch === "(" ? 1 : -1));
        content += " ";
      } else {
        content += ch;
      }
    }
    if (!cur) {
      if (content.trim() === "" && depth === 0) continue;
      cur = { indented: /^\s/.test(content), words: [] };
    }
    cur.words.push(...(content.match(WORD) ?? []));
    if (depth === 0) {
      if (cur.words.length > 0) yield cur;
      cur = undefined;
    }
  }
  if (cur && cur.words.length > 0) yield cur;
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

function parseTtl(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  if (!/^(\d+[smhdw])+$/i.test(word)) return undefined;
  let total = 0;
  for (const m of word.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(m[1]) * TTL_UNITS[m[2]!]!;
  return total;
}

function absoluteName(name: string, origin: string): string {
  if (name === "@") return origin;
  if (name.endsWith(".")) return name.slice(0, -1).toLowerCase();
  return `${name}.${origin}`.toLowerCase();
}

function relativeName(absolute: string, zone: string): string | undefined {
  if (absolute === zone) return "@";
  return absolute.endsWith(`.${zone}`) ? absolute.slice(0, -(zone.length + 1)) : undefined;
}

const CLASSES = new Set(["IN", "CH", "HS", "CS", "ANY"]);

/** The zone a zone file names by its first `$ORIGIN`, without the trailing dot, or undefined. */
export function zoneFileOrigin(text: string): string | undefined {
  for (const l of logicalLines(text)) {
    if (!l.indented && l.words[0]?.toUpperCase() === "$ORIGIN") return l.words[1]?.toLowerCase().replace(/\.$/, "");
  }
  return undefined;
}

/**
 * The records of a BIND zone file (the API's export), in canonical form. The SOA and the apex NS
 * set belong to the service, and types, classes and names this API does not manage are left out;
 * `onSkip` hears of each of those left out but the service's own. `zoneName` is the zone the names
 * are relative to; without it the first `$ORIGIN` decides.
 */
export function parseZoneFile(
  text: string,
  zoneName?: string,
  onSkip?: (line: string, reason: string) => void,
): ZoneRecord[] {
  const zone = (zoneName ?? zoneFileOrigin(text))?.toLowerCase().replace(/\.$/, "");
  if (!zone) throw new Error("the zone file names no zone (no $ORIGIN)");
  const records: ZoneRecord[] = [];
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastOwner: string | undefined;

  for (const line of logicalLines(text)) {
    const words = line.words;
    const first = words[0]!;
    if (!line.indented && first.startsWith("$")) {
      const directive = first.toUpperCase();
      if (directive === "$ORIGIN" && words[1]) origin = absoluteName(words[1], origin);
      if (directive === "$TTL" && words[1]) defaultTtl = parseTtl(words[1]) ?? defaultTtl;
      if (directive !== "$ORIGIN" && directive !== "$TTL")
        onSkip?.(words.join(" "), `is a ${directive} directive, which is not supported`);
      continue;
    }
    const text = onSkip && words.join(" ");
    const owner = line.indented ? lastOwner : absoluteName(words.shift()!, origin);
    if (owner === undefined) {
      onSkip?.(text!, "has no owner name (an indented line before any record)");
      continue;
    }
    lastOwner = owner;

    let ttl: number | undefined;
    let cls = "IN";
    for (let k = 0; k < 2 && words.length > 0; k++) {
      const t = parseTtl(words[0]!);
      if (t !== undefined && ttl === undefined) ttl = t;
      else if (CLASSES.has(words[0]!.toUpperCase())) cls = words[0]!.toUpperCase();
      else break;
      words.shift();
    }
    const type = words.shift()?.toUpperCase();
    const name = relativeName(owner, zone);
    if (type === "SOA" || (type === "NS" && name === "@")) continue;
    if (type === undefined || name === undefined || cls !== "IN" || !TYPES.has(type) || words.length === 0) {
      if (onSkip) {
        const reason =
          name === undefined
            ? `is not in the zone ${zone}`
            : cls !== "IN"
              ? `is of class ${cls}, not IN`
              : type === undefined || words.length === 0
                ? "has no type or no data"
                : `is of type ${type}, which is not one of ${RECORD_TYPES.join(", ")}`;
        onSkip(text!, reason);
      }
      continue;
    }

    let content: string;
    if (type === "TXT") {
      content = words.some((w) => w.startsWith('"')) ? unquoteTxt(words.join(" ")) : words.join(" ");
    } else {
      if (NAME_TARGET_TYPES.has(type)) words[words.length - 1] = absoluteName(words[words.length - 1]!, origin);
      content = canonicalContent(type, words.join(" "));
    }
    records.push({ name, type, content, ttl: ttl ?? defaultTtl ?? DEFAULT_TTL });
  }
  return records;
}

// ---- matching and planning ------------------------------------------------------------------

/** Index pairs `[current, desired]`; `kept` counts the exact matches, which need nothing. */
export interface Matching {
  kept: number;
  changed: [number, number][];
  added: number[];
  removed: number[];
}

type Current = ZoneRecord & { enabled?: boolean };
const exactMatch = (c: Current, d: ZoneRecord) => c.content === d.content && c.ttl === d.ttl && c.enabled !== false;
const sameData = (c: Current, d: ZoneRecord) => c.content === d.content;
const anyRecord = () => true;

/**
 * Pairs the current records with the desired ones, set by set (same name and type): first exact
 * matches, then the same data with another TTL (or disabled), then any leftovers of the same set,
 * whose data changes in place. What remains is added or removed. Kept lean for 100,000 records:
 * a set of one record (most of them) is one index, not a list, and exact matches are only counted.
 */
export function matchRecords(current: readonly Current[], desired: readonly ZoneRecord[]): Matching {
  const pools = new Map<string, number | number[]>();
  for (let i = 0; i < current.length; i++) {
    const key = rrsetKey(current[i]!);
    const pool = pools.get(key);
    if (pool === undefined) pools.set(key, i);
    else if (typeof pool === "number") pools.set(key, [pool, i]);
    else pool.push(i);
  }
  const take = (d: ZoneRecord, fits: (c: Current, d: ZoneRecord) => boolean): number | undefined => {
    const key = rrsetKey(d);
    const pool = pools.get(key);
    if (pool === undefined) return undefined;
    if (typeof pool === "number") {
      if (!fits(current[pool]!, d)) return undefined;
      pools.delete(key);
      return pool;
    }
    const at = pool.findIndex((i) => fits(current[i]!, d));
    return at < 0 ? undefined : pool.splice(at, 1)[0];
  };
  const m: Matching = { kept: 0, changed: [], added: [], removed: [] };
  let pending: number[] = [];
  for (let j = 0; j < desired.length; j++) {
    if (take(desired[j]!, exactMatch) === undefined) pending.push(j);
    else m.kept++;
  }
  for (const fits of [sameData, anyRecord]) {
    const next: number[] = [];
    for (const j of pending) {
      const i = take(desired[j]!, fits);
      if (i === undefined) next.push(j);
      else m.changed.push([i, j]);
    }
    pending = next;
  }
  m.added = pending;
  for (const pool of pools.values()) {
    if (typeof pool === "number") m.removed.push(pool);
    else for (const i of pool) m.removed.push(i);
  }
  m.removed.sort((a, b) => a - b);
  return m;
}

export interface RecordPatch {
  content?: string;
  ttl?: number;
  enabled?: true;
}

export interface Plan {
  /** The live records of the sets this resource owns, before the change. */
  existing: LiveRecord[];
  /** Live records of other sets (other resources' or nobody's), which are never touched. */
  foreign: LiveRecord[];
  create: ZoneRecord[];
  update: { record: LiveRecord; to: ZoneRecord; patch: RecordPatch }[];
  remove: LiveRecord[];
}

/** What it takes to turn the owned part of `live` into `desired`. */
export function planZone(
  live: readonly LiveRecord[],
  desired: readonly ZoneRecord[],
  owned: ReadonlySet<string>,
): Plan {
  const existing = live.filter((r) => owned.has(rrsetKey(r)));
  const foreign = live.filter((r) => !owned.has(rrsetKey(r)));
  const m = matchRecords(existing, desired);
  return {
    existing,
    foreign,
    create: m.added.map((j) => desired[j]!),
    update: m.changed.map(([i, j]) => {
      const record = existing[i]!;
      const to = desired[j]!;
      const patch: RecordPatch = {};
      if (record.content !== to.content) patch.content = to.content;
      if (record.ttl !== to.ttl) patch.ttl = to.ttl;
      if (!record.enabled) patch.enabled = true;
      return { record, to, patch };
    }),
    remove: m.removed.map((i) => existing[i]!),
  };
}

/**
 * The writes of a plan that the API confirmed: records deleted, patched (to their new value) and
 * added. What the owned part of the zone holds once they are done, without the writes that were
 * not (yet) sent, is `recordsAfter`.
 */
export class WrittenChanges {
  private readonly done = new Map<LiveRecord, ZoneRecord | null>();
  private readonly added: ZoneRecord[] = [];
  count = 0;

  constructor(readonly plan: Plan) {}

  removed(r: LiveRecord): void {
    this.done.set(r, null);
    this.count++;
  }

  patched(r: LiveRecord, to: ZoneRecord): void {
    this.done.set(r, to);
    this.count++;
  }

  /** The import with replace of `bulk`: what it deletes is gone, what it adds is there. */
  replaced(bulk: BulkChange): void {
    const leftovers = new Set(bulk.leftovers);
    for (const r of this.plan.remove) if (!leftovers.has(r)) this.done.set(r, null);
    for (const u of bulk.readded) {
      this.done.set(u.record, null);
      this.added.push(u.to);
    }
    for (const r of this.plan.create) this.added.push(r);
    this.count++;
  }

  imported(records: readonly ZoneRecord[]): void {
    for (const r of records) this.added.push(r);
    this.count++;
  }

  /** The owned records the zone serves after the confirmed writes, in canonical order. */
  recordsAfter(): ZoneRecord[] {
    const out: ZoneRecord[] = [];
    for (const r of this.plan.existing) {
      const written = this.done.get(r);
      if (written === null) continue;
      // A disabled record is not served (nor in the zone file) until a patch enables it.
      if (written) out.push(written);
      else if (r.enabled) out.push({ name: r.name, type: r.type, content: r.content, ttl: r.ttl });
    }
    out.push(...this.added);
    return canonicalRecords(out);
  }
}

export function isNoop(plan: Plan): boolean {
  return plan.create.length + plan.update.length + plan.remove.length === 0;
}

/** Requests the change takes with record calls: one import adds every new record, then one call per patch or delete. */
export function recordCallCount(plan: Plan): number {
  return (plan.create.length > 0 ? 1 : 0) + plan.update.length + plan.remove.length;
}

/** What makes a record one exact duplicate of another for the import: name, type, data and TTL. */
function exactKey(r: ZoneRecord): string {
  return `${recordKey(r)} ${r.ttl}`;
}

/**
 * A change as one zone-file import with `replace`, which keeps every live record that a line of
 * the text matches exactly and deletes the others. The text is what must remain: the owned records
 * kept, every record of other sets as it is, the current value of each changed record whose
 * API-only attributes must survive (patched afterwards), and the records to add (the new ones and
 * the new value of the other changed ones). Its preview must report exactly `added` new records and
 * `kept` lines matched (the import lists those as skipped duplicates); `deleted` is what goes.
 */
export interface BulkChange {
  text: string;
  added: number;
  kept: number;
  deleted: number;
  /** Changed records patched after the import, so that what the zone file cannot carry stays. */
  patches: Plan["update"];
  /** Changed records the import re-adds with their new value (a new id). */
  readded: Plan["update"];
  /** Records to delete that a line of the text matches exactly (duplicates of a kept one): one delete each. */
  leftovers: LiveRecord[];
}

/** The apex NS set is the service's own: an import ignores such lines and never deletes it. */
const isServiceOwned = (r: ZoneRecord) => r.type === "NS" && r.name === "@";

export function bulkChange(plan: Plan): BulkChange {
  const patches = plan.update.filter((u) => !u.record.apiDefaults);
  const readded = plan.update.filter((u) => u.record.apiDefaults);
  const changing = new Set<LiveRecord>([...plan.remove, ...plan.update.map((u) => u.record)]);
  const lines: ZoneRecord[] = [];
  for (const r of plan.foreign) if (!isServiceOwned(r)) lines.push(r);
  for (const r of plan.existing) if (!changing.has(r)) lines.push(r);
  for (const u of patches) lines.push(u.record);
  const kept = lines.length;
  for (const r of plan.create) lines.push(r);
  for (const u of readded) lines.push(u.to);
  // A record the text matches exactly would survive the replace: it goes by its own request. Only
  // the keys of the records to delete are held, not one per line of a 100,000-record zone.
  const removedKeys = new Set(plan.remove.map(exactKey));
  const matched = new Set<string>();
  if (removedKeys.size > 0) {
    for (const r of lines) {
      const key = exactKey(r);
      if (removedKeys.has(key)) matched.add(key);
    }
  }
  const leftovers = plan.remove.filter((r) => matched.has(exactKey(r)));
  return {
    text: renderZoneFile(lines),
    added: lines.length - kept,
    kept,
    deleted: plan.remove.length - leftovers.length + readded.length,
    patches,
    readded,
    leftovers,
  };
}

export type Strategy = "bulk" | "records";

/**
 * The bulk import only where it deletes or re-adds something (adding alone never needs `replace`)
 * and takes fewer requests than the record calls.
 */
export function chooseStrategy(plan: Plan): Strategy {
  const readded = plan.update.filter((u) => u.record.apiDefaults).length;
  if (plan.remove.length + readded === 0) return "records";
  // A preview and the import, then a patch for each record that keeps its API-only attributes.
  const patches = plan.update.length - readded;
  return 2 + patches < recordCallCount(plan) ? "bulk" : "records";
}

/** Below this many managed records the delete threshold does not apply (as in octoDNS). */
export const MIN_GUARDED_RECORDS = 10;

/** Why the plan deletes too much for `maxDeletePercent`, or undefined when it may go ahead. */
export function deleteLimitProblem(plan: Plan, maxDeletePercent: number): string | undefined {
  const existing = plan.existing.length;
  const deleting = plan.remove.length;
  if (deleting === 0 || maxDeletePercent >= 100 || existing < MIN_GUARDED_RECORDS) return undefined;
  if (deleting * 100 <= maxDeletePercent * existing) return undefined;
  const share = (deleting * 100) / existing;
  return (
    `maxDeletePercent: this change would delete ${deleting} of the ${existing} records this resource manages in the zone ` +
    `(${Math.round(share)}%), more than maxDeletePercent (${maxDeletePercent}%) allows; ` +
    `set maxDeletePercent to at least ${Math.ceil(share)} (100 allows any deletion) to go ahead`
  );
}

/**
 * Pulumi's detailed diff of the record list, one key per record (`records[3]`): ADD and UPDATE
 * index the new list, DELETE the old one. A record whose data or TTL changes in place is an UPDATE
 * when it keeps its position, else it shows as removed at its old position and added at its new.
 */
export function diffRecords(
  olds: readonly ZoneRecord[],
  news: readonly ZoneRecord[],
  property = "records",
): Record<string, "ADD" | "DELETE" | "UPDATE"> {
  const m = matchRecords(olds, news);
  const deleted = new Set(m.removed);
  const added = new Set(m.added);
  const updated = new Set<number>();
  for (const [i, j] of m.changed) {
    if (i === j) updated.add(i);
    else {
      deleted.add(i);
      added.add(j);
    }
  }
  const out: Record<string, "ADD" | "DELETE" | "UPDATE"> = {};
  for (const i of deleted) out[`${property}[${i}]`] = "DELETE";
  for (const j of added) out[`${property}[${j}]`] = out[`${property}[${j}]`] === "DELETE" ? "UPDATE" : "ADD";
  for (const i of updated) out[`${property}[${i}]`] = "UPDATE";
  return out;
}
