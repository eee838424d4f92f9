import type { ApiClient } from "../client";
import { isApiError } from "../client";
import type { AnyResource } from "../framework/definition";
import { labelOf, listPath, listedImportId, slug } from "../framework/api/list-facts";
import type { ListFacts } from "../framework/definition";
import { notDiscovered } from "./not-discovered";

type Item = Record<string, unknown>;

/** One entry of a `pulumi import --file` document. */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
}

/** An object of the account that is not in the import file, and why. */
interface LeftOut {
  type: string;
  id: string;
  reason: string;
}

interface DiscoverOptions {
  /** Type globs such as `nsp:dns:*` or `nsp:mail:Mailbox`; all types when empty. */
  types?: readonly string[];
  /** Zone names or ids: only objects of these zones (types that belong to no zone are dropped). */
  zones?: readonly string[];
  /**
   * A zone holding more records than this is one `nsp:dns:ZoneRecords`, a smaller one one
   * `nsp:dns:Record` per record: 0 makes every zone a ZoneRecords, Infinity none.
   */
  zoneRecordsAbove?: number;
  /** Lists fetched at once; the client's rate limiter paces them all the same. */
  concurrency?: number;
  onProgress?: (message: string) => void;
  /**
   * Objects other stacks already manage, left out of the file: `<type> <own id>` (the last part
   * of the import id, as a stack's state holds it) -> the stack's name.
   */
  tracked?: ReadonlyMap<string, string>;
  /** Called at the first list that fails, before the error reaches the caller. */
  onFailure?: () => void;
  signal?: AbortSignal;
}

interface DiscoverResult {
  /** The `pulumi import --file` document. */
  file: { nameTable: Record<string, string>; resources: ImportEntry[] };
  /** Objects listed but left out: made by the API, or owned by another resource of the file. */
  leftOut: LeftOut[];
  /** Types discovery does not emit at all, and why. */
  notDiscovered: { type: string; reason: string }[];
  /** Lists the account may not read (module not enabled, ...): these types were not discovered. */
  unavailable: { type: string; path: string; reason: string }[];
  /** Each zone's name by its id, for the zone files of its ZoneRecords entries. */
  zoneNames: Map<string, string>;
}

/** A kind to list: a resource's list facts, or a parent that is no resource (the services the API makes). */
type Source = ListFacts & { token: string };

function sourcesOf(definitions: readonly AnyResource[]): Map<string, Source> {
  const out = new Map<string, Source>();
  for (const d of definitions) if (d.list) out.set(d.token, { ...d.list, token: d.token });
  for (const d of definitions) {
    const parent = d.list?.parent;
    if (parent?.path && !out.has(parent.token)) out.set(parent.token, { token: parent.token, path: parent.path });
  }
  return out;
}

const ZONE_RECORDS = "nsp:dns:ZoneRecords";
const RECORD = "nsp:dns:Record";

/**
 * A zone of more records than one page of the API's list (500) is one ZoneRecords by default:
 * beyond that a program of one resource per record stops being read, and each resource costs the
 * engine more than the API's pages cost.
 */
export const DEFAULT_ZONE_RECORDS_ABOVE = 500;

/**
 * Reads the whole account (or the part the filters select) through list endpoints only, and
 * builds the bulk-import document: every object with the import id its resource's docs give and
 * a readable name that stays the same from one run to the next.
 */
export async function discover(
  client: ApiClient,
  definitions: readonly AnyResource[],
  opts: DiscoverOptions = {},
): Promise<DiscoverResult> {
  const byToken = new Map(definitions.map((d) => [d.token, d]));
  const sourceOf = sourcesOf(definitions);
  const selected = selectTypes(definitions, opts);
  const progress = opts.onProgress ?? (() => {});
  const leftOut: LeftOut[] = [];
  const unavailable: DiscoverResult["unavailable"] = [];

  // Every type to list: the selected ones and the parents they hang from.
  const needed = new Set<string>();
  const need = (token: string) => {
    const s = sourceOf.get(token);
    if (!s || needed.has(token)) return;
    needed.add(token);
    if (s.parent) need(s.parent.token);
  };
  for (const t of selected) need(t);
  const recordsAs = {
    [RECORD]: matchesTypes(RECORD, opts.types),
    [ZONE_RECORDS]: matchesTypes(ZONE_RECORDS, opts.types),
  };
  if (recordsAs[ZONE_RECORDS]) need(RECORD);
  // Records published by a mail domain belong to it, so the mail domains are read with the records.
  if (needed.has(RECORD)) need("nsp:mail:Domain");
  if (opts.zones?.length) for (const t of [...needed]) if (sourceOf.get(t)?.zoneVia) need(sourceOf.get(t)!.zoneVia!);

  const listed = new Map<string, { item: Item; parent?: Item }[]>();
  const find = (token: string, id: unknown): Item | undefined =>
    id == null ? undefined : listed.get(token)?.find((r) => String(r.item.id) === String(id))?.item;
  let zoneFilter: Set<string> | undefined;
  const pool = limiter(opts.concurrency ?? 4);
  let lists = 0;

  const fetchList = async (source: Source, path: string): Promise<Item[] | undefined> => {
    try {
      const items = (await client.listAll(path, { signal: opts.signal })) as Item[];
      lists++;
      progress(`listed ${path}: ${items.length}`);
      return items;
    } catch (e) {
      if (isApiError(e) && [403, 404, 405, 409].includes(e.status)) {
        unavailable.push({
          type: source.token,
          path,
          reason: `${e.status} ${e.code}: ${e.serverMessage || e.message}`,
        });
        progress(`skipped ${path}: ${e.status} ${e.code}`);
        return undefined;
      }
      opts.onFailure?.();
      throw e;
    }
  };

  const load = async (token: string): Promise<void> => {
    if (listed.has(token)) return;
    const source = sourceOf.get(token)!;
    const rows: { item: Item; parent?: Item }[] = [];
    listed.set(token, rows);
    if (!source.parent) {
      for (const item of (await fetchList(source, source.path)) ?? []) rows.push({ item });
      return;
    }
    let parents = (listed.get(source.parent.token) ?? []).filter((p) => source.parent!.holds?.(p.item) ?? true);
    // Under --zone only the parents on those zones are listed (a zone's records, a mail domain's mailboxes).
    const parentSource = sourceOf.get(source.parent.token)!;
    if (zoneFilter && parentSource.zoneOf)
      parents = parents.filter((p) => zoneFilter!.has(String(parentSource.zoneOf!(p.item, p.parent, find))));
    await Promise.all(
      parents.map(({ item: parent }) =>
        source.fromParent
          ? Promise.resolve(source.fromParent(parent).forEach((item) => rows.push({ item, parent })))
          : pool(async () => {
              const path = listPath(source.path, parent.id);
              for (const item of (await fetchList(source, path)) ?? []) rows.push({ item, parent });
            }),
      ),
    );
  };

  // Parents first (one level at a time), then every child type at once.
  const roots = [...needed].filter((t) => !sourceOf.get(t)!.parent);
  await Promise.all(roots.map((t) => pool(() => load(t))));
  if (opts.zones?.length)
    zoneFilter = resolveZones(
      opts.zones,
      (listed.get("nsp:dns:Zone") ?? []).map((r) => r.item),
    );
  const children = [...needed].filter((t) => sourceOf.get(t)!.parent);
  await Promise.all(children.map((t) => load(t)));
  progress(`read the account with ${lists} lists`);

  const owners = ownedRecords(listed.get("nsp:mail:Domain") ?? []);
  // A stack's state holds the id the resource's Read gave: the import id, or for some kinds the
  // object's own id alone, which names one object account-wide only where it is the API's id
  // (a route's local part is unique only within its domain).
  const trackedBy = (type: string, id: string) =>
    opts.tracked?.get(`${type} ${id}`) ??
    (byToken.get(type)?.list?.key ? undefined : opts.tracked?.get(`${type} ${id.split("/").pop()}`));
  // A record another stack manages is owned like a mail domain's: no ZoneRecords set claims it.
  for (const { item, parent } of listed.get(RECORD) ?? []) {
    const stack = trackedBy(RECORD, `${String(parent?.id)}/${String(item.id)}`);
    if (stack !== undefined && !owners.has(String(item.id))) owners.set(String(item.id), `stack ${stack}`);
  }
  const entries: (ImportEntry & { sortKey: string })[] = [];

  // The zones whose records are one ZoneRecords: by their size, unless only one of the two types is asked for.
  const above = !recordsAs[RECORD]
    ? 0
    : !recordsAs[ZONE_RECORDS]
      ? Infinity
      : (opts.zoneRecordsAbove ?? DEFAULT_ZONE_RECORDS_ABOVE);
  const sizes = new Map<unknown, number>();
  for (const { parent } of listed.get(RECORD) ?? []) sizes.set(parent?.id, (sizes.get(parent?.id) ?? 0) + 1);
  const asZoneRecords = new Set(
    (listed.get("nsp:dns:Zone") ?? [])
      .filter(({ item }) => (sizes.get(item.id) ?? 0) > above)
      .map(({ item }) => item.id),
  );
  if (recordsAs[ZONE_RECORDS] && asZoneRecords.size > 0) {
    const single = (item: Item, parent: Item) => entryOf(byToken.get(RECORD)!, item, parent);
    const zones = (listed.get("nsp:dns:Zone") ?? []).filter(({ item }) => asZoneRecords.has(item.id));
    entries.push(...zoneRecordEntries(listed.get(RECORD) ?? [], zones, owners, zoneFilter, leftOut, single));
  }

  for (const token of selected) {
    const def = byToken.get(token)!;
    const source = sourceOf.get(token)!;
    for (const { item, parent } of listed.get(token) ?? []) {
      if (token === RECORD && asZoneRecords.has(parent?.id)) continue;
      if (zoneFilter && !zoneFilter.has(String(source.zoneOf!(item, parent, find)))) continue;
      const entry = entryOf(def, item, parent);
      const stack = trackedBy(token, entry.id);
      const reason =
        source.skip?.(item, parent) ??
        (token === RECORD ? recordLeftOut(item, owners) : undefined) ??
        (stack === undefined ? undefined : `tracked by stack ${stack}`);
      if (reason !== undefined) leftOut.push({ type: token, id: entry.id, reason });
      else entries.push(entry);
    }
  }

  nameEntries(entries);
  return {
    file: { nameTable: {}, resources: entries.map(({ type, name, id }) => ({ type, name, id })) },
    leftOut,
    notDiscovered: definitions
      .filter((d) => !d.list && !(d.token === ZONE_RECORDS && above !== Infinity) && matchesTypes(d.token, opts.types))
      .map((d) => ({ type: d.token, reason: notDiscovered[d.token] ?? "no list in the API" })),
    unavailable,
    zoneNames: new Map((listed.get("nsp:dns:Zone") ?? []).map(({ item }) => [String(item.id), String(item.name)])),
  };
}

/**
 * The types to list and emit: those the filters select that have a source. A zone's records,
 * emitted as Records or as one ZoneRecords, are listed as Records either way (see discover).
 */
function selectTypes(definitions: readonly AnyResource[], opts: DiscoverOptions): Set<string> {
  const out = new Set<string>();
  for (const d of definitions) {
    if (!d.list || !matchesTypes(d.token, opts.types)) continue;
    if (opts.zones?.length && !d.list.zoneOf) continue;
    out.add(d.token);
  }
  const unknown = (opts.types ?? []).filter((g) => !definitions.some((d) => matchesTypes(d.token, [g])));
  if (unknown.length)
    throw new Error(
      `--type ${unknown.join(", ")} matches no resource type of the provider (types look like nsp:dns:Record or nsp:dns:*)`,
    );
  return out;
}

function matchesTypes(token: string, globs: readonly string[] | undefined): boolean {
  if (!globs?.length) return true;
  return globs.some((g) => new RegExp(`^${g.split("*").map(escapeRegExp).join(".*")}$`, "i").test(token));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

function resolveZones(wanted: readonly string[], zones: readonly Item[]): Set<string> {
  const out = new Set<string>();
  for (const w of wanted) {
    const name = w.toLowerCase().replace(/\.$/, "");
    const zone = zones.find((z) => String(z.id) === w || String(z.name).toLowerCase() === name);
    if (!zone) throw new Error(`--zone ${w}: the account has no such zone`);
    out.add(String(zone.id));
  }
  return out;
}

/** Record id -> the mail domain that published it. */
function ownedRecords(domains: readonly { item: Item }[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const { item } of domains) {
    for (const r of (item.records ?? []) as Item[])
      if (r.record_id != null)
        owners.set(String(r.record_id), `mail domain ${String(item.name)} (nsp:mail:Domain ${String(item.id)})`);
  }
  return owners;
}

function recordLeftOut(record: Item, owners: Map<string, string>): string | undefined {
  const owner = owners.get(String(record.id));
  if (owner) return owner.startsWith("stack ") ? `tracked by ${owner}` : `published by ${owner}`;
  if (record.type === "NS" && record.name === "@") return "the service's own name servers at the apex";
  return undefined;
}

/**
 * One ZoneRecords per zone, adopting exactly the record sets no other resource owns. A set that
 * holds a record another resource owns (a TXT at the apex beside a mail domain's SPF) cannot be
 * a ZoneRecords set: it would claim the owned record, or delete it as missing from its list. Its
 * other records become one nsp:dns:Record each.
 */
function zoneRecordEntries(
  records: readonly { item: Item; parent?: Item }[],
  zones: readonly { item: Item }[],
  owners: Map<string, string>,
  zoneFilter: Set<string> | undefined,
  leftOut: LeftOut[],
  single: (item: Item, parent: Item) => ImportEntry & { sortKey: string },
): (ImportEntry & { sortKey: string })[] {
  const out: (ImportEntry & { sortKey: string })[] = [];
  const setOf = (r: Item) => `${String(r.name)}:${String(r.type)}`;
  for (const { item: zone } of zones) {
    if (zoneFilter && !zoneFilter.has(String(zone.id))) continue;
    const inZone = records.filter((r) => r.parent?.id === zone.id);
    const mixed = new Set<string>();
    for (const { item } of inZone) {
      const reason = recordLeftOut(item, owners);
      if (!reason) continue;
      mixed.add(setOf(item));
      leftOut.push({ type: RECORD, id: `${String(zone.id)}/${String(item.id)}`, reason });
    }
    const adopted = new Map<string, Set<string>>(); // name -> its adopted types
    const allTypes = new Map<string, Set<string>>();
    for (const { item } of inZone) {
      const name = String(item.name);
      (allTypes.get(name) ?? allTypes.set(name, new Set()).get(name)!).add(String(item.type));
      if (recordLeftOut(item, owners)) continue;
      if (mixed.has(setOf(item))) out.push(single(item, zone));
      else (adopted.get(name) ?? adopted.set(name, new Set()).get(name)!).add(String(item.type));
    }
    if (adopted.size === 0) continue;
    // Always the scoped form, never the bare zone id: the resource then keeps an id of its own,
    // and the program \`pulumi import\` writes refers to the imported zone instead of repeating its id.
    const scope = [...adopted]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([name, types]) =>
        types.size === allTypes.get(name)!.size ? [name] : [...types].sort().map((t) => `${name}:${t}`),
      );
    out.push({
      type: ZONE_RECORDS,
      id: `${String(zone.id)}/${scope.join(",")}`,
      name: "",
      sortKey: `${String(zone.name)}\u0000\u0000${String(zone.id)}`,
    });
  }
  return out;
}

/** An object's entry, named later (nameEntries) from the label at the front of its sort key. */
function entryOf(def: AnyResource, item: Item, parent: Item | undefined): ImportEntry & { sortKey: string } {
  const id = listedImportId(def, item, parent);
  return {
    type: def.token,
    id,
    name: "",
    sortKey: `${labelOf(def.list!, item, parent)}\u0000${sortKeyOf(item)}\u0000${id}`,
  };
}

/**
 * What orders objects that share a name: creation order (then the id, numbers by value), so an
 * object added later takes the next suffix and the names already in a program never move.
 */
function sortKeyOf(item: Item): string {
  const id = typeof item.id === "number" ? String(item.id).padStart(15, "0") : String(item.id ?? "");
  return `${String(item.created_at ?? "")}\u0000${id}`;
}

/**
 * Readable, unique names: the label made safe for a Pulumi name (and a program variable), with
 * `-2`, `-3`, ... only where several objects of one type share it, in a stable order.
 */
function nameEntries(entries: (ImportEntry & { sortKey: string })[]): void {
  const groups = new Map<string, (ImportEntry & { sortKey: string })[]>();
  for (const e of entries) {
    const base = slug(e.sortKey.split("\u0000")[0]!) || "object";
    const key = `${e.type}\u0000${base}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(e);
  }
  // Unique across types too: the program \`pulumi import\` writes names every object once, and
  // refers to an object (a record's zoneId to its zone) only when names and ids are unambiguous.
  // A type after the first to want a name adds its own (\`example-com-zone-records\`).
  const taken = new Set<string>();
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    const [type, label] = key.split("\u0000") as [string, string];
    const base = taken.has(label)
      ? `${label}-${slug(
          type
            .split(":")
            .pop()!
            .replace(/([a-z0-9])([A-Z])/g, "$1-$2"),
        )}`
      : label;
    group.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
    group.forEach((e, i) => {
      let name = i === 0 ? base : `${base}-${i + 1}`;
      // A label ending in "-2" of its own could meet a suffixed one: keep counting.
      for (let n = i + 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      e.name = name;
    });
  }
  entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : 1) : a.type < b.type ? -1 : 1));
}

function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}
