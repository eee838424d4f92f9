// Meetings: the account's default policy for new meetings (a singleton, read and patched, never
// created or deleted), plus the read-only views and the few actions on meetings and recordings.
import { z } from "zod";
import { assignPresent, settings } from "../model/collection";
import { invalid, notFound } from "../pipeline/errors";
import { paginate, pagingOnlyQuery, pagingQuery } from "../model/paging";
import { route } from "../pipeline/route";
import { intBetween, queryInt } from "../pipeline/validation";
import { ROOM_CITIES } from "../talk/state";
import { type MeetSettings, settingsOf } from "./state";

const bool = z.boolean().optional();
const patchBody = z.strictObject({
  waiting_room: bool,
  waiting_room_all: bool,
  guests_allowed: bool,
  mute_on_entry: bool,
  cam_off_on_entry: bool,
  chat: bool,
  reactions: bool,
  host_must_join_first: bool,
  locked_default: bool,
  share_policy: z.enum(["anyone", "host_only", "host_approve"]).optional(),
  record_policy: z.enum(["off", "host", "auto"]).optional(),
  city: z.string().optional(),
  phone_lang: z.enum(["en", "zh"]).optional(),
  retention: z.strictObject({ days: intBetween(1, 3650) }).optional(),
});

const meetCities = () =>
  ROOM_CITIES.filter((c) => c.has_room).map((c) => ({ id: c.id, name: c.name, country: c.country }));
const view = (s: MeetSettings) => ({ ...s, retention: { ...s.retention }, cities: meetCities() });

export const meetRoutes = [
  ...settings({
    path: "/meet/settings",
    read: (ctx) => view(settingsOf(ctx.store, ctx.account.name)),
    body: patchBody,
    write: (ctx) => {
      const s = settingsOf(ctx.store, ctx.account.name);
      const b = ctx.body;
      if (b.city !== undefined && !meetCities().some((c) => c.id === b.city))
        throw invalid(
          "city",
          `must be a city that accepts meetings (${meetCities()
            .map((c) => c.id)
            .join(", ")})`,
        );
      if (b.waiting_room_all === true && (b.waiting_room ?? s.waiting_room) === false)
        throw invalid("waiting_room_all", "needs waiting_room");
      assignPresent(s, b);
      return view(s);
    },
  }),
  route({
    method: "GET",
    path: "/meet/overview",
    scope: "read",
    handler: () => ({ running: [], month_cost_micros: 0, limits: { participants: 0, recording_bytes: 0 } }),
  }),
  route({
    method: "GET",
    path: "/meet/usage",
    scope: "read",
    query: z.strictObject({ days: queryInt(1, 366).optional() }),
    handler: () => ({ data: [] }),
  }),
  route({
    method: "GET",
    path: "/meet/audit",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([], ctx.query),
  }),
  route({
    method: "GET",
    path: "/meet/meetings",
    scope: "read",
    query: z.strictObject({
      ...pagingQuery,
      state: z.enum(["active", "ended", "deleted"]).optional(),
      q: z.string().optional(),
      group: z.enum(["live", "upcoming", "past"]).optional(),
      kind: z.enum(["instant", "scheduled", "recurring", "dialin"]).optional(),
      scope: z.enum(["mine", "org"]).optional(),
    }),
    handler: (ctx) => paginate([], ctx.query),
  }),
  // The emulator holds no meetings (they are made by people in the meeting app, not by this API).
  route({
    method: "GET",
    path: "/meet/meetings/{id}",
    scope: "read",
    handler: () => {
      throw notFound("meeting");
    },
  }),
  route({
    method: "POST",
    path: "/meet/meetings/{id}/end",
    scope: "write",
    handler: () => {
      throw notFound("meeting");
    },
  }),
  route({
    method: "GET",
    path: "/meet/sessions/{id}/events",
    scope: "read",
    query: pagingOnlyQuery,
    handler: () => {
      throw notFound("session");
    },
  }),
  route({
    method: "GET",
    path: "/meet/recordings",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([], ctx.query),
  }),
  route({
    method: "DELETE",
    path: "/meet/recordings/{id}",
    scope: "write",
    handler: () => {
      throw notFound("recording");
    },
  }),
  route({
    method: "POST",
    path: "/meet/recordings/{id}/recompose",
    scope: "write",
    handler: () => {
      throw notFound("recording");
    },
  }),
];
