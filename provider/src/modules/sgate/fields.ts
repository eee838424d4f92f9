// Property schemas and id handling shared by the messaging-gateway resources, so a number or a
// language tag is validated the same way everywhere and a malformed id is a clear error instead
// of a request.
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/fields";

/** Messaging ids are opaque strings: no `/` or spaces. */
export const STRING_ID = /^[^/\s]+$/;
export const E164 = /^\+[1-9][0-9]{6,14}$/;
export const LANG = /^[a-z]{2}(-[A-Z]{2})?$/;

export const e164 = z.string().trim().regex(E164, "must be a number in E.164 form such as +12025550101");
export const lang = z.string().trim().regex(LANG, "must be a language tag such as en or en-US");

/** A reference to another messaging object by its string id. */
export function stringRef(description: string) {
  return z.string().regex(STRING_ID, "must be the id of an existing object").meta({ description });
}

/** Optional free text the program may drop (the update then clears it with null). */
export function optText(max: number, description: string) {
  return z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`).nullable().optional().meta({ description, create: true, patch: true });
}

/** Sent in the create body and, when changed, in the patch body. */
export const both = { create: true, patch: true } as const;

/** The wire schema of a messaging object: every declared field, and its string id. */
export function messagingWire<A extends z.ZodRawShape, S extends z.ZodRawShape>(args: z.ZodObject<A>, state: z.ZodObject<S>) {
  const api = wireModel(args, state, { id: z.string() });
  return { api, wire: api.wire as z.ZodType<Record<string, unknown> & { id: string }> };
}

export function idOf(token: string, id: string, form: string): string {
  if (!STRING_ID.test(id)) throw new Error(`${token}: id "${id}" must be ${form}`);
  return id;
}

/** An object of a list the API gives no GET of one item for (brands, campaigns, senders), through the refresh's shared list. */
export function findInList<T extends { id: string }>(ctx: OperationContext, path: string, id: string, schema: z.ZodType<T>): Promise<T | undefined> {
  return ctx.lists.find(path, id, schema, ctx.signal, async () => (await ctx.client.listAll(path, { itemSchema: schema, signal: ctx.signal })).find((item) => item.id === id));
}
