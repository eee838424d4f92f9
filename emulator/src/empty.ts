// Routes over things the emulator never holds: the sessions, recordings and usage that only real
// media traffic would make. A list of them is empty and one of them is not found, but only after
// the caller is shown to own the room or channel they hang under, as the API would check.
import { notFound } from "./errors";
import { paginate, pagingOnlyQuery } from "./paging";
import { type Ctx, type HttpMethod, type Route, route } from "./router";

/** Finds (or refuses) the owned row a path's `:id` names. */
type OwnParent = (ctx: Ctx<"/:id", unknown, unknown>) => unknown;

/** GET `path`: an empty page, after `ownParent` (when given) found the parent. */
export function emptyList(path: string, ownParent?: OwnParent): Route {
  return route({
    method: "GET",
    path,
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      ownParent?.(ctx as unknown as Ctx<"/:id", unknown, unknown>);
      return paginate([], ctx.query);
    },
  });
}

/** `method path`: `<what> not found`, after `ownParent` (when given) found the parent. */
export function neverFound(method: HttpMethod, path: string, what: string, ownParent?: OwnParent, extra: Pick<Route, "body" | "query"> = {}): Route {
  return route({
    method,
    path,
    scope: method === "GET" ? "read" : "write",
    ...extra,
    handler: (ctx) => {
      ownParent?.(ctx as unknown as Ctx<"/:id", unknown, unknown>);
      throw notFound(what);
    },
  });
}
