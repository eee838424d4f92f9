// Answers about things the emulator never holds: the sessions, recordings and usage that only real
// media traffic would make. A list of them is an empty page and one of them is not found; under a
// room or channel they are member routes, so the caller is first shown to own it, as the API would.
import { notFound } from "./errors";
import { paginate } from "./paging";

/** An empty page, whatever row it hangs under. */
export const emptyPage = (_row: unknown, ctx: { query: { limit?: number; offset?: number } }) => paginate([], ctx.query);

/** `<what> not found`, for any request. */
export const neverHeld =
  (what: string) =>
  (): never => {
    throw notFound(what);
  };
