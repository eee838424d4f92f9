// What the chat rooms (talk) and the realtime rooms (rtc) share: the cities route, the list
// query, the view, the join rule and the join tokens.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { ApiError, invalid } from "../errors";
import { paginate, pagingOnlyQuery, pagingQuery } from "../paging";
import { type Route, route } from "../router";
import { queryBool } from "../validation";
import { ROOM_CITIES } from "./state";

/** A short-lived join token for one participant of a chat or realtime room. */
export function joinToken(): string {
  return `jt_${randomBytes(16).toString("hex")}`;
}

/** GET /<area>/cities: the room cities, paged. */
export function roomCitiesRoute(path: "/talk/cities" | "/rtc/cities"): Route {
  return route({ method: "GET", path, scope: "read", query: pagingOnlyQuery, handler: (ctx) => paginate(ROOM_CITIES, ctx.query, (c) => ({ ...c })) });
}

/** The room list's query: paging, and `all` (the emulator lists the account's rooms either way). */
const roomListQuery = z.strictObject({ ...pagingQuery, all: queryBool().optional() });

/** A room as the API shows it: the passcode only as whether there is one. */
export function roomView<R extends { account: string; passcode: string | null }>(r: R): Omit<R, "account" | "passcode"> & { has_passcode: boolean } {
  const { account: _a, passcode, ...rest } = r;
  return { ...rest, has_passcode: passcode !== null };
}

/** Only an enabled room can be joined. */
export function checkJoinable(r: { id: number; enabled: boolean }): void {
  if (!r.enabled) throw new ApiError("conflict", `room ${r.id} is disabled`);
}

/** A room may only be placed (or moved) in a known city that has room. */
export function checkCity(city: string, current?: string): void {
  const c = ROOM_CITIES.find((x) => x.id === city);
  if (!c) throw invalid("city", `unknown city ${city} (known: ${ROOM_CITIES.map((x) => x.id).join(", ")})`);
  if (!c.has_room && city !== current) throw new ApiError("limit_exceeded", `city: ${city} has no room for new rooms at the moment`);
}

/**
 * What the chat and realtime room collections declare alike: the noun, the view, the list and
 * its query, the delete. Spread into `collection()` beside the area's path, table and bodies.
 */
export const roomCollectionSpec = { what: "room", view: roomView, list: { query: roomListQuery }, remove: true } as const;
