// How a collection's object is known: which value is its resource id (and the check of one
// before it goes into a path), and how a create whose answer was lost finds the object it may
// have made. One small piece per way, chosen where the collection or its create is written.
import type { z } from "zod";
import type { OperationContext } from "../../definition";
import { childIdOf, NUMERIC_ID } from "../ids";
import { createOnce, createOrAdopt } from "../create-once";
import type { Item } from "./read";

/** Which value of an object is its resource id, and the check of a resource id. */
export interface Identity {
  /** Checks a resource id before it goes into a path, so a malformed import id fails before any request. */
  idOf(id: string): string;
  /** The resource id of an object the API returned, with its state. */
  of(raw: Item, state: Record<string, unknown>): string;
}

/** The API's `id` is the resource id. */
export function apiId(idOf: (id: string) => string): Identity {
  return { idOf, of: (raw) => String(raw.id) };
}

/** The resource is known by one of its properties (an address, a subject): the path and the import use it. */
export function keyedBy(property: string, idOf: (id: string) => string): Identity {
  return { idOf, of: (_raw, state) => String(state[property]) };
}

/** How a child's resource id `<parent>/<child>` is split: the parent and the child's own id. */
export interface ChildIdentity {
  locate(of: { token: string; importId: string }, id: string, parentId?: string): { parent: string; child: string };
}

/** Numeric parent, child id of the pattern (numeric unless given), checked by `childIdOf`. */
export function childIds(pattern: RegExp = NUMERIC_ID): ChildIdentity {
  return {
    locate: ({ token, importId }, id, parentId) => childIdOf(token, id, importId, NUMERIC_ID, pattern, parentId),
  };
}

/** Where the import form is checked otherwise than `childIdOf` does. */
export function locatedBy(locate: (id: string, parentId?: string) => { parent: string; child: string }): ChildIdentity {
  return { locate: (_of, id, parentId) => locate(id, parentId) };
}

/** What a create's recovery may use of its collection. */
export interface Creatable {
  path: string;
  wire: z.ZodType<Item>;
  list(ctx: OperationContext): Promise<Item[]>;
}

/**
 * How a create posts and, when the answer is lost, finds the object that create may have made,
 * so that it is adopted instead of made twice (create-once.ts).
 */
export interface Recovery {
  create(ctx: OperationContext, what: string, objects: Creatable, post: () => Promise<Item>): Promise<Item>;
}

/** An object without a natural key is posted once: a lost answer is an error, since the client never repeats a POST blindly. */
export const postOnce: Recovery = { create: (_ctx, _what, _objects, post) => post() };

/** The natural key: the first listed object that `matches`. */
export function naturalKey(matches: (item: Item) => boolean): Recovery {
  return {
    create: (ctx, what, objects, post) =>
      createOnce(ctx, what, post, async () => (await objects.list(ctx)).find(matches)),
  };
}

/** The natural key, where the object is found elsewhere than in the collection's list. */
export function foundBy(find: () => Promise<Item | undefined>): Recovery {
  return { create: (ctx, what, _objects, post) => createOnce(ctx, what, post, find) };
}

/**
 * The object's identity is its content (a rule is what it matches and does): a create adopts an
 * identical object already there (createOrAdopt, create-once.ts); the delete of an object that
 * another resource of the same command adopted then sends nothing. `query` narrows the list to
 * the parent; `checkFirst` looks before posting (the API accepts a duplicate) rather than only
 * after a conflict (it refuses one).
 */
export function sameContent(how: {
  content: (item: Item) => boolean;
  query?: Record<string, string | number | undefined>;
  checkFirst: boolean;
}): Recovery {
  return {
    async create(ctx, what, objects, post) {
      type Identified = Item & { id: string | number };
      const identity = {
        list: objects.path,
        query: how.query,
        schema: objects.wire as z.ZodType<Identified>,
        matches: how.content,
        checkFirst: how.checkFirst,
      };
      return (await createOrAdopt(ctx, what, identity, post as () => Promise<Identified>)).object;
    },
  };
}
