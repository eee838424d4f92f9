// Realtime audio/video rooms: the passcode is part of the room body, joining returns a node and a
// short-lived token, recordings are one file per participant.
import { z } from "zod";
import { assignPresent, collection, emptyPage, neverHeld } from "../collection";
import { invalid } from "../errors";
import { pagingOnlyQuery } from "../paging";
import { checkCity, checkJoinable, joinToken, roomCitiesRoute, roomCollectionSpec } from "../talk/rooms";
import { ROOM_CITIES } from "../talk/state";
import { intBetween } from "../validation";
import { type RtcRoomRow, rtcRooms } from "./state";

// The same body for create and patch, `name` required in both.
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

const RTC_DEFAULTS = { max_peers: 16, max_video: 9, enabled: true, public_join: false, require_verify: false, cascade: false, record: false, verify_level: "standard", city: "fra" } as const;

function checkVideo(r: { max_peers: number; max_video: number }, field: string): void {
  if (r.max_video > r.max_peers) throw invalid(field, `must not exceed max_peers (${r.max_peers})`);
}

const rooms = collection({
  path: "/rtc/rooms",
  table: ({ store }) => rtcRooms(store),
  ...roomCollectionSpec,
  create: {
    body: roomBody,
    build: (ctx) => {
      const { passcode, ...b } = ctx.body;
      const row: RtcRoomRow = { id: ctx.store.nextId(), account: ctx.account.name, ...RTC_DEFAULTS, ...b, passcode: passcode ? passcode : null, created_at: ctx.store.timestamp() };
      checkCity(row.city);
      checkVideo(row, "max_video");
      return row;
    },
  },
  patch: {
    body: roomBody,
    apply: (ctx, row) => {
      const { passcode, ...b } = ctx.body;
      if (b.city !== undefined) checkCity(b.city, row.city);
      checkVideo({ max_peers: b.max_peers ?? row.max_peers, max_video: b.max_video ?? row.max_video }, b.max_video !== undefined ? "max_video" : "max_peers");
      assignPresent(row, b);
      // An empty passcode clears it; an absent one leaves it.
      if (passcode !== undefined) row.passcode = passcode === "" ? null : passcode;
    },
  },
});

export const rtcRoutes = [
  roomCitiesRoute("/rtc/cities"),
  ...rooms.routes,
  rooms.member(
    "POST",
    "join",
    (row, ctx) => {
      checkJoinable(row);
      const city = ROOM_CITIES.find((c) => c.id === row.city);
      return { room_id: row.id, node: `${row.city}1.rtc.nsp-emulator.test`, city: city?.id ?? row.city, token: joinToken(), expires_in: 300, readonly: ctx.body.readonly ?? false };
    },
    { body: z.strictObject({ label: z.string().max(100).optional(), peer_id: z.string().max(100).optional(), near: z.record(z.string(), z.unknown()).optional(), readonly: z.boolean().optional() }) },
  ),
  rooms.member("GET", "recordings", emptyPage, { query: pagingOnlyQuery }),
  rooms.member("DELETE", "recordings/{rec_id}", neverHeld("recording")),
];
