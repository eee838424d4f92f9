// The shape of an account's settings object: one per account at a fixed path (`/meet/settings`,
// `/org`), never created or deleted, read with GET and changed with PATCH. The definition
// decides how a create adopts it and what a delete says; the reads and patches are here.
import { z } from "zod";
import type { OperationContext } from "../../definition";
import { wireModel, type WireModel } from "../fields";
import type { Item } from "./collection";

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

interface Singleton<A extends Shape, S extends Shape> {
  api: WireModel<A, S>;
  wire: z.ZodType<Item>;
  /** The object as the API returns it now. */
  get(ctx: OperationContext): Promise<Item>;
  /** PATCHes `body` (in the API's names) and returns the object as the API answers. */
  patch(ctx: OperationContext, body: Record<string, unknown>): Promise<Item>;
  /** PATCHes the changed inputs the patch takes; nothing to send, nothing sent. */
  update<T extends object>(ctx: OperationContext, news: Out<A>, olds: T, changed: readonly string[]): Promise<(Out<A> & Out<S>) | (T & Out<A>)>;
}

export function singleton<A extends Shape, S extends Shape>(spec: { path: string; args: z.ZodObject<A>; state: z.ZodObject<S>; idOnWire?: z.ZodType<string | number> }): Singleton<A, S> {
  const api = wireModel(spec.args, spec.state, spec.idOnWire ? { id: spec.idOnWire } : {});
  const wire = api.wire as z.ZodType<Item>;
  const patch = (ctx: OperationContext, body: Record<string, unknown>) => ctx.client.patch(spec.path, body, { schema: wire, signal: ctx.signal });
  return {
    api,
    wire,
    get: (ctx) => ctx.client.get(spec.path, { schema: wire, signal: ctx.signal }),
    patch,
    async update(ctx, news, olds, changed) {
      const body = api.patchBody(news, changed);
      if (Object.keys(body).length === 0) return { ...olds, ...news };
      return api.toState(await patch(ctx, body));
    },
  };
}
