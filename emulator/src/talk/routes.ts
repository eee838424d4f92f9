// Chat rooms: conversations with a passcode set apart (PUT .../passcode), join tokens minted for
// people the customer's backend admitted, history and per-minute usage.
import { z } from "zod";
import { emptyPage } from "../model/collection";
import { pagingOnlyQuery } from "../model/paging";
import { intBetween, queryInt } from "../pipeline/validation";
import { checkJoinable, joinToken, roomCitiesRoute, roomCollection, roomView } from "./rooms";
import { type TalkRoomRow, talkRooms } from "./state";

// The same body for create and patch, `name` required in both (as the API lists it).
const roomBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(["room", "live"]).optional(),
  city: z.string().optional(),
  visibility: z.enum(["public", "unlisted"]).optional(),
  max_peers: intBetween(2, 1000).optional(),
  max_kbps: intBetween(64, 20000).optional(),
  retention_days: intBetween(0, 3650).optional(),
  public_join: z.boolean().optional(),
  enabled: z.boolean().optional(),
});

const TALK_DEFAULTS: Omit<TalkRoomRow, "id" | "account" | "name" | "passcode" | "created_at"> = {
  kind: "room",
  city: "fra",
  visibility: "public",
  max_peers: 50,
  max_kbps: 2000,
  retention_days: 30,
  public_join: false,
  enabled: true,
};

const rooms = roomCollection({ path: "/talk/rooms", table: talkRooms, body: roomBody, defaults: TALK_DEFAULTS });

export const talkRoutes = [
  roomCitiesRoute("/talk/cities"),
  ...rooms.routes,
  rooms.member(
    "PUT",
    "passcode",
    (row, ctx) => {
      row.passcode = ctx.body.passcode === "" ? null : ctx.body.passcode;
      return roomView(row);
    },
    { body: z.strictObject({ passcode: z.string().max(64) }) },
  ),
  rooms.member(
    "POST",
    "join",
    (row, ctx) => {
      checkJoinable(row);
      return { room_id: row.id, token: joinToken(), readonly: ctx.body.readonly ?? false, expires_in: 300 };
    },
    {
      body: z.strictObject({
        label: z.string().max(100).optional(),
        peer_id: z.string().max(100).optional(),
        readonly: z.boolean().optional(),
      }),
    },
  ),
  rooms.member("GET", "history", () => ({ data: [], next_cursor: null }), {
    query: z.strictObject({ cursor: queryInt(0).optional(), limit: queryInt(1).optional() }),
  }),
  rooms.member("GET", "usage", emptyPage, { query: pagingOnlyQuery }),
];
