// The shape of an account's settings object: one per account at a fixed path (`/meet/settings`,
// `/org`), never created or deleted, read with GET and changed with PATCH. Its `resource` is the
// whole definition but for what the definition decides: how a create adopts the object and
// what a delete (which only forgets it) says.
import type { z } from "zod";
import { defineResource, type OperationContext, type ResourceDefinition } from "../../definition";
import { wireModel, type WireModel } from "../fields";
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
  /**
   * The whole definition but the create and the delete: its token, inputs and outputs, a read
   * (the object now, gone when its id is no longer the resource's) and an update (a PATCH of the
   * changed inputs).
   */
  resource(
    given: Omit<Parameters<typeof defineResource<A, S>>[0], "token" | "args" | "state">,
  ): ResourceDefinition<A, S>;
}

/** A collection's spec, for the one object at `path`; `idOf` checks an import's id before any request. */
export interface SingletonSpec<A extends Shape, S extends Shape>
  extends Pick<CollectionSpec<A, S>, "token" | "path" | "args" | "state" | "idOnWire"> {
  idOf(id: string): string;
  /** The resource's id for the object as the API returns it: its own id, or the one name the account's only object has. */
  objectId(raw: Item): string;
}

export function singleton<A extends Shape, S extends Shape>(spec: SingletonSpec<A, S>): Singleton<A, S> {
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
  return {
    api,
    wire,
    idOf: spec.idOf,
    get,
    current,
    patch,
    update,
    resource(given) {
      return defineResource<A, S>({
        token: spec.token,
        args: spec.args,
        state: spec.state,
        async read(ctx, id) {
          const wanted = spec.idOf(id);
          const now = await current(ctx);
          // One object per account: another id means the stack's object is not this account's.
          return now.id === wanted ? now : undefined;
        },
        async update(ctx, id, news, olds, changed) {
          spec.idOf(id);
          return update(ctx, news, olds, changed);
        },
        ...given,
      });
    },
  };
}
