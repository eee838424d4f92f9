// The shape most objects of the API have: a collection at one path (`/pages/projects`), listed
// and created there (POST), each object read, patched and deleted at `<collection>/<id>`. A
// definition describes its collection once and writes its CRUD functions with these calls;
// what really differs between resources (a natural key for adoption, a follow-up call) stays
// in the definition, as the pieces it picks: how one object is read (read.ts) and how an object
// is known (identity.ts). A collection under a parent object is child-collection.ts.
import type { z } from "zod";
import { isApiError } from "../../../client";
import { defineResource, type ListFacts, type OperationContext, type ResourceDefinition } from "../../definition";
import { wireModel, type WireModel } from "../fields";
import type { Identity, Recovery } from "./identity";
import { byGet, fromSharedList, type Item, type Readable, type Reader } from "./read";

export type { Item } from "./read";
export { batched, byGet, fromList, fromSharedList } from "./read";
export { apiId, foundBy, keyedBy, naturalKey, postOnce, sameContent } from "./identity";
type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

export interface CollectionSpec<A extends Shape, S extends Shape> {
  token: string;
  /** The collection's path, such as `/pages/projects`. */
  path: string;
  args: z.ZodObject<A>;
  state: z.ZodObject<S>;
  /** The API's type of an object's `id`; unset when `id` is not a property the API returns. */
  idOnWire?: z.ZodType<string | number>;
  /** A wire model built otherwise (lists kept as text, services/text-lists.ts); idOnWire and wireExtras are then its own. */
  model?: WireModel<A, S>;
  /** Wire fields the answer always has although no input or output declares them so. */
  wireExtras?: Record<string, z.ZodType>;
  /**
   * The collection is one parent's (`/mail/domains/<id>/groups`): a list answered `not_found`
   * means the parent is gone, and its objects with it.
   */
  underParent?: boolean;
  /** Where one object is patched and deleted, when not under the collection (`/mail/groups`). */
  itemsAt?: string;
  /** Which value is the resource id, and its check (identity.ts: `apiId`, `keyedBy`). */
  id: Identity;
  /** How the resource reads one object (read.ts): `byGet` unless given. */
  read?: Reader;
  /** Adjusts (or refuses, by throwing) the state of an object the API returned. */
  adjust?(state: Out<A> & Out<S>, raw: Item): Out<A> & Out<S>;
  /** The create body, from the inputs' (where the API wants more). */
  createBody?(body: Record<string, unknown>, values: Out<A>): Record<string, unknown>;
  /** The patch body an update sends, from the changed inputs' (where the API wants more, or a cleared value). */
  patchBody?(
    patch: Record<string, unknown>,
    news: Out<A>,
    changed: readonly string[],
    api: WireModel<A, S>,
  ): Record<string, unknown>;
  /** A look at what a refresh found against the prior state, where a change made out of band deserves a warning. */
  afterRead?(ctx: OperationContext, state: Out<A> & Out<S>, prior: Partial<Out<A> & Out<S>>): void;
  /**
   * Calls an update makes after its patch (a password rotation) at the object's `path`; a patch
   * sent before is reported as progress, so that a failure here keeps what it changed.
   */
  afterUpdate?(
    ctx: OperationContext,
    object: { id: string; path: string },
    state: Out<A> & Out<S>,
    news: Out<A>,
    olds: Partial<Out<A> & Out<S>>,
    changed: readonly string[],
  ): Promise<Out<A> & Out<S>>;
  /** Why the API refuses a delete with `conflict` (something still uses the object), for the error, given the object's id. */
  inUse?(id: string): string;
}

export interface Collection<A extends Shape, S extends Shape> extends Readable {
  /** The collection's path: what a definition's list facts name as its list. */
  path: string;
  api: WireModel<A, S>;
  wire: z.ZodType<Item>;
  /** The spec's id check. */
  idOf(id: string): string;
  /** `<collection>/<id>`, the id checked and URL-encoded. */
  itemPath(id: string): string;
  toState(raw: Item): { id: string; state: Out<A> & Out<S> };
  list(ctx: OperationContext, query?: Record<string, string>): Promise<Item[]>;
  /**
   * POSTs the create body; when the answer is lost, `recovery` (identity.ts: `postOnce`,
   * `naturalKey`, `foundBy`, `sameContent`) finds the object that create made.
   */
  create(
    ctx: OperationContext,
    what: string,
    values: Out<A>,
    recovery: Recovery,
  ): Promise<{ id: string; state: Out<A> & Out<S> }>;
  /** GET of one object as the API returns it; undefined when it is gone. */
  get(ctx: OperationContext, id: string): Promise<Item | undefined>;
  /** GET of one object; undefined when it is gone. */
  read(ctx: OperationContext, id: string): Promise<{ id: string; state: Out<A> & Out<S> } | undefined>;
  /** For a collection without a GET of one object: the first listed object that `matches`. */
  readFromList(
    ctx: OperationContext,
    matches: (item: Item) => boolean,
  ): Promise<{ id: string; state: Out<A> & Out<S> } | undefined>;
  /**
   * For a collection without a GET of one object, by the API's id: from the list a refresh
   * reads once for all the objects of the collection (list-cache.ts).
   */
  readListed(ctx: OperationContext, id: string): Promise<{ id: string; state: Out<A> & Out<S> } | undefined>;
  /** PATCHes the changed inputs the patch takes; nothing to send, nothing sent. */
  update<T extends object>(
    ctx: OperationContext,
    id: string,
    news: Out<A>,
    olds: T,
    changed: readonly string[],
  ): Promise<(Out<A> & Out<S>) | (T & Out<A>)>;
  delete(ctx: OperationContext, id: string): Promise<void>;
  /** Reads one object with the spec's reader (a refresh gives its `prior` state to the spec's `afterRead`); undefined when it is gone. */
  readOne(
    ctx: OperationContext,
    id: string,
    prior?: Partial<Out<A> & Out<S>>,
  ): Promise<{ id: string; state: Out<A> & Out<S> } | undefined>;
  /** Whether any input is patched in place (declares the `patch` role): the API can PATCH the object. */
  patchable: boolean;
  /**
   * The whole definition of the resource whose objects these are: its token, inputs and outputs,
   * its list at the collection's path, a read (the spec's reader), an update (a PATCH of the changed
   * inputs) where the object is patchable, and a delete; `given` adds the rest (the create, what
   * else an update or a read does) and overrides any of them.
   */
  resource(given: ResourceOf<A, S>): ResourceDefinition<A, S>;
}

/**
 * What a collection's resource adds to the collection: the list facts need no path, and are
 * `false` where the API documents no list of the collection (only reads by id).
 */
export type ResourceOf<A extends Shape, S extends Shape> = Omit<
  Parameters<typeof defineResource<A, S>>[0],
  "token" | "args" | "state" | "list"
> & {
  list?: Omit<ListFacts<keyof A & string>, "path">;
};

/** The wire model a collection's spec describes: its own `model`, or the one its inputs, outputs, id and extras make. */
export function modelOf<A extends Shape, S extends Shape>(
  spec: Pick<CollectionSpec<A, S>, "args" | "state" | "idOnWire" | "model" | "wireExtras">,
): WireModel<A, S> {
  return (
    spec.model ??
    wireModel(spec.args, spec.state, { ...(spec.idOnWire ? { id: spec.idOnWire } : {}), ...spec.wireExtras })
  );
}

export function collection<A extends Shape, S extends Shape>(spec: CollectionSpec<A, S>): Collection<A, S> {
  const api = modelOf(spec);
  const wire = api.wire as z.ZodType<Item>;
  const { idOf } = spec.id;
  const reader = spec.read ?? byGet;
  const itemPath = (id: string) => `${spec.itemsAt ?? spec.path}/${encodeURIComponent(idOf(id))}`;
  const toState = (raw: Item) => {
    const parsed = api.toState(raw);
    const state = spec.adjust ? spec.adjust(parsed, raw) : parsed;
    return { id: spec.id.of(raw, state as Record<string, unknown>), state };
  };
  const list = async (ctx: OperationContext, query?: Record<string, string>) => {
    const options = { itemSchema: wire, signal: ctx.signal, ...(query ? { query } : {}) };
    return spec.underParent
      ? ((await ctx.client.listAllOrUndefined(spec.path, options)) ?? [])
      : ctx.client.listAll(spec.path, options);
  };
  const patchable = api.patchKeys(Object.keys(spec.args.shape)).length > 0;
  const withState = (raw: Item | undefined) => raw && toState(raw);
  return {
    path: spec.path,
    api,
    wire,
    patchable,
    idOf,
    itemPath,
    toState,
    list,
    async create(ctx, what, values, recovery) {
      const body = () => (spec.createBody ? spec.createBody(api.createBody(values), values) : api.createBody(values));
      const post = () => ctx.client.post(spec.path, body(), { schema: wire, signal: ctx.signal });
      return toState(await recovery.create(ctx, what, this, post));
    },
    get: (ctx, id) => ctx.client.getOrUndefined(itemPath(id), { schema: wire, signal: ctx.signal }),
    async read(ctx, id) {
      return withState(await byGet.read(this, ctx, id));
    },
    async readListed(ctx, id) {
      return withState(await fromSharedList().read(this, ctx, id));
    },
    async readFromList(ctx, matches) {
      return withState((await list(ctx)).find(matches));
    },
    async readOne(ctx, id, prior) {
      const found = withState(await reader.read(this, ctx, id));
      if (found && prior) spec.afterRead?.(ctx, found.state, prior);
      return found;
    },
    async update(ctx, id, news, olds, changed) {
      const changedBody = api.patchBody(news, changed);
      const patch = spec.patchBody ? spec.patchBody(changedBody, news, changed, api) : changedBody;
      const patched = Object.keys(patch).length > 0;
      const state = patched
        ? toState(await ctx.client.patch(itemPath(id), patch, { schema: wire, signal: ctx.signal })).state
        : { ...olds, ...news };
      if (!spec.afterUpdate) return state;
      if (patched) ctx.progress(id, state);
      return spec.afterUpdate(
        ctx,
        { id, path: itemPath(id) },
        state as Out<A> & Out<S>,
        news,
        olds as Partial<Out<A> & Out<S>>,
        changed,
      );
    },
    async delete(ctx, id) {
      // Another resource of this command adopted it (sameContent; the program renamed it): it is
      // theirs now. Only an adopting create hands an object over, so other collections never match.
      if (ctx.adoptions.handedOver(spec.path, idOf(id))) return;
      try {
        await ctx.client.delete(itemPath(id), { signal: ctx.signal });
      } catch (e) {
        if (spec.inUse && isApiError(e) && e.code === "conflict")
          throw new Error(`${spec.token}: ${spec.inUse(idOf(id))}: ${e.serverMessage || e.message}`, { cause: e });
        throw e;
      }
    },
    resource({ list: listed, ...given }) {
      return defineResource<A, S>({
        token: spec.token,
        args: spec.args,
        state: spec.state,
        read: (ctx, id, prior) => this.readOne(ctx, id, prior),
        ...(patchable ? { update: (ctx, id, news, olds, changed) => this.update(ctx, id, news, olds, changed) } : {}),
        delete: (ctx, id) => this.delete(ctx, id),
        ...given,
        ...(given.notListed ? {} : { list: { path: spec.path, ...listed } }),
      });
    },
  };
}
