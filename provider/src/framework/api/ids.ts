// The ids resources are known by, checked before they are put in a path, so that a malformed
// import id is a clear error instead of a request. Every id parser describes its ids with one
// `IdFormat` (its parts and their patterns, which are validators.ts's) and parses them with
// `parseId`, so that every malformed id gets the same message, naming the form and an example.
import { z } from "zod";
import type { OperationContext } from "../definition";
import { NUMERIC_ID } from "./validators";

export { NUMERIC_ID, STRING_ID } from "./validators";

/** One part of an id: `<zoneId>` of `<zoneId>/<recordId>`. */
export interface IdPart<K extends string = string> {
  /** Its name in the import form, without the brackets: `zoneId`. */
  name: K;
  /**
   * Its pattern, one of validators.ts's (default NUMERIC_ID), or the one id there is (a settings
   * object's `meet-settings`), which the import form then shows as it is.
   */
  pattern?: RegExp | string;
  /** A good one, for the message; a numeric part has one by default. */
  example?: string;
  /** The spelling the API keeps, made before the check (a mail local part is lower case). */
  canonical?: (part: string) => string;
}

/** The ids of one kind of object: its own id, `<parent>/<child>`, or more parts, joined by `/`. */
export interface IdFormat<K extends string = string> {
  /** What the object is called in the message: `zone`, `mail route`. */
  what: string;
  parts: readonly IdPart<K>[];
}

export function idFormat<K extends string>(what: string, ...parts: IdPart<K>[]): IdFormat<K> {
  return { what, parts };
}

/** `zoneId` of `<zoneId>`. */
const nameIn = (form: string) => form.replace(/^<|>$/g, "");
const isNumeric = (p: IdPart) => (p.pattern ?? NUMERIC_ID) === NUMERIC_ID;
const inForm = (p: IdPart) => (typeof p.pattern === "string" ? p.pattern : `<${p.name}>`);

/** How `pulumi import` takes the id: `<zoneId>/<recordId>`. */
export function formOf(format: IdFormat): string {
  return format.parts.map(inForm).join("/");
}

function exampleOf(format: IdFormat): string | undefined {
  const { parts } = format;
  const examples = parts.map((p, i) =>
    typeof p.pattern === "string"
      ? p.pattern
      : (p.example ?? (isNumeric(p) ? (parts.length === 1 ? "42" : String(12 + 22 * i)) : undefined)),
  );
  if (examples.some((e) => e === undefined)) return undefined;
  const example = examples.join("/");
  return example === formOf(format) ? undefined : example;
}

/** The one message of a malformed id: what the object is, and the form and an example of a good id. */
export function badId(token: string, format: IdFormat, id: string): Error {
  const one = `${/^[aeiou]/i.test(format.what) ? "an" : "a"} ${format.what}`;
  const numeric = format.parts.length === 1 && isNumeric(format.parts[0] as IdPart) ? "numeric " : "";
  const example = exampleOf(format);
  const good = `its ${numeric}id (${formOf(format)}${example ? `, such as ${example}` : ""})`;
  return new Error(`${token}: "${id}" is not ${one} id; ${one} is known by ${good}`);
}

/**
 * The parts of an id, each checked against its pattern. An id of the last part alone is taken
 * when the state knows the parts before it (`known`), as after an import by `<parent>/<child>`.
 */
export function parseId<K extends string>(
  token: string,
  format: IdFormat<K>,
  id: string,
  known?: Partial<Record<K, string | undefined>>,
): Record<K, string> {
  const { parts } = format;
  let given = id.split("/");
  if (given.length === 1 && parts.length > 1 && known)
    given = [...parts.slice(0, -1).map((p) => known[p.name] ?? ""), id];
  if (given.length !== parts.length) throw badId(token, format, id);
  const out = {} as Record<K, string>;
  parts.forEach((p, i) => {
    const value = p.canonical ? p.canonical(given[i] as string) : (given[i] as string);
    const pattern = p.pattern ?? NUMERIC_ID;
    if (typeof pattern === "string" ? value !== pattern : !pattern.test(value)) throw badId(token, format, id);
    out[p.name] = value;
  });
  return out;
}

/**
 * A child known as `<parent>/<child>` (the import form), or by its own id when the parent is
 * known from the prior state; both parts must match their patterns. `form` names the parts.
 */
export function childIdOf(
  token: string,
  id: string,
  form: string,
  parent: RegExp,
  child: RegExp,
  knownParent?: string,
): { parent: string; child: string } {
  const [p = "parent", c = "child"] = form.split("/").map(nameIn);
  const what = (token.split(":").pop() ?? token).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const parts = parseId(token, idFormat(what, { name: p, pattern: parent }, { name: c, pattern: child }), id, {
    [p]: knownParent,
  });
  return { parent: parts[p] as string, child: parts[c] as string };
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

/** The format of an object's own id (`<zoneId>`), of one part. */
export function ownIdFormat(kind: IdKind): IdFormat {
  return idFormat(kind.what, { name: nameIn(kind.form), pattern: kind.pattern, example: kind.example });
}

/**
 * An object's own id as a path takes it. A malformed id (a typo in `pulumi import`) is an error
 * naming the kind, the id and what a good one looks like, before any request.
 */
export function ownIdOf(token: string, id: string, kind: IdKind): string {
  const format = ownIdFormat(kind);
  return parseId(token, format, id)[nameIn(kind.form)] as string;
}
