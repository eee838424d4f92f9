import type { ApiClient } from "../client";
import { isApiError } from "../client";
import type { AnyResource } from "../framework/definition";
import { labelOf, listPath, listedImportId, slug } from "../framework/api/list-facts";
import type { ListFacts } from "../framework/definition";

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
  /** Type globs such as `nsp:<module>:*` or `nsp:<module>:<Kind>`; all types when empty. */
  types?: readonly string[];
  /** Zone names or ids: only objects of these zones (types that belong to no zone are dropped). */
  zones?: readonly string[];
  /**
   * A parent holding more objects than this is one object of their kind's `inBulk` kind (a zone
   * of records, one ZoneRecords), a smaller one one entry per object: 0 makes every parent one, Infinity none.
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
  /** Each zone's name by its id, for the zone files of its bulk entries. */
  zoneNames: Map<string, string>;
  /** The kinds of the entries that each hold a parent's objects (a large zone's records, as its zone file). */
  bulkTypes: Set<string>;
}

/** A kind to list: a resource's list facts, or a parent that is no resource (the services the API makes). */
type Source = ListFacts & { token: string };
type Row = { item: Item; parent?: Item };
type Entry = ImportEntry & { sortKey: string };

function sourcesOf(definitions: readonly AnyResource[]): Map<string, Source> {
  const out = new Map<string, Source>();
  for (const d of definitions) if (d.list) out.set(d.token, { ...d.list, token: d.token });
  for (const d of definitions) {
    const parent = d.list?.parent;
    if (parent?.path && !out.has(parent.token)) out.set(parent.token, { token: parent.token, path: parent.path });
  }
  return out;
}

/**
 * A parent of more objects than one page of the API's list (500) is one object of the kind's
 * `inBulk` kind by default (a zone's records, one ZoneRecords): beyond that a program of one
 * resource per object stops being read, and each resource costs the engine more than the API's
 * pages cost.
 */
export const DEFAULT_ZONE_RECORDS_ABOVE = 500;

/** What one run of discover knows: the kinds, the options, and what it listed and left out. */
interface Run {
  client: ApiClient;
  opts: DiscoverOptions;
  byToken: Map<string, AnyResource>;
  sourceOf: Map<string, Source>;
  /** The kind `--zone` names, where one declares it. */
  zoneKind?: Source;
  progress: (message: string) => void;
  listed: Map<string, Row[]>;
  zoneFilter?: Set<string>;
  leftOut: LeftOut[];
  unavailable: DiscoverResult["unavailable"];
  lists: number;
}

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
  const sourceOf = sourcesOf(definitions);
  const run: Run = {
    client,
    opts,
    byToken: new Map(definitions.map((d) => [d.token, d])),
    sourceOf,
    zoneKind: [...sourceOf.values()].find((s) => s.discovery?.zoneName),
    progress: opts.onProgress ?? (() => {}),
    listed: new Map(),
    leftOut: [],
    unavailable: [],
    lists: 0,
  };
  const selected = selectTypes(definitions, opts);
  await readAccount(run, neededKinds(run, selected));
  const owners = ownersOf(run);
  const bulked = bulkedParents(run);
  const entries = [...bulkEntries(run, bulked, owners), ...kindEntries(run, selected, bulked, owners)];
  nameEntries(entries);
  const zones = run.listed.get(run.zoneKind?.token ?? "") ?? [];
  return {
    file: { nameTable: {}, resources: entries.map(({ type, name, id }) => ({ type, name, id })) },
    leftOut: run.leftOut,
    notDiscovered: definitions
      .filter((d) => !d.list && !bulkKinds(run).has(d.token) && matchesTypes(d.token, opts.types))
      .map((d) => ({ type: d.token, reason: d.notListed ?? "no list in the API" })),
    unavailable: run.unavailable,
    zoneNames: new Map(zones.map(({ item }) => [String(item.id), run.zoneKind!.discovery!.zoneName!(item)])),
    bulkTypes: bulkKinds(run),
  };
}

/** Each kind that has an `inBulk` kind, with how many objects a parent holds beyond which it is one. */
function bulkThresholds(run: Run): Map<Source, number> {
  const out = new Map<Source, number>();
  for (const source of run.sourceOf.values()) {
    const bulk = source.discovery?.inBulk;
    if (!bulk || !matchesTypes(bulk.token, run.opts.types)) continue;
    // Only one of the two asked for: that one, whatever the size.
    const above = matchesTypes(source.token, run.opts.types)
      ? (run.opts.zoneRecordsAbove ?? DEFAULT_ZONE_RECORDS_ABOVE)
      : 0;
    if (above !== Infinity) out.set(source, above);
  }
  return out;
}

/** The `inBulk` kinds discovery may emit this run. */
function bulkKinds(run: Run): Set<string> {
  return new Set([...bulkThresholds(run).keys()].map((s) => s.discovery!.inBulk!.token));
}

/** Every kind to list: the selected ones, the parents they hang from, and what their emission needs. */
function neededKinds(run: Run, selected: ReadonlySet<string>): Set<string> {
  const needed = new Set<string>();
  const need = (token: string) => {
    const s = run.sourceOf.get(token);
    if (!s || needed.has(token)) return;
    needed.add(token);
    if (s.parent) need(s.parent.token);
  };
  for (const t of selected) need(t);
  for (const source of bulkThresholds(run).keys()) need(source.token);
  // Objects another kind publishes belong to it, so that kind is read with them.
  for (const s of run.sourceOf.values())
    if (s.discovery?.publishes && needed.has(s.discovery.publishes.token)) need(s.token);
  if (run.opts.zones?.length)
    for (const t of [...needed]) {
      const via = run.sourceOf.get(t)?.zoneVia;
      if (via) need(via);
    }
  return needed;
}

/** Lists every needed kind: the kinds without a parent first, then (under --zone, on those zones) every child kind at once. */
async function readAccount(run: Run, needed: ReadonlySet<string>): Promise<void> {
  const pool = limiter(run.opts.concurrency ?? 4);
  const kinds = [...needed].map((t) => run.sourceOf.get(t)!);
  await Promise.all(kinds.filter((s) => !s.parent).map((s) => pool(() => load(run, s, pool))));
  if (run.opts.zones?.length) run.zoneFilter = resolveZones(run, run.opts.zones);
  await Promise.all(kinds.filter((s) => s.parent).map((s) => load(run, s, pool)));
  run.progress(`read the account with ${run.lists} lists`);
}

/** One kind's objects: its list, or under a parent each parent's list (or the parent's own fields). */
async function load(run: Run, source: Source, pool: ReturnType<typeof limiter>): Promise<void> {
  if (run.listed.has(source.token)) return;
  const rows: Row[] = [];
  run.listed.set(source.token, rows);
  if (!source.parent) {
    for (const item of (await fetchList(run, source, source.path)) ?? []) rows.push({ item });
    return;
  }
  const parents = parentsOf(run, source);
  const { fromParent } = source;
  if (fromParent) {
    for (const { item: parent } of parents) for (const item of fromParent(parent)) rows.push({ item, parent });
    return;
  }
  await Promise.all(
    parents.map(({ item: parent }) =>
      pool(async () => {
        for (const item of (await fetchList(run, source, listPath(source.path, parent.id))) ?? [])
          rows.push({ item, parent });
      }),
    ),
  );
}

/** The listed parents that can hold the kind's objects; under --zone only those on its zones. */
function parentsOf(run: Run, source: Source): Row[] {
  const facts = source.parent!;
  const parents = (run.listed.get(facts.token) ?? []).filter((p) => facts.holds?.(p.item) ?? true);
  const parentSource = run.sourceOf.get(facts.token)!;
  return run.zoneFilter && parentSource.zoneOf ? parents.filter((p) => inZones(run, parentSource, p)) : parents;
}

function inZones(run: Run, source: Source, { item, parent }: Row): boolean {
  return run.zoneFilter!.has(String(source.zoneOf!(item, parent, (token, id) => find(run, token, id))));
}

function find(run: Run, token: string, id: unknown): Item | undefined {
  return id == null ? undefined : run.listed.get(token)?.find((r) => String(r.item.id) === String(id))?.item;
}

/** One list, all its pages; undefined when the account may not read it (module not enabled, ...). */
async function fetchList(run: Run, source: Source, path: string): Promise<Item[] | undefined> {
  try {
    const items = (await run.client.listAll(path, { signal: run.opts.signal })) as Item[];
    run.lists++;
    run.progress(`listed ${path}: ${items.length}`);
    return items;
  } catch (e) {
    if (isApiError(e) && [403, 404, 405, 409].includes(e.status)) {
      run.unavailable.push({
        type: source.token,
        path,
        reason: `${e.status} ${e.code}: ${e.serverMessage || e.message}`,
      });
      run.progress(`skipped ${path}: ${e.status} ${e.code}`);
      return undefined;
    }
    run.opts.onFailure?.();
    throw e;
  }
}

/**
 * A stack's state holds the id the resource's Read gave: the import id, or for some kinds the
 * object's own id alone, which names one object account-wide only where it is the API's id
 * (a route's local part is unique only within its domain).
 */
function trackedBy(run: Run, type: string, id: string): string | undefined {
  return (
    run.opts.tracked?.get(`${type} ${id}`) ??
    (run.byToken.get(type)?.list?.key ? undefined : run.opts.tracked?.get(`${type} ${id.split("/").pop()}`))
  );
}

/** Kind -> object id -> who else owns it: the object of another kind that publishes it, or another stack. */
function ownersOf(run: Run): Map<string, Map<string, string>> {
  const owners = new Map<string, Map<string, string>>();
  const of = (token: string) => owners.get(token) ?? owners.set(token, new Map()).get(token)!;
  for (const source of run.sourceOf.values()) {
    const publishes = source.discovery?.publishes;
    if (!publishes) continue;
    for (const { item } of run.listed.get(source.token) ?? [])
      for (const id of publishes.ids(item))
        of(publishes.token).set(
          String(id),
          `${publishes.what} ${String(item.name)} (${source.token} ${String(item.id)})`,
        );
  }
  // An object another stack manages is owned like a published one: no bulk object claims it.
  for (const source of bulkThresholds(run).keys()) {
    const owned = of(source.token);
    for (const { item, parent } of run.listed.get(source.token) ?? []) {
      const stack = trackedBy(run, source.token, listedImportId(run.byToken.get(source.token)!, item, parent));
      if (stack !== undefined && !owned.has(String(item.id))) owned.set(String(item.id), `stack ${stack}`);
    }
  }
  return owners;
}

/** Why an object is not its own entry: owned by another object or stack, or not the account's to import. */
function ownedOrNotImported(
  source: Source,
  owners: Map<string, Map<string, string>>,
  item: Item,
  parent: Item | undefined,
): string | undefined {
  const owner = owners.get(source.token)?.get(String(item.id));
  if (owner) return owner.startsWith("stack ") ? `tracked by ${owner}` : `published by ${owner}`;
  return source.discovery?.notImported?.(item, parent);
}

/** Kind -> the ids of the parents whose objects are one bulk object: those of more objects than the threshold. */
function bulkedParents(run: Run): Map<string, Set<unknown>> {
  const out = new Map<string, Set<unknown>>();
  for (const [source, above] of bulkThresholds(run)) {
    const sizes = new Map<unknown, number>();
    for (const { parent } of run.listed.get(source.token) ?? [])
      sizes.set(parent?.id, (sizes.get(parent?.id) ?? 0) + 1);
    const parents = (run.listed.get(source.parent!.token) ?? []).map(({ item }) => item.id);
    out.set(source.token, new Set(parents.filter((id) => (sizes.get(id) ?? 0) > above)));
  }
  return out;
}

/** The selected kinds' entries, each object's own, but for those left out (with the reason) or in a bulk object. */
function kindEntries(
  run: Run,
  selected: ReadonlySet<string>,
  bulked: Map<string, Set<unknown>>,
  owners: Map<string, Map<string, string>>,
): Entry[] {
  const entries: Entry[] = [];
  for (const token of selected) {
    const def = run.byToken.get(token)!;
    const source = run.sourceOf.get(token)!;
    for (const row of run.listed.get(token) ?? []) {
      const { item, parent } = row;
      if (bulked.get(token)?.has(parent?.id)) continue;
      if (run.zoneFilter && !inZones(run, source, row)) continue;
      const entry = entryOf(def, item, parent);
      const stack = trackedBy(run, token, entry.id);
      const reason =
        source.skip?.(item, parent) ??
        ownedOrNotImported(source, owners, item, parent) ??
        (stack === undefined ? undefined : `tracked by stack ${stack}`);
      if (reason !== undefined) run.leftOut.push({ type: token, id: entry.id, reason });
      else entries.push(entry);
    }
  }
  return entries;
}

/**
 * One bulk object per parent so chosen, adopting exactly the sets of objects no other resource
 * owns. A set that holds an object another resource owns (a TXT at the apex beside a mail
 * domain's SPF) cannot be in it: it would claim the owned object, or delete it as missing from
 * its list. Its other objects become one entry each.
 */
function bulkEntries(run: Run, bulked: Map<string, Set<unknown>>, owners: Map<string, Map<string, string>>): Entry[] {
  const out: Entry[] = [];
  for (const [token, parentIds] of bulked) {
    const source = run.sourceOf.get(token)!;
    const bulk = source.discovery!.inBulk!;
    const def = run.byToken.get(token)!;
    const parentSource = run.sourceOf.get(source.parent!.token)!;
    const rows = run.listed.get(token) ?? [];
    for (const parentRow of run.listed.get(parentSource.token) ?? []) {
      const parent = parentRow.item;
      if (!parentIds.has(parent.id) || (run.zoneFilter && !inZones(run, parentSource, parentRow))) continue;
      const inParent = rows.filter((r) => r.parent?.id === parent.id).map((r) => r.item);
      const mixed = new Set<string>();
      for (const item of inParent) {
        const reason = ownedOrNotImported(source, owners, item, parent);
        if (!reason) continue;
        mixed.add(bulk.setOf(item));
        run.leftOut.push({ type: token, id: listedImportId(def, item, parent), reason });
      }
      const adopted: Item[] = [];
      for (const item of inParent) {
        if (ownedOrNotImported(source, owners, item, parent)) continue;
        if (mixed.has(bulk.setOf(item))) out.push(entryOf(def, item, parent));
        else adopted.push(item);
      }
      if (adopted.length === 0) continue;
      const label = labelOf(parentSource, parent, parentRow.parent);
      const id = bulk.importId(parent, adopted, inParent);
      out.push({ type: bulk.token, id, name: "", sortKey: `${label}\u0000\u0000${String(parent.id)}` });
    }
  }
  return out;
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
      `--type ${unknown.join(", ")} matches no resource type of the provider (types look like nsp:<module>:<Kind> or nsp:<module>:*)`,
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

/** The ids of the zones `--zone` names, by id or name. */
function resolveZones(run: Run, wanted: readonly string[]): Set<string> {
  const zones = run.listed.get(run.zoneKind?.token ?? "") ?? [];
  const out = new Set<string>();
  for (const w of wanted) {
    const name = w.toLowerCase().replace(/\.$/, "");
    const zone = zones.find(
      ({ item }) => String(item.id) === w || run.zoneKind!.discovery!.zoneName!(item).toLowerCase() === name,
    );
    if (!zone) throw new Error(`--zone ${w}: the account has no such zone`);
    out.add(String(zone.item.id));
  }
  return out;
}

/** An object's entry, named later (nameEntries) from the label at the front of its sort key. */
function entryOf(def: AnyResource, item: Item, parent: Item | undefined): Entry {
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
function nameEntries(entries: Entry[]): void {
  const groups = new Map<string, Entry[]>();
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
