// Property schemas and id handling shared by the messaging-gateway resources, so a number or a
// language tag is validated the same way everywhere and a malformed id is a clear error instead
// of a request.
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { createOnce } from "../../framework/create-once";
import { STRING_ID } from "../../framework/validators";

export const LANG = /^[a-z]{2}(-[A-Z]{2})?$/;

export const lang = z.string().trim().regex(LANG, "must be a language tag such as en or en-US");

/** Optional free text the program may drop (the update then clears it with null). */
export function optText(max: number, description: string) {
  return z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`).nullable().optional().meta({ description, create: true, patch: true });
}

/** Sent in the create body and, when changed, in the patch body. */
export const both = { create: true, patch: true } as const;

type Wire = Record<string, unknown> & { id: string };

/**
 * What the messaging objects (brands, campaigns, senders, templates, consents, broadcasts) do
 * alike: a collection with string ids; the wire model of the object; a create that adopts the
 * object a lost answer made (`lookup` finds it); the patch of the changed fields; the delete.
 */
export function messagingCollection<A extends z.ZodRawShape, S extends z.ZodRawShape>(token: string, collection: string, idForm: string, args: z.ZodObject<A>, state: z.ZodObject<S>) {
  const api = wireModel(args, state, { id: z.string() });
  const wire = api.wire as z.ZodType<Wire>;
  const checkedId = (id: string) => idOf(token, id, idForm);
  const path = (id: string) => `${collection}/${encodeURIComponent(checkedId(id))}`;
  const toState = (raw: Wire) => ({ id: raw.id, state: api.toState(raw) });
  return {
    api,
    wire,
    toState,
    checkedId,
    list: (ctx: OperationContext, query?: Record<string, string>) => ctx.client.listAll(collection, { itemSchema: wire, signal: ctx.signal, ...(query ? { query } : {}) }),
    async create(ctx: OperationContext, what: string, values: z.output<z.ZodObject<A>>, lookup: () => Promise<Wire | undefined>) {
      return toState(await createOnce(ctx, what, () => ctx.client.post(collection, api.createBody(values), { schema: wire, signal: ctx.signal }), lookup));
    },
    getOrUndefined: (ctx: OperationContext, id: string) => ctx.client.getOrUndefined(path(id), { schema: wire, signal: ctx.signal }),
    /** For the objects the API gives no GET of one item for, through the refresh's shared list. */
    async readFromList(ctx: OperationContext, id: string) {
      const found = await findInList(ctx, collection, checkedId(id), wire);
      return found && toState(found);
    },
    /** Patches `keys` (the changed fields the patch takes); nothing to send, nothing sent. */
    async update<T>(ctx: OperationContext, id: string, news: z.output<z.ZodObject<A>>, olds: T, keys: readonly string[]) {
      if (keys.length === 0) return { ...olds, ...news };
      return toState(await ctx.client.patch(path(id), api.patchBody(news, keys), { schema: wire, signal: ctx.signal })).state;
    },
    async delete(ctx: OperationContext, id: string) {
      await ctx.client.delete(path(id), { signal: ctx.signal });
    },
  };
}

export function idOf(token: string, id: string, form: string): string {
  if (!STRING_ID.test(id)) throw new Error(`${token}: id "${id}" must be ${form}`);
  return id;
}

/** An object of a list the API gives no GET of one item for (brands, campaigns, senders), through the refresh's shared list. */
export function findInList<T extends { id: string }>(ctx: OperationContext, path: string, id: string, schema: z.ZodType<T>): Promise<T | undefined> {
  return ctx.lists.find(path, id, schema, ctx.signal, async () => (await ctx.client.listAll(path, { itemSchema: schema, signal: ctx.signal })).find((item) => item.id === id));
}
