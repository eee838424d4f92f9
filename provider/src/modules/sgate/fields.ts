// Property schemas and id handling shared by the messaging-gateway resources, so a number or a
// language tag is validated the same way everywhere and a malformed id is a clear error instead
// of a request.
import { z } from "zod";
import { apiId, collection } from "../../framework/api/shapes/collection";
import type { Reader } from "../../framework/api/shapes/read";
import { ownIdOf, STRING_ID, type IdKind } from "../../framework/api/ids";

export const LANG = /^[a-z]{2}(-[A-Z]{2})?$/;

export const lang = z.string().trim().regex(LANG, "must be a language tag such as en or en-US");

/** Optional free text the program may drop (the update then clears it with null). */
export function optText(max: number, description: string) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional()
    .meta({ description, create: true, patch: true });
}

/** Sent in the create body and, when changed, in the patch body. */
export const both = { create: true, patch: true } as const;

/**
 * The messaging objects (brands, campaigns, senders, templates, consents, broadcasts) are
 * top-level collections with string ids; `read` as the collection's reader.
 */
export function messagingCollection<A extends z.ZodRawShape, S extends z.ZodRawShape>(
  token: string,
  path: string,
  id: Omit<IdKind, "pattern">,
  args: z.ZodObject<A>,
  state: z.ZodObject<S>,
  read?: Reader,
) {
  return collection({
    token,
    path,
    args,
    state,
    idOnWire: z.string(),
    id: apiId((given) => ownIdOf(token, given, { ...id, pattern: STRING_ID })),
    ...(read ? { read } : {}),
  });
}
