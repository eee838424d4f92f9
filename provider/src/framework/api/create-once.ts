import { isApiError, NetworkError } from "../../client";
import type { ContentIdentity } from "../context/adoption";
import type { OperationContext } from "../definition";

/**
 * A POST whose answer was lost (the connection dropped after sending, a timeout, a 5xx) may or
 * may not have created the object; the client never repeats it blindly. True for those cases.
 */
export function isAmbiguousWrite(e: unknown): boolean {
  if (e instanceof NetworkError) return !e.notSent;
  return isApiError(e) && e.status >= 500;
}

/**
 * Creates an object at most once. When the answer to the create is lost, the object is looked up
 * by its natural key (a zone by name, a record by name, type and content, ...): found, it is
 * adopted; not found, the create surely did not happen and is sent again.
 */
export async function createOnce<T>(
  ctx: OperationContext,
  what: string,
  post: () => Promise<T>,
  lookup: () => Promise<T | undefined>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await post();
    } catch (e) {
      if (!isAmbiguousWrite(e)) throw e;
      const found = await lookup();
      if (found !== undefined) {
        ctx.log("info", `${what}: the answer to the create was lost, but the object exists; adopting it`);
        return found;
      }
      if (attempt >= attempts) throw e;
      ctx.log("info", `${what}: the answer to the create was lost and the object does not exist; creating it again`);
    }
  }
}

/**
 * createOnce for an object whose identity is its content (a DNS record is its zone, name, type
 * and content; a ROA its prefix, origin and max length): an identical object already there is
 * adopted instead of made a second time. That covers the creates an earlier, killed run had on
 * the wire (their ids never reached the state), whether the API would accept the duplicate
 * (`checkFirst`: look in the parent's list, taken once per command, before posting) or refuse it
 * as a conflict (then adopt the object it conflicts with). An object is adopted by one create
 * at most.
 */
export async function createOrAdopt<T extends { id: number | string }>(
  ctx: OperationContext,
  what: string,
  identity: ContentIdentity<T> & { checkFirst: boolean },
  post: () => Promise<T>,
): Promise<{ object: T; adopted: boolean }> {
  const adopt = (object: T, why: string) => {
    ctx.log("info", `${what}: ${why} (id ${object.id}); adopting it instead of creating a duplicate`);
    return { object, adopted: true };
  };
  if (identity.checkFirst) {
    const existing = await ctx.adoptions.claimExisting(identity, ctx.signal);
    if (existing) return adopt(existing, "an identical object already exists");
  }
  let lostAndFound = false;
  try {
    const object = await createOnce(ctx, what, post, async () => {
      const found = await ctx.adoptions.claimCurrent(identity, ctx.signal);
      lostAndFound ||= found !== undefined;
      return found;
    });
    if (!lostAndFound) ctx.adoptions.made(identity.list, object.id);
    return { object, adopted: false };
  } catch (e) {
    if (!(isApiError(e) && e.code === "conflict")) throw e;
    const existing = await ctx.adoptions.claimCurrent(identity, ctx.signal);
    if (!existing) throw e;
    return adopt(existing, "the API refused a duplicate of an existing object");
  }
}
