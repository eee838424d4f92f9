// What a parent's delete takes with it, as its definition declares it (`holds`), and the input
// `forceDestroy` that declaration gives the resource. The check itself is the engine's
// (engine/held-objects.ts).
import { z } from "zod";
import type { OperationContext } from "../context/operation-context";

export const FORCE_DESTROY = "forceDestroy";

/** An object as a list returns it: only the fields a name or an ownership rule reads. */
export type HeldItem = Record<string, unknown>;

/** One kind of object the parent's delete takes with it. */
export interface HeldKind {
  /**
   * The children's definition: its list facts give their list under one parent, and its token
   * names the deletes in flight that a delete of the parent waits for.
   */
  of: { token: string; list?: { path: string } };
  /** Other kinds whose delete takes such objects too (a zone's `ZoneRecords` deletes records). */
  alsoDeletedBy?: readonly string[];
  /** Singular and plural, for messages and docs: `["record", "records"]`. */
  names: readonly [string, string];
  /** The list under one parent, only where the child's list facts cannot give it (one list of the whole account). */
  listPath?: (parentId: string) => string;
  /** A filter that list takes: `{ zone_id }`. */
  query?: (parentId: string) => Record<string, string>;
  /** How a person recognises one in a message: `handmade TXT`, `bob@example.com`. */
  nameOf: (item: HeldItem, parent: Record<string, unknown>) => string;
}

/**
 * What a parent's delete takes with it. `own` reads, once per check, what tells the parent's
 * own objects apart (a zone's SOA, the records its mail domains publish, a PBX template's
 * extensions): those are not the program's to manage and never hold a delete back. `ownCost`
 * names those reads for the docs.
 */
export interface Holds {
  /** The parent, for messages and docs: `zone`. */
  what: string;
  kinds: readonly HeldKind[];
  own?: (
    ctx: OperationContext,
    parentId: string,
    parent: Record<string, unknown>,
  ) => Promise<(kind: HeldKind, item: HeldItem) => boolean>;
  ownCost?: string;
  /** A note for the docs, such as how a deletedWith child affects the delete. */
  note?: string;
}

/** The input every definition with `holds` gets; the docs text names what it holds. */
export function forceDestroyInput({ what, ...holds }: Holds): z.ZodType {
  const kinds = listOf(holds.kinds.map((k) => k.names[1]));
  return z
    .boolean()
    .default(false)
    .meta({
      description:
        `Delete the ${what} even while it holds ${kinds} that this program does not manage (they are deleted with it). ` +
        (`When false (the default) a delete, and a replacement that deletes first, is refused while it holds ` +
          `any, naming them. Changing it is an update in place, with no request to the API.`),
      local: true,
    });
}

/** "a, b and c". */
export function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
