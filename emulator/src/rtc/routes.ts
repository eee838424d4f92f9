// Realtime audio/video rooms: the passcode is part of the room body, joining returns a node and a
// short-lived token, recordings are one file per participant.
import { z } from "zod";
import { emptyPage, neverHeld } from "../model/collection";
import { invalid } from "../pipeline/errors";
import { pagingOnlyQuery } from "../model/paging";
import { checkJoinable, joinToken, roomCitiesRoute, roomCollection } from "../talk/rooms";
import { ROOM_CITIES } from "../talk/state";
import { intBetween } from "../pipeline/validation";
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

const RTC_DEFAULTS: Omit<RtcRoomRow, "id" | "account" | "name" | "passcode" | "created_at"> = {
  max_peers: 16,
  max_video: 9,
  enabled: true,
  public_join: false,
  require_verify: false,
  cascade: false,
  record: false,
  verify_level: "standard",
  city: "fra",
};

const rooms = roomCollection({
  path: "/rtc/rooms",
  table: rtcRooms,
  body: roomBody,
  defaults: RTC_DEFAULTS,
  // On a patch that leaves max_video alone, it is the new max_peers that is too small.
  check: (room, patch) => {
    if (room.max_video > room.max_peers)
      throw invalid(
        patch && patch.max_video === undefined ? "max_peers" : "max_video",
        `must not exceed max_peers (${room.max_peers})`,
      );
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
      return {
        room_id: row.id,
        node: `${row.city}1.rtc.nsp-emulator.test`,
        city: city?.id ?? row.city,
        token: joinToken(),
        expires_in: 300,
        readonly: ctx.body.readonly ?? false,
      };
    },
    {
      body: z.strictObject({
        label: z.string().max(100).optional(),
        peer_id: z.string().max(100).optional(),
        near: z.record(z.string(), z.unknown()).optional(),
        readonly: z.boolean().optional(),
      }),
    },
  ),
  rooms.member("GET", "recordings", emptyPage, { query: pagingOnlyQuery }),
  rooms.member("DELETE", "recordings/{rec_id}", neverHeld("recording")),
];
