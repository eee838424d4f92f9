// Functions that look up one existing object by name or by id (getZone, getDomain): the API has
// no filter by name, so a name is found in one paged listing.
import { z } from "zod";
import { defineFunction, type CheckFailure, type OperationContext } from "../definition";
import { fromWire, numericId } from "./wire";

/** The `name` and `id` arguments; `what` is what a person calls the object ("zone"). */
function nameOrIdArgs(what: string, example: string) {
  return z.object({
    name: z
      .string()
      .trim()
      .toLowerCase()
      .transform((s) => s.replace(/\.$/, ""))
      .optional()
      .meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)} name, such as \`${example}\`.` }),
    id: numericId(`must be a numeric ${what} id`)
      .optional()
      .meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)} id.` }),
  });
}

function checkNameOrId(args: { name?: string; id?: string }): CheckFailure[] {
  return (args.name === undefined) === (args.id === undefined)
    ? [{ property: "name", reason: "give exactly one of name or id" }]
    : [];
}

async function findByNameOrId<T extends { name: string }>(
  ctx: OperationContext,
  lookup: { token: string; what: string; collection: string; wire: z.ZodType<T> },
  args: { name?: string; id?: string },
): Promise<T> {
  if (args.id !== undefined)
    return ctx.client.get(`${lookup.collection}/${args.id}`, { schema: lookup.wire, signal: ctx.signal });
  const all = await ctx.client.listAll(lookup.collection, { itemSchema: lookup.wire, signal: ctx.signal });
  const found = all.find((o) => o.name === args.name);
  if (!found)
    throw new Error(
      `${lookup.token}: no ${lookup.what} named "${args.name}" in this account (${all.length} ${lookup.what}s listed)`,
    );
  return found;
}

/**
 * The whole function: `name` or `id` in, the object's properties (those of its resource) and its
 * id out.
 */
export function defineLookup<T extends { name: string }, P extends z.ZodRawShape>(spec: {
  token: string;
  since?: string;
  description: string;
  /** What a person calls the object, and a name of one: `zone`, `example.com`. */
  what: string;
  example: string;
  collection: string;
  wire: z.ZodType<T>;
  properties: z.ZodObject<P>;
  idDescription: string;
}) {
  const result = spec.properties.extend({ id: z.string().meta({ description: spec.idDescription }) });
  return defineFunction({
    token: spec.token,
    since: spec.since,
    description: spec.description,
    args: nameOrIdArgs(spec.what, spec.example),
    result,
    check: checkNameOrId,
    async invoke(ctx, args) {
      const found = await findByNameOrId(ctx, spec, args);
      return fromWire(result, found) as z.output<typeof result>;
    },
  });
}
