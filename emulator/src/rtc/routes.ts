// Realtime audio/video rooms: the passcode is part of the room body, joining returns a node and a
// short-lived token, recordings are one file per participant.
import { z } from "zod";
import { ApiError, invalid, notFound } from "../errors";
import { paginate, pagingOnlyQuery, pagingQuery } from "../paging";
import { route, type Env } from "../router";
import type { Store } from "../store";
import { intBetween, queryBool } from "../validation";
import { ROOM_CITIES, joinToken, tablesOf } from "../talk/tables";
import { checkCity } from "../talk/routes";

export interface RtcRoomRow {
  id: number;
  account: string;
  name: string;
  max_peers: number;
  max_video: number;
  enabled: boolean;
  public_join: boolean;
  require_verify: boolean;
  cascade: boolean;
  record: boolean;
  verify_level: "standard" | "strict" | "maximum";
  city: string;
  passcode: string | null;
  created_at: string;
}

const tables = new WeakMap<Store, Map<number, RtcRoomRow>>();
export const rtcRooms = (store: Store) => tablesOf(tables, store, () => new Map<number, RtcRoomRow>());

const roomBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  max_peers: intBetween(2, 500).optional(),
  max_video: intBetween(0, 100).optional(),
  enabled: z.boolean().optional(),
  public_join: z.boolean().optional(),
  require_verify: z.boolean().optional(),
  cascade: z.boolean().optional(),
  record: z.boolean().optional(),
  verify_level: z.enum(["standard", "strict", "maximum"]).optional(),
  city: z.string().optional(),
  passcode: z.string().max(64).optional(),
});

export const RTC_DEFAULTS = { max_peers: 16, max_video: 9, enabled: true, public_join: false, require_verify: false, cascade: false, record: false, verify_level: "standard", city: "fra" } as const;

type Ctx = Env & { account: { name: string } };
const own = (ctx: Ctx, id: number) => ctx.store.owned(rtcRooms(ctx.store), id, ctx.account.name, "room");

function view(r: RtcRoomRow) {
  const { account: _a, passcode, ...rest } = r;
  return { ...rest, has_passcode: passcode !== null };
}

function checkVideo(r: { max_peers: number; max_video: number }, field: string): void {
  if (r.max_video > r.max_peers) throw invalid(field, `must not exceed max_peers (${r.max_peers})`);
}

export const rtcRoutes = [
  route({ method: "GET", path: "/rtc/cities", scope: "read", query: pagingOnlyQuery, handler: (ctx) => paginate(ROOM_CITIES, ctx.query, (c) => ({ ...c })) }),
  route({
    method: "GET",
    path: "/rtc/rooms",
    scope: "read",
    query: z.strictObject({ ...pagingQuery, all: queryBool().optional() }),
    handler: (ctx) => paginate(ctx.store.list(rtcRooms(ctx.store), ctx.account.name), ctx.query, view),
  }),
  route({
    method: "POST",
    path: "/rtc/rooms",
    scope: "write",
    body: roomBody,
    handler: (ctx) => {
      const { passcode, ...b } = ctx.body;
      const row: RtcRoomRow = { id: ctx.store.nextId(), account: ctx.account.name, ...RTC_DEFAULTS, ...b, passcode: passcode ? passcode : null, created_at: ctx.store.timestamp() };
      checkCity(row.city);
      checkVideo(row, "max_video");
      rtcRooms(ctx.store).set(row.id, row);
      ctx.status(201);
      return view(row);
    },
  }),
  route({ method: "GET", path: "/rtc/rooms/:id", scope: "read", handler: (ctx) => view(own(ctx, ctx.params.id)) }),
  route({
    method: "PATCH",
    path: "/rtc/rooms/:id",
    scope: "write",
    body: roomBody,
    handler: (ctx) => {
      const row = own(ctx, ctx.params.id);
      const { passcode, ...b } = ctx.body;
      if (b.city !== undefined) checkCity(b.city, row.city);
      checkVideo({ max_peers: b.max_peers ?? row.max_peers, max_video: b.max_video ?? row.max_video }, b.max_video !== undefined ? "max_video" : "max_peers");
      for (const [k, v] of Object.entries(b)) if (v !== undefined) (row as unknown as Record<string, unknown>)[k] = v;
      // An empty passcode clears it; an absent one leaves it.
      if (passcode !== undefined) row.passcode = passcode === "" ? null : passcode;
      return view(row);
    },
  }),
  route({
    method: "DELETE",
    path: "/rtc/rooms/:id",
    scope: "write",
    handler: (ctx) => {
      rtcRooms(ctx.store).delete(own(ctx, ctx.params.id).id);
      return undefined;
    },
  }),
  route({
    method: "POST",
    path: "/rtc/rooms/:id/join",
    scope: "write",
    body: z.strictObject({ label: z.string().max(100).optional(), peer_id: z.string().max(100).optional(), near: z.record(z.string(), z.unknown()).optional(), readonly: z.boolean().optional() }),
    handler: (ctx) => {
      const row = own(ctx, ctx.params.id);
      if (!row.enabled) throw new ApiError("conflict", `room ${row.id} is disabled`);
      const city = ROOM_CITIES.find((c) => c.id === row.city);
      return { room_id: row.id, node: `${row.city}1.rtc.nsp-emulator.test`, city: city?.id ?? row.city, token: joinToken(), expires_in: 300, readonly: ctx.body.readonly ?? false };
    },
  }),
  route({
    method: "GET",
    path: "/rtc/rooms/:id/recordings",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      own(ctx, ctx.params.id);
      return paginate([], ctx.query);
    },
  }),
  route({
    method: "DELETE",
    path: "/rtc/rooms/:id/recordings/{rec_id}",
    scope: "write",
    handler: (ctx) => {
      own(ctx, ctx.params.id);
      throw notFound("recording");
    },
  }),
];
