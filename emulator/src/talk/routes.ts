// Chat rooms: conversations with a passcode set apart (PUT .../passcode), join tokens minted for
// people the customer's backend admitted, history and per-minute usage.
import { z } from "zod";
import { invalid, ApiError } from "../errors";
import { paginate, pagingOnlyQuery, pagingQuery } from "../paging";
import { route, type Env } from "../router";
import type { Store } from "../store";
import { intBetween, queryBool, queryInt } from "../validation";
import { ROOM_CITIES, joinToken, tablesOf } from "./tables";

export interface TalkRoomRow {
  id: number;
  account: string;
  name: string;
  kind: "room" | "live";
  city: string;
  visibility: "public" | "unlisted";
  max_peers: number;
  max_kbps: number;
  retention_days: number;
  public_join: boolean;
  enabled: boolean;
  passcode: string | null;
  created_at: string;
}

const tables = new WeakMap<Store, Map<number, TalkRoomRow>>();
export const talkRooms = (store: Store) => tablesOf(tables, store, () => new Map<number, TalkRoomRow>());

const roomFields = {
  kind: z.enum(["room", "live"]).optional(),
  city: z.string().optional(),
  visibility: z.enum(["public", "unlisted"]).optional(),
  max_peers: intBetween(2, 1000).optional(),
  max_kbps: intBetween(64, 20000).optional(),
  retention_days: intBetween(0, 3650).optional(),
  public_join: z.boolean().optional(),
  enabled: z.boolean().optional(),
};
// The same body for create and patch, `name` required in both (as the API lists it).
const roomBody = z.strictObject({ name: z.string().trim().min(1).max(100), ...roomFields });

export const TALK_DEFAULTS = { kind: "room", city: "fra", visibility: "public", max_peers: 50, max_kbps: 2000, retention_days: 30, public_join: false, enabled: true } as const;

type Ctx = Env & { account: { name: string } };

/** A room may only be placed (or moved) in a known city that has room. */
export function checkCity(city: string, current?: string): void {
  const c = ROOM_CITIES.find((x) => x.id === city);
  if (!c) throw invalid("city", `unknown city ${city} (known: ${ROOM_CITIES.map((x) => x.id).join(", ")})`);
  if (!c.has_room && city !== current) throw new ApiError("limit_exceeded", `city: ${city} has no room for new rooms at the moment`);
}

const own = (ctx: Ctx, id: number) => ctx.store.owned(talkRooms(ctx.store), id, ctx.account.name, "room");

function view(r: TalkRoomRow) {
  const { account: _a, passcode, ...rest } = r;
  return { ...rest, has_passcode: passcode !== null };
}

export const talkRoutes = [
  route({
    method: "GET",
    path: "/talk/cities",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(ROOM_CITIES, ctx.query, (c) => ({ ...c })),
  }),
  route({
    method: "GET",
    path: "/talk/rooms",
    scope: "read",
    query: z.strictObject({ ...pagingQuery, all: queryBool().optional() }),
    handler: (ctx) => paginate(ctx.store.list(talkRooms(ctx.store), ctx.account.name), ctx.query, view),
  }),
  route({
    method: "POST",
    path: "/talk/rooms",
    scope: "write",
    body: roomBody,
    handler: (ctx) => {
      const b = ctx.body;
      const row: TalkRoomRow = { id: ctx.store.nextId(), account: ctx.account.name, ...TALK_DEFAULTS, ...b, passcode: null, created_at: ctx.store.timestamp() };
      checkCity(row.city);
      talkRooms(ctx.store).set(row.id, row);
      ctx.status(201);
      return view(row);
    },
  }),
  route({ method: "GET", path: "/talk/rooms/:id", scope: "read", handler: (ctx) => view(own(ctx, ctx.params.id)) }),
  route({
    method: "PATCH",
    path: "/talk/rooms/:id",
    scope: "write",
    body: roomBody,
    handler: (ctx) => {
      const row = own(ctx, ctx.params.id);
      if (ctx.body.city !== undefined) checkCity(ctx.body.city, row.city);
      for (const [k, v] of Object.entries(ctx.body)) if (v !== undefined) (row as unknown as Record<string, unknown>)[k] = v;
      return view(row);
    },
  }),
  route({
    method: "DELETE",
    path: "/talk/rooms/:id",
    scope: "write",
    handler: (ctx) => {
      talkRooms(ctx.store).delete(own(ctx, ctx.params.id).id);
      return undefined;
    },
  }),
  route({
    method: "PUT",
    path: "/talk/rooms/:id/passcode",
    scope: "write",
    body: z.strictObject({ passcode: z.string().max(64) }),
    handler: (ctx) => {
      const row = own(ctx, ctx.params.id);
      row.passcode = ctx.body.passcode === "" ? null : ctx.body.passcode;
      return view(row);
    },
  }),
  route({
    method: "POST",
    path: "/talk/rooms/:id/join",
    scope: "write",
    body: z.strictObject({ label: z.string().max(100).optional(), peer_id: z.string().max(100).optional(), readonly: z.boolean().optional() }),
    handler: (ctx) => {
      const row = own(ctx, ctx.params.id);
      if (!row.enabled) throw new ApiError("conflict", `room ${row.id} is disabled`);
      return { room_id: row.id, token: joinToken(), readonly: ctx.body.readonly ?? false, expires_in: 300 };
    },
  }),
  route({
    method: "GET",
    path: "/talk/rooms/:id/history",
    scope: "read",
    query: z.strictObject({ cursor: queryInt(0).optional(), limit: queryInt(1).optional() }),
    handler: (ctx) => {
      own(ctx, ctx.params.id);
      return { data: [], next_cursor: null };
    },
  }),
  route({
    method: "GET",
    path: "/talk/rooms/:id/usage",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      own(ctx, ctx.params.id);
      return paginate([], ctx.query);
    },
  }),
];
