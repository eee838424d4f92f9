// How the API lists one kind of object, declared once in the kind's definition (its `list`):
// the list path, the parent and the input naming it, the field that is the object's own id and
// the filters the list can narrow by. nsp-discover, the natural key's look-ups (a conflict's
// message, the pending-creates recovery) and the plugin's List all read these facts.
import { DEFAULT_PAGE_SIZE as DEFAULT_LIST_PAGE, type ApiClient } from "../../client";
import type { ListedItem, ListFacts } from "../definition";
import { toWire, wireName } from "./wire";
import { ZodDefault, type z } from "zod";

type Item = ListedItem;

/**
 * What nsp-discover does with a kind's listed objects beyond importing each, declared by the kind
 * (its list facts' `discovery`) so that discovery names no kind of its own.
 */
export interface DiscoveryFacts {
  /** The kind is the one `--zone` names, by an object's id or by this name (compared without case or final dot). */
  zoneName?: (item: Item) => string;
  /**
   * Objects of another kind each object of this kind publishes (a mail domain's MX and SPF
   * records): theirs, so they are left out of the file, and this kind is listed with that one.
   */
  publishes?: { token: string; what: string; ids: (item: Item) => unknown[] };
  /** Why discovery leaves out an object a List shows (the service's own name servers). */
  notImported?: (item: Item, parent: Item | undefined) => string | undefined;
  /**
   * The objects under one parent may be one object of another kind instead (a zone's records one
   * `token` object, written as its zone file), for a parent of more objects than a threshold.
   * Objects of one set (`setOf`) all go into it or none does; `importId` is its import id, from
   * the objects it adopts among all the parent's.
   */
  inBulk?: {
    token: string;
    setOf: (item: Item) => string;
    importId: (parent: Item, adopted: readonly Item[], all: readonly Item[]) => string;
  };
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** The list path with the parent's id in its placeholder. */
export function listPath(path: string, parentId?: unknown): string {
  return path.replace(/\{[^}]+\}/g, () => {
    if (parentId === undefined || parentId === null || parentId === "")
      throw new Error(`the list ${path} needs its parent's id`);
    return encodeURIComponent(String(parentId));
  });
}

/** Whether the kind's list needs the parent's id (a child collection), or can list every parent (objects read off the parent). */
export function needsParent(facts: ListFacts): boolean {
  return /\{[^}]+\}/.test(facts.path);
}

/**
 * The id `pulumi import` takes, built from the definition's documented form: the last
 * placeholder is the object's own key, the one before it (if any) its parent's id.
 */
export function importIdOf(form: string, item: Item, parent: Item | undefined, key: string): string {
  const holes = form.match(/<[^>]+>/g) ?? [];
  const values = holes.length >= 2 ? [String(parent?.id), String(item[key])] : [String(item[key])];
  if (holes.length < 1 || holes.length > 2 || values.some((v) => v === "undefined" || v === "")) {
    throw new Error(`cannot build an import id of the form ${form} from the API's list`);
  }
  let i = 0;
  return form.replace(/<[^>]+>/g, () => values[i++]!);
}

/** What the list helpers read of a resource's definition; every ResourceDefinition is one. */
export interface ListedKind {
  token: string;
  importId: string;
  args: z.ZodObject<z.ZodRawShape>;
  list?: ListFacts;
}

/** The import id of one listed object of the kind. */
export function listedImportId(def: ListedKind, item: Item, parent: Item | undefined): string {
  return importIdOf(def.importId, item, parent, def.list?.key ?? "id");
}

/** What an object is called: the label its kind declares, else its name, hostname, handle or id (after its parent's). */
export function labelOf(facts: ListFacts, item: Item, parent: Item | undefined): string {
  if (facts.label) return facts.label(item, parent);
  const own = item.name ?? item.hostname ?? item.handle ?? item.id;
  return parent ? `${str(parent.name ?? parent.id)}-${str(own)}` : str(own);
}

/** Lower-case letters, digits and dashes; URLs lose their scheme and query (which may carry a secret). */
export function slug(label: string): string {
  const noUrl = label.replace(/^[a-z]+:\/\//i, "").replace(/[?#].*$/, "");
  return noUrl
    .toLowerCase()
    .replace(/@/g, "-at-")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** Whether an input's value and a listed object's field are the same value on the wire. */
function sameOnWire(want: unknown, have: unknown): boolean {
  if (want === undefined || want === null) return have === undefined || have === null;
  if (typeof want === "object" || typeof have === "object") return JSON.stringify(want) === JSON.stringify(have);
  return String(want) === String(have);
}

/** Whether a listed object has the value of every input given (inputs already checked). */
export function matchesInputs(def: ListedKind, item: Item, args: Item, keys: readonly string[]): boolean {
  const shape = def.args.shape as Record<string, z.ZodType>;
  return keys.every((k) => sameOnWire(toWire(shape[k]!, args[k]), item[wireName(k, shape[k])]));
}

/**
 * Every object of the kind under one parent (or the whole account for a kind without one), with
 * the parent object where the kind is read off it. Undefined when the parent is gone.
 */
export async function listUnder(
  def: ListedKind,
  client: ApiClient,
  parentId: unknown,
  signal?: AbortSignal,
): Promise<{ items: Item[]; parent?: Item } | undefined> {
  const facts = def.list!;
  if (facts.fromParent) {
    const parents = (await client.listAll(facts.path, { signal })) as Item[];
    const parent = parents.find((p) => String(p.id) === String(parentId));
    return parent ? { items: facts.fromParent(parent), parent } : undefined;
  }
  const items = (await client.listAllOrUndefined(listPath(facts.path, parentId), { signal })) as Item[] | undefined;
  return items && { items, ...(facts.parent ? { parent: { id: parentId } } : {}) };
}

/**
 * The inputs a List of the kind takes, as schema.json publishes them (`listInputs`): the
 * parent's id, required where the API lists the kind only under a parent, and the filters.
 */
export function listInputsOf(def: ListedKind): { shape: Record<string, z.ZodType>; required: string[] } {
  const facts = def.list!;
  const args = def.args.shape as Record<string, z.ZodType>;
  const shape: Record<string, z.ZodType> = {};
  const required: string[] = [];
  const parentInput = facts.parent?.input;
  if (parentInput) {
    shape[parentInput] = needsParent(facts) ? args[parentInput]! : args[parentInput]!.optional();
    if (needsParent(facts)) required.push(parentInput);
  }
  // A filter not given filters nothing: an input's default (a record's name `@`) does not apply.
  for (const key of Object.keys(facts.filters ?? {})) shape[key] = withoutDefault(args[key]!).optional();
  return { shape, required };
}

function withoutDefault(field: z.ZodType): z.ZodType {
  return field instanceof ZodDefault ? withoutDefault(field.unwrap() as z.ZodType) : field;
}

/** One object a List found: the id `pulumi import` takes and a readable name. */
export interface ListedObject {
  id: string;
  name: string;
}

export interface ListPageOptions {
  /** Where the previous page ended (the continuation token it returned); empty for the first. */
  continuation?: string;
  /** At most this many objects (the API is asked for no more). */
  limit?: number;
  /** The page size the caller would like; the API's own (500) when larger or not given. */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * One page of a List: one request to the API's list (the page the continuation token names),
 * and the token of the next page, undefined after the last. `query` holds checked list inputs.
 */
export async function listKindPage(
  def: ListedKind,
  client: ApiClient,
  query: Item,
  opts: ListPageOptions = {},
): Promise<{ objects: ListedObject[]; continuation?: string }> {
  const facts = def.list!;
  const shape = def.args.shape as Record<string, z.ZodType>;
  const parentInput = facts.parent?.input;
  const parentId =
    parentInput && query[parentInput] !== undefined ? toWire(shape[parentInput]!, query[parentInput]) : undefined;
  const token = opts.continuation ?? "";
  if (!/^\d*$/.test(token))
    throw new Error(`${def.token}: continuation token "${token}" is not one this provider gave`);
  const offset = token === "" ? 0 : Number(token);
  const apiQuery: Record<string, string> = {};
  const matched: string[] = [];
  for (const [key, how] of Object.entries(facts.filters ?? {})) {
    if (query[key] === undefined || query[key] === null) continue;
    if (how === "query") apiQuery[wireName(key, shape[key])] = String(toWire(shape[key]!, query[key]));
    else matched.push(key);
  }
  const page = await client.listPage<Item>(facts.fromParent ? facts.path : listPath(facts.path, parentId), offset, {
    ...(Object.keys(apiQuery).length ? { query: apiQuery } : {}),
    pageSize: Math.min(
      DEFAULT_LIST_PAGE,
      ...[opts.limit, opts.pageSize].filter((n): n is number => n !== undefined && n > 0),
    ),
    signal: opts.signal,
  });
  const rows: { item: Item; parent?: Item }[] = facts.fromParent
    ? page.items
        .filter((p) => parentId === undefined || String(p.id) === String(parentId))
        .flatMap((p) => facts.fromParent!(p).map((item) => ({ item, parent: p })))
    : page.items.map((item) => ({ item, ...(facts.parent ? { parent: { id: parentId } } : {}) }));
  const objects = rows
    .filter(({ item, parent }) => !facts.skip?.(item, parent) && matchesInputs(def, item, query, matched))
    .map(({ item, parent }) => {
      const id = listedImportId(def, item, parent);
      // A child's label names its parent, which a page of children does not hold: only its id.
      return { id, name: slug(labelOf(facts, item, parent && { name: "", handle: "", ...parent })) || slug(id) };
    });
  return { objects, ...(page.nextOffset !== null ? { continuation: String(page.nextOffset) } : {}) };
}
