// The shape of an account's settings object: one per account at a fixed path (`/meet/settings`,
// `/org`), never created or deleted, read with GET and changed with PATCH. Its `resource` is the
// whole definition: a create adopts the account's object (patching what the program sets that
// differs), and a delete leaves it and says so.
import type { z } from "zod";
import { defineResource, type OperationContext, type ResourceDefinition } from "../../definition";
import { deepEqual } from "../../engine/diff";
import { wireModel, type WireModel } from "../fields";
import { type IdFormat, parseId } from "../ids";
import type { CollectionSpec, Item } from "./collection";

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

interface Singleton<A extends Shape, S extends Shape> {
  api: WireModel<A, S>;
  wire: z.ZodType<Item>;
  /** The spec's id check. */
  idOf(id: string): string;
  /** The object as the API returns it now. */
  get(ctx: OperationContext): Promise<Item>;
  /** The object's id and state now. */
  current(ctx: OperationContext): Promise<{ id: string; state: Out<A> & Out<S> }>;
  /** PATCHes `body` (in the API's names) and returns the object as the API answers. */
  patch(ctx: OperationContext, body: Record<string, unknown>): Promise<Item>;
  /** PATCHes the changed inputs the patch takes; nothing to send, nothing sent. */
  update<T extends object>(
    ctx: OperationContext,
    news: Out<A>,
    olds: T,
    changed: readonly string[],
  ): Promise<(Out<A> & Out<S>) | (T & Out<A>)>;
  /** Adopts the account's object: PATCHes the inputs the program sets that differ from it, else only reads it. */
  create(ctx: OperationContext, args: Out<A>): Promise<{ id: string; state: Out<A> & Out<S> }>;
  /**
   * The whole definition: its token, inputs and outputs, a read (the object now, gone when its id
   * is no longer the resource's), an update (a PATCH of the changed inputs), the create above and a
   * delete that leaves the object and warns that it stays; `given` overrides any of them.
   */
  resource(
    given: Omit<Parameters<typeof defineResource<A, S>>[0], "token" | "args" | "state" | "create" | "delete"> &
      Partial<Pick<Parameters<typeof defineResource<A, S>>[0], "create" | "delete">>,
  ): ResourceDefinition<A, S>;
}

/** A collection's spec, for the one object at `path`. */
export interface SingletonSpec<A extends Shape, S extends Shape>
  extends Pick<CollectionSpec<A, S>, "token" | "path" | "args" | "state" | "idOnWire"> {
  /** Its id, of one part, checked before any request: what the object is called, and the id's pattern. */
  id: IdFormat;
  /** The resource's id for the object as the API returns it: its own id, or the one name the account's only object has. */
  objectId(raw: Item): string;
  /** What stays of the object when the resource is deleted, for the delete's warning: `its name and slug`. */
  stays: string;
}

export function singleton<A extends Shape, S extends Shape>(spec: SingletonSpec<A, S>): Singleton<A, S> {
  const idOf = (id: string) => Object.values(parseId(spec.token, spec.id, id))[0] as string;
  const api = wireModel(spec.args, spec.state, spec.idOnWire ? { id: spec.idOnWire } : {});
  const wire = api.wire as z.ZodType<Item>;
  const get = (ctx: OperationContext) => ctx.client.get(spec.path, { schema: wire, signal: ctx.signal });
  const patch = (ctx: OperationContext, body: Record<string, unknown>) =>
    ctx.client.patch(spec.path, body, { schema: wire, signal: ctx.signal });
  const current = async (ctx: OperationContext) => {
    const raw = await get(ctx);
    return { id: spec.objectId(raw), state: api.toState(raw) };
  };
  const update = async <T extends object>(ctx: OperationContext, news: Out<A>, olds: T, changed: readonly string[]) => {
    const body = api.patchBody(news, changed);
    if (Object.keys(body).length === 0) return { ...olds, ...news };
    return api.toState(await patch(ctx, body));
  };
  const create = async (ctx: OperationContext, args: Out<A>) => {
    const now = await current(ctx);
    const state = now.state as Record<string, unknown>;
    const values = args as Record<string, unknown>;
    const changed = api
      .patchKeys(Object.keys(args))
      .filter((k) => values[k] !== undefined && !deepEqual(values[k], state[k]));
    if (changed.length === 0) return now;
    const raw = await patch(ctx, api.patchBody(args, changed));
    return { id: spec.objectId(raw), state: api.toState(raw) };
  };
  return {
    api,
    wire,
    idOf,
    get,
    current,
    patch,
    update,
    create,
    resource(given) {
      return defineResource<A, S>({
        token: spec.token,
        args: spec.args,
        state: spec.state,
        async read(ctx, id) {
          const wanted = idOf(id);
          const now = await current(ctx);
          // One object per account: another id means the stack's object is not this account's.
          return now.id === wanted ? now : undefined;
        },
        async update(ctx, id, news, olds, changed) {
          idOf(id);
          return update(ctx, news, olds, changed);
        },
        create,
        // The API has no delete: the engine is warned, since the program asked for one and the
        // object stays as it is.
        async delete(ctx, id) {
          idOf(id);
          ctx.log(
            "warning",
            `${spec.token}: the ${spec.id.what} ${id} cannot be deleted through the API; it is left in place, with ${spec.stays}`,
          );
        },
        ...given,
      });
    },
  };
}
