import { isApiError, NetworkError } from "../client";
import type { OperationContext } from "./definition";

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
export async function createOnce<T>(ctx: OperationContext, what: string, post: () => Promise<T>, lookup: () => Promise<T | undefined>, attempts = 5): Promise<T> {
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
