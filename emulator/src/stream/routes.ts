// Live streaming: channels (the stream key is in the create and new-key answers only), the
// fallback programme, ingest cities, and the read-only history. The emulator has no ingest, so
// sessions and recordings are always empty and recording ids are never found.
import { z } from "zod";
import { assignDefined, collection, emptyPage, neverHeld } from "../model/collection";
import { pagingOnlyQuery } from "../model/paging";
import { ApiError, invalid } from "../pipeline/errors";
import { route } from "../pipeline/route";
import {
  CITIES,
  type ChannelRow,
  DELAY_MAX,
  LATENCY_MODES,
  PLACEMENTS,
  PROGRAMME_ITEMS_MAX,
  PROGRAMME_MODES,
  QUALITIES,
  RENDITIONS_MAX,
  RENDITIONS_MIN,
  VISIBILITIES,
  WATERMARKS,
  channelView,
  newStreamKey,
  streamChannels,
} from "./state";
import { intBetween } from "../pipeline/validation";

const settings = {
  visibility: z.enum(VISIBILITIES).optional(),
  placement: z.enum(PLACEMENTS).optional(),
  city: z.string().trim().toLowerCase().nullable().optional(),
  renditions: intBetween(RENDITIONS_MIN, RENDITIONS_MAX).optional(),
  record: z.boolean().optional(),
  latency_mode: z.enum(LATENCY_MODES).optional(),
  delay_s: intBetween(0, DELAY_MAX).optional(),
  quality: z.enum(QUALITIES).optional(),
  watermark: z.enum(WATERMARKS).optional(),
  allow_rtmp: z.boolean().optional(),
  realtime_play: z.boolean().optional(),
  recording_store: z.record(z.string(), z.unknown()).nullable().optional(),
  enabled: z.boolean().optional(),
};

// The API documents one channel body for create and patch, `name` required in both.
const channelBody = z.strictObject({ name: z.string().trim().min(1).max(100), ...settings });
type ChannelBody = z.output<typeof channelBody>;

const keyBody = z.strictObject({ revoke_now: z.boolean().optional() });

const programmeBody = z.strictObject({
  enabled: z.boolean().optional(),
  mode: z.enum(PROGRAMME_MODES).optional(),
  items: z.array(z.record(z.string(), z.unknown())).max(PROGRAMME_ITEMS_MAX).optional(),
  updated_at: z.string().optional(),
});

const recordingPatchBody = z.strictObject({
  title: z.string().max(200).optional(),
  description: z.string().max(5000).optional(),
  passcode: z.string().max(64).optional(),
  visibility: z.enum(["public", "unlisted", "private"]).optional(),
});

/** The stream key is in the create and new-key answers only. */
const withKey = (c: ChannelRow) => ({ ...channelView(c), stream_key: c.stream_key });

/** Placement and city taken together, after merging a patch into the channel. */
function placementOf(
  body: ChannelBody,
  prior?: ChannelRow,
): { placement: ChannelRow["placement"]; city: string | null } {
  const placement = body.placement ?? prior?.placement ?? "anycast";
  let city = body.city !== undefined ? body.city || null : (prior?.city ?? null);
  if (placement === "anycast") {
    if (body.city) throw invalid("city", "must be empty unless placement is city");
    city = null;
  } else {
    if (city === null) throw invalid("city", "is required when placement is city (see GET /stream/cities)");
    const known = CITIES.find((c) => c.code === city);
    if (!known) throw invalid("city", `must be one of ${CITIES.map((c) => c.code).join(", ")}`);
    // A channel already in the city keeps its place; only a move needs room.
    if (!known.has_room && city !== prior?.city)
      throw new ApiError(
        "conflict",
        `city: ${city} has no room for another channel now; choose another city or anycast`,
      );
  }
  return { placement, city };
}

const channels = collection({
  path: "/stream/streams",
  what: "stream channel",
  table: ({ store }) => streamChannels(store),
  view: channelView,
  create: {
    body: channelBody,
    build: (ctx): ChannelRow => {
      const { body, store } = ctx;
      const where = placementOf(body);
      const now = store.timestamp();
      return {
        id: store.nextId(),
        account: ctx.account.name,
        name: body.name,
        visibility: body.visibility ?? "public",
        ...where,
        renditions: body.renditions ?? 3,
        record: body.record ?? false,
        latency_mode: body.latency_mode ?? "standard",
        delay_s: body.delay_s ?? 0,
        quality: body.quality ?? "standard",
        watermark: body.watermark ?? "off",
        allow_rtmp: body.allow_rtmp ?? true,
        realtime_play: body.realtime_play ?? false,
        recording_store: body.recording_store ?? null,
        enabled: body.enabled ?? true,
        stream_key: newStreamKey(),
        key_issued_at: now,
        state: "idle",
        programme: { enabled: false, mode: "loop", items: [], updated_at: now },
        created_at: now,
      };
    },
    answer: withKey,
  },
  patch: {
    body: channelBody,
    apply: ({ body }, c) => {
      Object.assign(c, placementOf(body, c));
      assignDefined(c, body, [
        "name",
        "visibility",
        "renditions",
        "record",
        "latency_mode",
        "delay_s",
        "quality",
        "watermark",
        "allow_rtmp",
        "realtime_play",
        "recording_store",
        "enabled",
      ]);
    },
  },
  remove: true,
});

export const streamRoutes = [
  route({
    method: "GET",
    path: "/stream/cities",
    scope: "read",
    handler: () => ({ data: CITIES.map((c) => ({ ...c })) }),
  }),

  ...channels.routes,

  channels.member(
    "POST",
    "key",
    (c, ctx) => {
      c.stream_key = newStreamKey();
      c.key_issued_at = ctx.store.timestamp();
      if (ctx.body.revoke_now) c.state = "idle";
      return withKey(c);
    },
    { body: keyBody },
  ),

  channels.member("POST", "stop", (c) => {
    c.state = "idle";
    return channelView(c);
  }),

  channels.member("GET", "programme", (c) => ({ channel_id: c.id, ...c.programme })),

  channels.member(
    "PUT",
    "programme",
    (c, ctx) => {
      const { body } = ctx;
      // `updated_at` guards against overwriting a programme somebody else changed meanwhile.
      if (body.updated_at !== undefined && body.updated_at !== c.programme.updated_at) {
        throw new ApiError(
          "conflict",
          `updated_at: the programme was changed at ${c.programme.updated_at}; read it again`,
        );
      }
      c.programme = {
        enabled: body.enabled ?? false,
        mode: body.mode ?? "loop",
        items: body.items ?? [],
        updated_at: ctx.store.timestamp(),
      };
      return { channel_id: c.id, ...c.programme };
    },
    { body: programmeBody },
  ),

  channels.member("GET", "sessions", emptyPage, { query: pagingOnlyQuery }),
  channels.member("GET", "recordings", emptyPage, { query: pagingOnlyQuery }),
  channels.member("DELETE", "recordings/{rec_id}", neverHeld("recording")),
  channels.member("POST", "recordings/{rec_id}/reexport", neverHeld("recording")),
  route({ method: "GET", path: "/stream/recordings/{rec_id}", scope: "read", handler: neverHeld("recording") }),
  route({
    method: "PATCH",
    path: "/stream/recordings/{rec_id}",
    scope: "write",
    body: recordingPatchBody,
    handler: neverHeld("recording"),
  }),
];
