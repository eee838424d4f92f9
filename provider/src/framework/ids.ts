// The ids resources are known by, checked before they are put in a path, so that a malformed
// import id is a clear error instead of a request.
import { z } from "zod";
import type { OperationContext } from "./definition";

export { NUMERIC_ID, STRING_ID } from "./validators";

/**
 * A child known as `<parent>/<child>` (the import form), or by its own id when the parent is
 * known from the prior state; both parts must match their patterns.
 */
export function childIdOf(token: string, id: string, form: string, parent: RegExp, child: RegExp, knownParent?: string): { parent: string; child: string } {
  const slash = id.indexOf("/");
  if (slash > 0) {
    const p = id.slice(0, slash);
    const c = id.slice(slash + 1);
    if (parent.test(p) && child.test(c)) return { parent: p, child: c };
  } else if (knownParent !== undefined && parent.test(knownParent) && child.test(id)) {
    return { parent: knownParent, child: id };
  }
  throw new Error(`${token}: id "${id}" must have the form ${form}`);
}

const withId = z.looseObject({ id: z.union([z.number(), z.string()]) });

/**
 * At import, the parent of a child given by its own id alone: the id `pulumi stack --show-ids`
 * shows. The API reads such a child only under its parent, so the parents are listed and each
 * one's list of children is read (once per command, from the shared list cache); the id is
 * accepted when exactly one parent holds it. Undefined when none does.
 */
export async function parentHolding(
  ctx: OperationContext,
  token: string,
  childId: string,
  form: string,
  parents: { list: string; childList: (parentId: string) => string; /** Of the children's list. */ schema: z.ZodType<{ id: number | string }> },
): Promise<string | undefined> {
  const all = await ctx.client.listAll(parents.list, { itemSchema: withId, signal: ctx.signal });
  const holders: string[] = [];
  for (const p of all) if (await ctx.lists.holds(parents.childList(String(p.id)), childId, parents.schema, ctx.signal)) holders.push(String(p.id));
  if (holders.length > 1) throw new Error(`${token}: id "${childId}" is in several parents (${holders.join(", ")}); import it as ${form}`);
  return holders[0];
}

/** An id of digits as the path wants it; a malformed import id is an error before any request. */
export function digitsIdOf(token: string, id: string, what: string, form: string): string {
  if (!/^[1-9][0-9]*$/.test(id)) throw new Error(`${token}: "${id}" is not a ${what} id; import a ${what} by its numeric id (${form})`);
  return id;
}
