// Deleting some parents deletes what they hold: a zone its records, a mail domain its mailboxes,
// a PBX everything in it. A program rarely manages all of it (ACME clients, external-dns and
// people add records; a customer's admins add mailboxes), so such a parent's delete is refused
// while it still holds objects, unless the program says `forceDestroy: true`.
//
// At a delete the engine has already deleted the program's own children (dependents go first),
// so what the parent's lists still show is what the program does not manage. A delete-first
// replacement is checked in Diff instead, before the engine deletes anything: there the
// program's children are still in the lists and the provider cannot tell them apart, so every
// held object counts, and the replacement takes `forceDestroy: true`.
//
// Deletes the API documents as taking something along that do not check: a mail server's (refused
// while it has domains), a voice number's (the extensions it rings, links that mean nothing
// without it), a tunnel's (its address; the edge sites of its TunnelHostnames go with those), a
// campaign's (numbers are detached, not deleted), and those that take only the object's own
// content, which no program can create: a chat room's history, a video's renditions, a
// channel's or room's recordings, a static site's deploys.
import type { OperationContext } from "../context/operation-context";
import { listPath } from "../api/list-facts";
import { FORCE_DESTROY, listOf, type HeldItem, type HeldKind, type Holds } from "../definition/holds";
import { UserError } from "./user-error";

/** The `## Deleting` section of the resource's page. */
export function deletingDoc({ what, ...holds }: Holds): string {
  const kinds = listOf(holds.kinds.map((k) => k.names[1]));
  const lists =
    holds.kinds.length === 1
      ? "one list request, paged"
      : `${holds.kinds.length} list requests, one per kind, each paged`;
  const cost = holds.ownCost ? `${lists}, and ${holds.ownCost}` : lists;
  return [
    `## Deleting`,
    ``,
    `Deleting the ${what} deletes the ${kinds} it holds. Unless \`forceDestroy\` is true, the provider ` +
      `first lists them (${cost}) and refuses the delete, before any request that changes something, while ` +
      `the ${what} holds any that this program does not manage: the message names \`forceDestroy\`, how ` +
      `many of each kind remain and the first few by name. At a \`pulumi destroy\` or when the ${what} ` +
      `leaves the program, the engine has already deleted the program's own ${kinds}, so only the others ` +
      `count. A child whose delete the program skips with \`deletedWith\` is still there and counts too: a ` +
      `${what} with such children needs \`forceDestroy: true\`.`,
    ``,
    `A replacement that deletes the ${what} first is checked in the preview, before anything is ` +
      `deleted, while the program's own ${kinds} are still there: every one counts, so such a replacement ` +
      `needs \`forceDestroy: true\` set by an earlier \`pulumi up\` whenever the ${what} holds anything. ` +
      `The flag is read from the state, as at every delete: setting it and making the replacement in the ` +
      `same update does not count.${holds.note ? `\n\n${holds.note}` : ""}`,
  ].join("\n");
}

interface Found {
  kind: HeldKind;
  count: number;
  names: string[];
}

const SHOWN = 5;

/** The list of a held kind's objects under one parent. */
export function heldListPath(kind: HeldKind, parentId: string): string {
  if (kind.listPath) return kind.listPath(parentId);
  if (!kind.of.list)
    throw new Error(`${kind.of.token} has no list facts: a kind held by a parent needs them, or a listPath of its own`);
  return listPath(kind.of.list.path, parentId);
}

/** What the parent holds beyond its own objects, per kind; undefined when the parent is gone. */
async function heldBy(
  ctx: OperationContext,
  holds: Holds,
  parentId: string,
  parent: Record<string, unknown>,
): Promise<Found[] | undefined> {
  const own = holds.own ? await holds.own(ctx, parentId, parent) : () => false;
  const found: Found[] = [];
  for (const kind of holds.kinds) {
    const items = await ctx.client.listAllOrUndefined<HeldItem>(heldListPath(kind, parentId), {
      query: kind.query?.(parentId),
      signal: ctx.signal,
    });
    if (items === undefined) return undefined;
    const held = items.filter((item) => !own(kind, item));
    if (held.length)
      found.push({ kind, count: held.length, names: held.slice(0, SHOWN).map((item) => kind.nameOf(item, parent)) });
  }
  return found;
}

function heldText(found: Found[]): string {
  return found
    .map(
      ({ kind, count, names }) =>
        `${count} ${kind.names[count === 1 ? 0 : 1]} (${names.map((n) => JSON.stringify(n)).join(", ")}${count > names.length ? `, and ${count - names.length} more` : ""})`,
    )
    .join("; ");
}

/**
 * Throws, naming forceDestroy, when the parent still holds objects that are not its own: at its
 * `delete`, or in Diff for a `replacement` that would delete it first.
 */
export async function refuseWhileHolding(
  occasion: "delete" | "replacement",
  token: string,
  holds: Holds,
  ctx: OperationContext,
  parentId: string,
  parent: Record<string, unknown>,
): Promise<void> {
  if (parent[FORCE_DESTROY] === true) return;
  // At a delete, the program's own children may be going at the same moment (the engine sends
  // together the deletes it sees no dependency between): those in flight are waited for before
  // the lists, and the lists are read again while they found something and a delete of a held
  // kind started or was still running since they were read.
  const waiting = occasion === "delete";
  const tokens = heldTokens(holds);
  let started = ctx.deletes.startedOf(tokens);
  if (waiting) await deletesInFlight(ctx, holds);
  let found = await heldBy(ctx, holds, parentId, parent);
  while (waiting && found?.length) {
    const inFlight = await deletesInFlight(ctx, holds);
    const now = ctx.deletes.startedOf(tokens);
    if (!inFlight && now === started) break;
    started = now;
    found = await heldBy(ctx, holds, parentId, parent);
  }
  if (!found?.length) return;
  const who = `${token} ${ctx.resourceName ? `${JSON.stringify(ctx.resourceName)} ` : ""}(id ${parentId})`;
  throw new UserError(
    occasion === "delete"
      ? // The engine deletes the parent's dependents first, so by now the program's own children
        // of it are usually gone: saying that nothing was deleted would be untrue.
        `${who} still holds objects this program does not manage: ${heldText(found)}. ` +
          (`Deleting it would delete them too, so the ${holds.what} and those objects were kept; the program's ` +
            `own objects in it may already be deleted (the engine deletes them before the ${holds.what}). `) +
          (`To delete it with them, set \`forceDestroy: true\` on it and run \`pulumi up\` (an update in place; ` +
            `that \`up\` also creates again the program's own objects in it that were deleted), then delete ` +
            `again; or move or delete them first.`)
      : `${who} must be deleted before its replacement is created, and it holds ${heldText(found)}. ` +
          `The replacement would delete them all, the program's own included, so nothing was changed. ` +
          (`Set \`forceDestroy: true\` on it in a \`pulumi up\` of its own (an update in place), then make the ` +
            `change again; or undo the change that replaces it.`),
  );
}

/**
 * Waits until the deletes of the held kinds that are in flight in this plugin process have
 * settled; false when there were none. This cannot deadlock: a kind that a parent holds holds
 * nothing itself (test/provider/force-destroy.test.ts checks it over every definition), so the
 * deletes waited for never wait for anything.
 */
function heldTokens(holds: Holds): string[] {
  return holds.kinds.flatMap((k) => [k.of.token, ...(k.alsoDeletedBy ?? [])]);
}

async function deletesInFlight(ctx: OperationContext, holds: Holds): Promise<boolean> {
  const running = ctx.deletes.of(heldTokens(holds));
  if (!running.length) return false;
  ctx.log(
    "debug",
    `waiting for ${running.length} delete${running.length === 1 ? "" : "s"} in flight of what the ${holds.what} holds before listing it`,
  );
  await Promise.allSettled(running);
  return true;
}
