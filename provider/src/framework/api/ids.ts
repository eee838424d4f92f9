// The ids resources are known by, checked before they are put in a path, so that a malformed
// import id is a clear error instead of a request.
import { z } from "zod";
import type { OperationContext } from "../definition";
import { NUMERIC_ID } from "./validators";

export { NUMERIC_ID, STRING_ID } from "./validators";

/**
 * A child known as `<parent>/<child>` (the import form), or by its own id when the parent is
 * known from the prior state; both parts must match their patterns.
 */
export function childIdOf(
  token: string,
  id: string,
  form: string,
  parent: RegExp,
  child: RegExp,
  knownParent?: string,
): { parent: string; child: string } {
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
  parents: {
    list: string;
    childList: (parentId: string) => string /** Of the children's list. */;
    schema: z.ZodType<{ id: number | string }>;
  },
): Promise<string | undefined> {
  const all = await ctx.client.listAll(parents.list, { itemSchema: withId, signal: ctx.signal });
  const holders: string[] = [];
  for (const p of all)
    if (await ctx.lists.holds(parents.childList(String(p.id)), childId, parents.schema, ctx.signal))
      holders.push(String(p.id));
  if (holders.length > 1)
    throw new Error(`${token}: id "${childId}" is in several parents (${holders.join(", ")}); import it as ${form}`);
  return holders[0];
}

/** What an object's own id looks like, for the check and its message. */
export interface IdKind {
  /** What the object is called: `zone`, `mail server`. */
  what: string;
  /** The id's form as `pulumi import` takes it: `<zoneId>`. */
  form: string;
  /** The pattern of a string id the API gives (`srv_0123456789ab`); without it, the id is numeric. */
  pattern?: RegExp;
  /** Such a string id, for the message. */
  example?: string;
}

/**
 * An object's own id as a path takes it. A malformed id (a typo in `pulumi import`) is an error
 * naming the kind, the id and what a good one looks like, before any request.
 */
export function ownIdOf(token: string, id: string, kind: IdKind): string {
  if ((kind.pattern ?? NUMERIC_ID).test(id)) return id;
  const good = kind.pattern
    ? `its id (${kind.form}${kind.example ? `, such as ${kind.example}` : ""})`
    : `its numeric id (${kind.form}, such as 42)`;
  const one = `${/^[aeiou]/i.test(kind.what) ? "an" : "a"} ${kind.what}`;
  throw new Error(`${token}: "${id}" is not ${one} id; ${one} is known by ${good}`);
}
