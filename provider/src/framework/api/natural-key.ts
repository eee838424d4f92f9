// The natural key of a resource: the inputs (declared with the `key` role) that, within the
// object's parent, name one object of the account, such as a zone's name or a mailbox's local
// part. From it, an object a create would make is found again without its id: to turn a create
// the API refuses as a duplicate into the `pulumi import` command that adopts the object, and to
// give the creates a killed run left pending their ids (nsp-discover --pending-creates).
import { isApiError, type ApiClient } from "../../client";
import type { AnyResource } from "../definition";
import { keysWithRole } from "../definition/zod-walk";
import { listedImportId, listUnder, matchesInputs } from "./list-facts";
import { toWire } from "./wire";
import type { z } from "zod";

type Item = Record<string, unknown>;

/** An existing object with a resource's natural key. */
interface KeyMatch {
  /** The id `pulumi import` takes (the definition's `importId` form). */
  importId: string;
  /** The object's own id within its parent (the last part of the import id). */
  ownId: string;
}

/** The inputs of the resource's natural key, or none when it has no key or no list to look in. */
export function naturalKeyOf(def: AnyResource): string[] {
  return def.list ? keysWithRole(def.args.shape as Record<string, z.ZodType>, "key") : [];
}

/** `local "m15" (domainId 6)`: what the key says, for messages. */
export function describeKey(def: AnyResource, args: Item): string {
  const parentInput = def.list?.parent?.input;
  const parts = naturalKeyOf(def).map((k) => `${k} ${JSON.stringify(args[k])}`);
  return parentInput && args[parentInput] !== undefined
    ? `${parts.join(", ")} (${parentInput} ${String(args[parentInput])})`
    : parts.join(", ");
}

/**
 * The objects of the account whose natural key is the one of `args` (checked inputs), read
 * through the list the definition declares. Undefined when the resource has no natural key.
 */
export async function findByNaturalKey(
  def: AnyResource,
  client: ApiClient,
  args: Item,
  signal?: AbortSignal,
): Promise<KeyMatch[] | undefined> {
  const keys = naturalKeyOf(def);
  const facts = def.list;
  // A key the program leaves to the API (an extension's number when unset) names nothing.
  if (!keys.length || !facts || keys.every((k) => args[k] === undefined || args[k] === null)) return undefined;
  const parentInput = facts.parent?.input;
  if (parentInput && args[parentInput] === undefined) return undefined;
  const shape = def.args.shape as Record<string, z.ZodType>;
  const parentId = parentInput ? toWire(shape[parentInput]!, args[parentInput]) : undefined;
  const listed = (await listUnder(def, client, parentId, signal)) ?? { items: [] };
  return listed.items
    .filter((item) => !facts.skip?.(item, listed.parent))
    .filter((item) => matchesInputs(def, item, args, keys))
    .map((item) => ({ importId: listedImportId(def, item, listed.parent), ownId: String(item[facts.key ?? "id"]) }));
}

/**
 * The import id a create with these inputs addresses, when the inputs alone make it: the
 * object the create writes is named by its inputs (a zone's records or DNSSEC by the zone's id,
 * the account's app switches by `apps`), so the create is a write to an object that exists
 * anyway and repeating it makes no second one. Undefined when the id is the API's to choose.
 */
export function idFromInputs(def: AnyResource, args: Item): string | undefined {
  const holes = def.importId.match(/<[^>]+>/g) ?? [];
  const values = holes.map((hole) => {
    const name = hole.slice(1, -1);
    const value = args[name] ?? args[`${name}Id`];
    return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  });
  if (values.some((v) => v === undefined) || /[[\]]/.test(def.importId)) return undefined;
  let i = 0;
  return def.importId.replace(/<[^>]+>/g, () => values[i++]!);
}

/** A shell word: names in a program may hold spaces or quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_.:/@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A create the API refused because the natural key is taken fails with the `pulumi import`
 * command that adopts the object holding it. Never adopted silently: the object may belong to
 * another stack or to someone else, and a stack that deleted it would delete their object.
 * Any other error, or a conflict with no object of this kind holding the key, is returned as is.
 */
export async function explainConflict(
  def: AnyResource,
  client: ApiClient,
  args: Item,
  resourceName: string | undefined,
  error: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  if (!(isApiError(error) && error.code === "conflict")) return error;
  const found = await findByNaturalKey(def, client, args, signal).catch(() => undefined);
  if (found?.length !== 1) return error;
  const name = resourceName ?? "<name in the program>";
  return new Error(
    `${def.token} ${describeKey(def, args)} already exists in this account (id ${found[0]!.importId}). ` +
      `If it is this stack's (a run that was killed created it ` +
      `but never recorded it), adopt it with:\n    pulumi import ${def.token} ${shellWord(name)} ${shellWord(found[0]!.importId)} --protect=false --yes\n` +
      `then run \`pulumi up\` again. If it belongs to another stack or to someone else, give this resource another name. ` +
      `nsp never adopts such an object by itself. (${error.message})`,
    { cause: error },
  );
}
