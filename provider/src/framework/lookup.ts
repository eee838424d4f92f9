// Functions that look up one existing object by name or by id (getZone, getDomain): the API has
// no filter by name, so a name is found in one paged listing.
import { z } from "zod";
import type { CheckFailure, OperationContext } from "./definition";
import { numericId } from "./wire";

/** The `name` and `id` arguments; `what` is what a person calls the object ("zone"). */
export function nameOrIdArgs(what: string, example: string) {
  return z.object({
    name: z
      .string()
      .trim()
      .toLowerCase()
      .transform((s) => s.replace(/\.$/, ""))
      .optional()
      .meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)} name, such as \`${example}\`.` }),
    id: numericId(`must be a numeric ${what} id`).optional().meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)} id.` }),
  });
}

export function checkNameOrId(args: { name?: string; id?: string }): CheckFailure[] {
  return (args.name === undefined) === (args.id === undefined) ? [{ property: "name", reason: "give exactly one of name or id" }] : [];
}

export async function findByNameOrId<T extends { name: string }>(
  ctx: OperationContext,
  lookup: { token: string; what: string; collection: string; wire: z.ZodType<T> },
  args: { name?: string; id?: string },
): Promise<T> {
  if (args.id !== undefined) return ctx.client.get(`${lookup.collection}/${args.id}`, { schema: lookup.wire, signal: ctx.signal });
  const all = await ctx.client.listAll(lookup.collection, { itemSchema: lookup.wire, signal: ctx.signal });
  const found = all.find((o) => o.name === args.name);
  if (!found) throw new Error(`${lookup.token}: no ${lookup.what} named "${args.name}" in this account (${all.length} ${lookup.what}s listed)`);
  return found;
}
