// What the chat rooms (talk) and the realtime rooms (rtc) share: the cities route, the room
// collection (list query, view, create and patch rules), the join rule and the join tokens.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Collection, type KeyOf, assignPresent, collection } from "../model/collection";
import { ApiError, invalid } from "../pipeline/errors";
import { paginate, pagingOnlyQuery, pagingQuery } from "../model/paging";
import { type Route, route } from "../pipeline/route";
import type { Store } from "../model/store";
import { queryBool } from "../pipeline/validation";
import { ROOM_CITIES, type RoomRow } from "./state";

/** A short-lived join token for one participant of a chat or realtime room. */
export function joinToken(): string {
  return `jt_${randomBytes(16).toString("hex")}`;
}

/** GET /<area>/cities: the room cities, paged. */
export function roomCitiesRoute(path: "/talk/cities" | "/rtc/cities"): Route {
  return route({
    method: "GET",
    path,
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(ROOM_CITIES, ctx.query, (c) => ({ ...c })),
  });
}

/** The room list's query: paging, and `all` (the emulator lists the account's rooms either way). */
const roomListQuery = z.strictObject({ ...pagingQuery, all: queryBool().optional() });

/** A room as the API shows it: the passcode only as whether there is one. */
export function roomView<R extends { account: string; passcode: string | null }>(
  r: R,
): Omit<R, "account" | "passcode"> & { has_passcode: boolean } {
  const { account: _a, passcode, ...rest } = r;
  return { ...rest, has_passcode: passcode !== null };
}

/** Only an enabled room can be joined. */
export function checkJoinable(r: { id: number; enabled: boolean }): void {
  if (!r.enabled) throw new ApiError("conflict", `room ${r.id} is disabled`);
}

/** A room may only be placed (or moved) in a known city that has room. */
function checkCity(city: string, current?: string): void {
  const c = ROOM_CITIES.find((x) => x.id === city);
  if (!c) throw invalid("city", `unknown city ${city} (known: ${ROOM_CITIES.map((x) => x.id).join(", ")})`);
  if (!c.has_room && city !== current)
    throw new ApiError("limit_exceeded", `city: ${city} has no room for new rooms at the moment`);
}

/** What a room body may set: the area's columns, `name` required, and a passcode where the body takes one (rtc). */
type RoomBody<Row extends RoomRow> = Partial<Omit<Row, "id" | "account" | "passcode" | "created_at">> & {
  name: string;
  passcode?: string;
};

/**
 * A room collection, chat or realtime: a new room is the area's defaults under the body, in a
 * known city with room; a patch moves it only to such a city; an empty passcode clears it and an
 * absent one leaves it. `check` is the area's own rule on a room's columns, given the patch body
 * when it runs on a patch.
 */
export function roomCollection<P extends string, Row extends RoomRow, S extends z.ZodType<RoomBody<Row>>>(spec: {
  path: P;
  table: (store: Store) => Map<number, Row>;
  body: S;
  defaults: Omit<Row, "id" | "account" | "name" | "passcode" | "created_at">;
  check?: (room: Row, patch?: RoomBody<Row>) => void;
}): Collection<`${P}/:id`, Row> {
  return collection<P, Row, S, S>({
    path: spec.path,
    what: "room",
    table: ({ store }) => spec.table(store) as Map<KeyOf<Row>, Row>,
    view: roomView,
    list: { query: roomListQuery },
    create: {
      body: spec.body,
      build: (ctx) => {
        const { passcode, ...b } = ctx.body as RoomBody<Row>;
        const row = {
          id: ctx.store.nextId(),
          account: ctx.account.name,
          ...spec.defaults,
          ...b,
          passcode: passcode ? passcode : null,
          created_at: ctx.store.timestamp(),
        } as Row;
        checkCity(row.city);
        spec.check?.(row);
        return row;
      },
    },
    patch: {
      body: spec.body,
      apply: (ctx, row) => {
        const { passcode, ...b } = ctx.body as RoomBody<Row>;
        if (b.city !== undefined) checkCity(b.city, row.city);
        spec.check?.({ ...row, ...b }, b as RoomBody<Row>);
        assignPresent(row, b as Partial<Row>);
        if (passcode !== undefined) row.passcode = passcode === "" ? null : passcode;
      },
    },
    remove: true,
  });
}
