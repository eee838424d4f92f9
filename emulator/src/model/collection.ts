// The API's recurring shapes of endpoint, each declared once: a collection of rows (list, create,
// get, patch, delete), the same under a parent (ownership through the parent), and a singleton
// settings object (GET and PATCH or PUT). An area declares what differs (its table, its view,
// its schemas and the few rules of its rows) and gets plain `route()` declarations back; routes
// that are not CRUD stay plain `route()` declarations beside them.
import type { z } from "zod";
import { ApiError, notFound } from "../pipeline/errors";
import { paginate, pagingOnlyQuery } from "./paging";
import { type Ctx, type Env, type HttpMethod, type Route, route } from "../pipeline/route";

type RowId = number | string;

/** A row of a collection: its id and the account that owns it. */
export interface OwnedRow {
  id: RowId;
  account: string;
}

/** The key a row is stored under: its `id`, or what the collection's `key` names. */
export type KeyOf<Row> = Row extends { id: infer K extends RowId } ? K : RowId;

/** The part of a request every hook may rely on, whatever the path's params. */
export type AccountEnv = Env & { account: { name: string } };

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A parent that owns the rows of a child collection (a zone's ranges, a domain's mailboxes). */
export interface ParentSpec<P extends string, Parent extends { id: RowId }, Row> {
  /** The parent named by the collection path, as the caller owns it (not_found otherwise). */
  own: (ctx: Ctx<P, unknown, unknown>) => Parent;
  /** The id of the parent a row belongs to. */
  of: (row: Row) => RowId;
}

export interface CollectionSpec<
  P extends string,
  I extends string,
  Row extends object,
  Parent extends { id: RowId },
  CS extends z.ZodType | undefined,
  PS extends z.ZodType | undefined,
  QS extends z.ZodType,
> {
  /** The collection, e.g. `/verify/sites` or `/dns/zones/:id/ranges`. */
  path: P;
  /** One row; its last segment names the row's id. Default `<path>/:id`. */
  item?: I;
  /** The noun of the not_found message: `verify site not found`. */
  what: string;
  /** The key of a row that has no `id` (a member's `sub`, a customer's reference). */
  key?: (row: Row) => RowId;
  /** The table holds the caller's rows only (it is found through the account): no row is checked for its owner. */
  perAccount?: boolean;
  /** Runs first in every route of the collection (who may use these endpoints at all). */
  guard?: (ctx: AccountEnv) => void;
  /** The writes are also open to `link`-scope tokens. */
  linkWrite?: boolean;
  table: (ctx: AccountEnv) => Map<KeyOf<Row>, Row>;
  view: (row: Row, ctx: AccountEnv) => unknown;
  /** A child collection: rows are listed and created under the parent the path names. */
  parent?: ParentSpec<P, Parent, Row>;
  /** How the item routes find their row, when not by id and account (or parent). */
  own?: (ctx: Ctx<I, unknown, unknown>, id: KeyOf<Row>) => Row;
  /** GET <path>: paged. `false` when the API has no list; `rows` when it filters. */
  list?:
    | false
    | {
        query?: QS;
        rows?: (ctx: Ctx<P, undefined, Out<QS>>) => Row[];
        view?: (row: Row, ctx: AccountEnv) => unknown;
      };
  /** POST <path>: `build` checks the body and returns the new row, which is then stored. */
  create?: {
    body: CS;
    /** Checks of the body alone, made before the parent is looked up. */
    check?: (ctx: Ctx<P, Out<CS>, undefined>) => void;
    build: (ctx: Ctx<P, Out<CS>, undefined>, parent: Parent) => Row;
    /** How many rows an account may hold; checked once the body is found good, before the row is stored. */
    limit?: { max: number; what: string };
    /** The answer when it shows more than the view (a secret shown once). */
    answer?: (row: Row, ctx: AccountEnv) => unknown;
  };
  /** GET <item>; default true. */
  get?: boolean | ((row: Row, ctx: AccountEnv) => unknown);
  /** PATCH (or PUT) <item>: `apply` changes the row found; the answer is the view. */
  patch?: {
    method?: "PATCH" | "PUT";
    body: PS;
    /** Checks of the body alone, made before the row is looked up (bad input beats not_found). */
    check?: (ctx: Ctx<I, Out<PS>, undefined>) => void;
    apply: (ctx: Ctx<I, Out<PS>, undefined>, row: Row) => void;
  };
  /** DELETE <item>; `true` removes the row from its table, a function also removes what hangs off it. */
  remove?: boolean | ((ctx: Ctx<I, undefined, undefined>, row: Row) => void);
}

export interface Collection<I extends string, Row extends object> {
  routes: Route[];
  /** The row an item path names, as the item routes find it; for the area's other routes. */
  own: (ctx: Ctx<I, unknown, unknown>, id: KeyOf<Row>) => Row;
  /** A route below one row (`<item>/<suffix>`, e.g. POST .../rotate); `handle` gets the row found. */
  member<S extends string, BS extends z.ZodType | undefined = undefined, QS extends z.ZodType | undefined = undefined>(
    method: HttpMethod,
    suffix: S,
    handle: (row: Row, ctx: Ctx<`${I}/${S}`, Out<BS>, Out<QS>>) => unknown,
    schemas?: { body?: BS; query?: QS; maxBodyBytes?: number },
  ): Route;
}

/** Declares a collection's CRUD routes; see CollectionSpec for what each hook does. */
export function collection<
  P extends string,
  Row extends object,
  CS extends z.ZodType | undefined = undefined,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType = typeof pagingOnlyQuery,
  Parent extends { id: RowId } = never,
  I extends string = `${P}/:id`,
>(spec: CollectionSpec<P, I, Row, Parent, CS, PS, QS>): Collection<I, Row> {
  const item = (spec.item ?? `${spec.path}/:id`) as I;
  const idParam = (item.split("/").pop() as string).replace(/^:|^\{|\}$/g, "");
  const nested = spec.parent !== undefined && item.startsWith(`${spec.path}/`);
  const { what, table, view, parent } = spec;
  const keyOf = (row: Row) => (spec.key ? spec.key(row) : (row as unknown as OwnedRow).id) as KeyOf<Row>;
  const accountOf = (row: Row) => (row as unknown as OwnedRow).account;

  const own = (ctx: Ctx<I, unknown, unknown>, id: KeyOf<Row>): Row => {
    if (spec.own) return spec.own(ctx, id);
    const owner = nested
      ? (parent as ParentSpec<P, Parent, Row>).own(ctx as unknown as Ctx<P, unknown, unknown>)
      : undefined;
    const row = table(ctx).get(id);
    if (!row || (owner ? parent?.of(row) !== owner.id : !spec.perAccount && accountOf(row) !== ctx.account.name))
      throw notFound(what);
    return row;
  };
  const ownItem = (ctx: Ctx<I, unknown, unknown>): Row =>
    own(ctx, (ctx.params as Record<string, RowId>)[idParam] as KeyOf<Row>);

  const routes: Route[] = [];
  const declare = (method: HttpMethod, path: string, def: Omit<Route, "method" | "path" | "scope">) => {
    const write = method !== "GET";
    const { handler } = def;
    return route({
      method,
      path,
      scope: write ? "write" : "read",
      ...(write && spec.linkWrite ? { linkWrite: true } : {}),
      ...def,
      handler: spec.guard
        ? (ctx: Parameters<typeof handler>[0]) => {
            spec.guard?.(ctx as unknown as AccountEnv);
            return handler(ctx);
          }
        : handler,
    } as Parameters<typeof route>[0]);
  };
  const add = (method: HttpMethod, path: string, def: Omit<Route, "method" | "path" | "scope">) =>
    routes.push(declare(method, path, def));

  if (spec.list !== false) {
    const list = spec.list ?? {};
    const listView = list.view ?? view;
    add("GET", spec.path, {
      query: list.query ?? pagingOnlyQuery,
      handler: (raw) => {
        const ctx = raw as unknown as Ctx<P, undefined, Out<QS>>;
        let rows: Row[];
        if (list.rows) rows = list.rows(ctx);
        else if (parent) {
          const owner = parent.own(ctx);
          rows = [...table(ctx).values()].filter((r) => parent.of(r) === owner.id);
        } else rows = [...table(ctx).values()].filter((r) => spec.perAccount || accountOf(r) === ctx.account.name);
        return paginate(rows, ctx.query as { limit?: number; offset?: number }, (r) => listView(r, ctx));
      },
    });
  }

  const create = spec.create;
  if (create) {
    add("POST", spec.path, {
      body: create.body,
      handler: (raw) => {
        const ctx = raw as unknown as Ctx<P, Out<CS>, undefined>;
        create.check?.(ctx);
        const row = create.build(ctx, (parent ? parent.own(ctx as Ctx<P, unknown, unknown>) : undefined) as Parent);
        const limit = create.limit;
        if (limit && [...table(ctx).values()].filter((r) => accountOf(r) === ctx.account.name).length >= limit.max) {
          throw new ApiError(
            "limit_exceeded",
            `an account may have at most ${limit.max} ${limit.what}; delete one first`,
          );
        }
        table(ctx).set(keyOf(row), row);
        ctx.status(201);
        return (create.answer ?? view)(row, ctx);
      },
    });
  }

  if (spec.get !== false) {
    const getView = typeof spec.get === "function" ? spec.get : view;
    add("GET", item, { handler: (raw) => getView(ownItem(raw as unknown as Ctx<I, unknown, unknown>), raw) });
  }

  const patch = spec.patch;
  if (patch) {
    add(patch.method ?? "PATCH", item, {
      body: patch.body,
      handler: (raw) => {
        const ctx = raw as unknown as Ctx<I, Out<PS>, undefined>;
        patch.check?.(ctx);
        const row = ownItem(ctx);
        patch.apply(ctx, row);
        return view(row, ctx);
      },
    });
  }

  const remove = spec.remove;
  if (remove) {
    add("DELETE", item, {
      handler: (raw) => {
        const ctx = raw as unknown as Ctx<I, undefined, undefined>;
        const row = ownItem(ctx);
        if (typeof remove === "function") remove(ctx, row);
        table(ctx).delete(keyOf(row));
        return undefined;
      },
    });
  }

  const member: Collection<I, Row>["member"] = (method, suffix, handle, schemas = {}) =>
    declare(method, `${item}/${suffix}`, {
      ...schemas,
      handler: (ctx) => handle(ownItem(ctx as unknown as Ctx<I, unknown, unknown>), ctx as never),
    } as Omit<Route, "method" | "path" | "scope">);

  return { routes, own, member };
}

/** A singleton settings object at `path`: GET reads it, PATCH (or PUT) changes it and answers it. */
export function settings<P extends string, BS extends z.ZodType>(spec: {
  path: P;
  method?: "PATCH" | "PUT";
  read: (ctx: Ctx<P, undefined, undefined>) => unknown;
  body: BS;
  write: (ctx: Ctx<P, z.output<BS>, undefined>) => unknown;
  /** The write is also open to `link`-scope tokens. */
  linkWrite?: boolean;
}): Route[] {
  return [
    route({ method: "GET", path: spec.path, scope: "read", handler: spec.read }),
    route({
      method: spec.method ?? "PATCH",
      path: spec.path,
      scope: "write",
      ...(spec.linkWrite ? { linkWrite: true } : {}),
      body: spec.body as z.ZodType,
      handler: (ctx) => spec.write(ctx as Ctx<P, z.output<BS>, undefined>),
    }),
  ];
}

/** Refuses a name another row of the account already has, whatever its case. */
export function checkUniqueName(
  rows: Iterable<{ id: RowId; name: string }>,
  value: string,
  noun: string,
  self?: RowId,
): void {
  for (const row of rows) {
    if (row.id !== self && row.name.toLowerCase() === value.toLowerCase()) {
      throw new ApiError("conflict", `name: ${noun} named ${row.name} already exists (id ${row.id})`);
    }
  }
}

/** Copies the fields of a PATCH body that are present onto the row; absent ones keep their value. */
export function assignDefined<R extends object, B extends object>(
  row: R,
  body: B,
  keys: ReadonlyArray<keyof B & keyof R>,
): void {
  for (const k of keys) {
    const v = body[k];
    if (v !== undefined) (row as Record<PropertyKey, unknown>)[k as PropertyKey] = v;
  }
}

/**
 * A PATCH body onto its row when every field of the body is a column of the row (the rooms, IX
 * members, destinations, voice numbers, meeting settings): present fields replace, absent ones
 * keep. Bodies with fields that are not columns name their keys to assignDefined instead.
 */
export function assignPresent<R extends object>(row: R, body: Partial<R>): void {
  assignDefined<R, Partial<R>>(row, body, Object.keys(body) as Array<keyof R>);
}

// Member handlers for what the emulator never holds: the sessions, recordings and usage that only
// real media traffic would make. A list of them is an empty page and one of them is not found;
// as member routes of a room or channel, the caller is first shown to own it, as the API would.

/** An empty page, whatever row it hangs under. */
export const emptyPage = (_row: unknown, ctx: { query: { limit?: number; offset?: number } }) =>
  paginate([], ctx.query);

/** `<what> not found`, for any request. */
export const neverHeld = (what: string) => (): never => {
  throw notFound(what);
};
