import type { z } from "zod";
import { isNotFound } from "../../client";
import type { OperationContext } from "../../framework/definition";

// Parsing of the ids the DNS resources are known by, checked before they are put in a path so
// that a malformed import id is a clear error instead of a request.

const NUMERIC = /^[1-9][0-9]{0,15}$/;

/** A resource whose id is its zone's id (the zone's settings, its verification). */
export function zoneIdOf(token: string, id: string): string {
  if (!NUMERIC.test(id)) throw new Error(`${token}: id "${id}" must be a numeric zone id (<zoneId>)`);
  return id;
}

/** Numeric ids, as most objects of the API have. */
export const NUMERIC_ID = NUMERIC;

/**
 * A child of a parent object (a zone's record, a CA's ROA), known as `<parentId>/<child>`; a bare
 * `<child>` is accepted when the parent is known from the prior state. `childPattern` says what
 * the child part may look like.
 */
export function childIdOf(token: string, id: string, form: string, childPattern: RegExp, parentId?: string): { parentId: string; child: string } {
  const slash = id.indexOf("/");
  if (slash > 0) {
    const parent = id.slice(0, slash);
    const child = id.slice(slash + 1);
    if (NUMERIC.test(parent) && childPattern.test(child)) return { parentId: parent, child };
  } else if (parentId !== undefined && NUMERIC.test(parentId) && childPattern.test(id)) {
    return { parentId, child: id };
  }
  throw new Error(`${token}: id "${id}" must have the form ${form}`);
}

/**
 * The whole list at `path`, or undefined when its parent is gone: for children the API has no
 * GET of one for, a Read finds them in their parent's list (the client's getOrUndefined for a list).
 */
export async function listOrUndefined<T>(ctx: OperationContext, path: string, itemSchema: z.ZodType<T>): Promise<T[] | undefined> {
  try {
    return await ctx.client.listAll(path, { itemSchema, signal: ctx.signal });
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
