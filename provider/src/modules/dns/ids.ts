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

/**
 * A child of a zone, known as `<zoneId>/<child>`; a bare `<child>` is accepted when the zone is
 * known from the prior state. `childPattern` says what the child part may look like.
 */
export function zoneChildOf(token: string, id: string, form: string, childPattern: RegExp, zoneId?: string): { zoneId: string; child: string } {
  const slash = id.indexOf("/");
  if (slash > 0) {
    const zone = id.slice(0, slash);
    const child = id.slice(slash + 1);
    if (NUMERIC.test(zone) && childPattern.test(child)) return { zoneId: zone, child };
  } else if (zoneId !== undefined && NUMERIC.test(zoneId) && childPattern.test(id)) {
    return { zoneId, child: id };
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
