import { z } from "zod";
import { displayName, oneTimeSecret, rotationTrigger } from "../../framework/api/validators";
import type { OperationContext } from "../../framework/definition";
import { collection, type Item, apiId, postOnce } from "../../framework/api/shapes/collection";
import { channelIdOf } from "./ids";

const TOKEN = "nsp:stream:Channel";

// Every setting is in the create and the patch body; `name` goes in every patch, as the API requires it.
const both = { create: true, patch: true } as const;

const channelArgs = z.object({
  name: displayName.meta({ key: true, description: "Name of the channel.", ...both }),
  visibility: z
    .enum(["public", "unlisted"])
    .default("public")
    .meta({ description: "`public` or `unlisted`.", ...both }),
  placement: z
    .enum(["city", "anycast"])
    .default("anycast")
    .meta({
      description: "Where the ingest runs: `anycast` (nearest city) or `city` (the one named by `city`).",
      ...both,
    }),
  city: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]{2,16}$/, "must be a city code such as ams (see nsp:stream:getStreamCities)")
    .optional()
    // Dropped from the program: no city (anycast).
    .meta({
      description:
        "Ingest city code (see `nsp:stream:getStreamCities`); required with `placement: city`, not allowed otherwise.",
      ...both,
      clearedAs: null,
    }),
  renditions: z
    .number()
    .int("must be an integer")
    .min(1, "must be between 1 and 5")
    .max(5, "must be between 1 and 5")
    .default(3)
    .meta({ description: "Number of renditions (quality steps) produced, 1 to 5.", ...both }),
  record: z
    .boolean()
    .default(false)
    .meta({ description: "Whether broadcasts are recorded.", ...both }),
  latencyMode: z
    .enum(["low", "standard"])
    .default("standard")
    .meta({ description: "`low` or `standard` latency.", ...both }),
  delayS: z
    .number()
    .int("must be an integer")
    .min(0, "must be between 0 and 300")
    .max(300, "must be between 0 and 300")
    .default(0)
    .meta({ description: "Broadcast delay in seconds, 0 to 300.", ...both }),
  quality: z
    .enum(["high", "standard"])
    .default("standard")
    .meta({ description: "`high` or `standard` encoding quality.", ...both }),
  watermark: z
    .enum(["off", "br", "tl"])
    .default("off")
    .meta({ description: "Watermark position: `off`, `br` (bottom right) or `tl` (top left).", ...both }),
  allowRtmp: z
    .boolean()
    .default(true)
    .meta({ description: "Whether RTMP ingest is accepted besides SRT.", ...both }),
  realtimePlay: z
    .boolean()
    .default(false)
    .meta({ description: "Whether viewers may play in realtime mode.", ...both }),
  recordingStore: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({
      description:
        "Where recordings are copied (a storage destination); sent to the API as written, field names in the " +
        "API's snake_case. Removing it from the program clears it.",
      ...both,
      clearedAs: null,
    }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the channel accepts broadcasts.", ...both }),
  keyRotation: rotationTrigger(
    "Any string or number; changing it (or removing it) issues a new stream key, held in `streamKey`. The " +
      "API never sees this value.",
  ),
  revokeOnRotation: z
    .boolean()
    .optional()
    .meta({
      description:
        "With a key rotation: end the broadcast on air at once (the API's `revoke_now`) instead of letting it " +
        "continue with the old key. The API never stores this value.",
      local: true,
    }),
});

const channelState = z.object({
  state: z.string().meta({ description: "`idle`, or `live` while a broadcast is on air." }),
  ingest: z
    .object({
      srt: z.string().optional().meta({ description: "SRT ingest address." }),
      rtmp: z
        .string()
        .nullable()
        .optional()
        .meta({ description: "RTMP ingest address; null when RTMP is not allowed." }),
    })
    .optional()
    .meta({ typeName: "StreamIngest", description: "Where encoders publish." }),
  playbackUrl: z.string().optional().meta({ description: "Playback address of the channel." }),
  streamKey: oneTimeSecret(
    "The stream key encoders publish with. The API shows it only when the channel is created and when a " +
      "new key is issued, so it is kept from the state on every refresh; null after an import (change " +
      "`keyRotation` to get one).",
  ),
  keyIssuedAt: z.string().nullable().optional().meta({
    description:
      "When the current stream key was issued; a change on refresh means a key was issued outside this program.",
  }),
  createdAt: z.string().meta({ description: "When the channel was created." }),
});

function adjust<T extends { streamKey?: string | null; city?: string | null; recordingStore?: unknown }>(state: T): T {
  state.streamKey ??= null;
  // Null on the wire means "none", which the program says by leaving the input out.
  if (state.city === null) delete state.city;
  if (state.recordingStore === null) delete state.recordingStore;
  return state;
}
const channels = collection({
  token: TOKEN,
  path: "/stream/streams",
  args: channelArgs,
  state: channelState,
  idOnWire: z.number().int(),
  id: apiId((id) => channelIdOf(TOKEN, id)),
  adjust,
});
const toState = (raw: Item) => channels.toState(raw).state;
type ChannelState = ReturnType<typeof toState>;

function rotate(ctx: OperationContext, channelId: string, revokeNow: boolean | undefined): Promise<Item> {
  return ctx.client.post(
    `${channels.itemPath(channelId)}/key`,
    revokeNow === undefined ? {} : { revoke_now: revokeNow },
    { schema: channels.wire, signal: ctx.signal },
  );
}

export const channel = channels.resource({
  since: "0.1.0",
  description:
    "A live-streaming channel. Its stream key (a secret, shown by the API once) is kept in `streamKey`; " +
    "change `keyRotation` to issue a new one. Deleting the channel ends a broadcast on air.",
  importId: "<channelId>",

  check(args) {
    if (args.placement === "city" && args.city === undefined)
      return [{ property: "city", reason: "is required when placement is city (see nsp:stream:getStreamCities)" }];
    if (args.placement === "anycast" && args.city !== undefined)
      return [{ property: "city", reason: "must be left out unless placement is city" }];
    return [];
  },

  // No natural key (names need not be unique), so a lost answer is not looked up: the client never repeats a POST blindly.
  async create(ctx, args) {
    const { id, state } = await channels.create(ctx, "channel", args, postOnce);
    if (args.keyRotation !== undefined) state.keyRotation = args.keyRotation;
    if (args.revokeOnRotation !== undefined) state.revokeOnRotation = args.revokeOnRotation;
    return { id, state };
  },

  async read(ctx, id, prior) {
    const found = await channels.read(ctx, id);
    if (!found) return undefined;
    const { id: channelId, state } = found;
    if (prior.streamKey && prior.keyIssuedAt && state.keyIssuedAt && prior.keyIssuedAt !== state.keyIssuedAt) {
      ctx.log(
        "warning",
        `a new stream key was issued for channel ${channelId} outside this program, so the one in the state ` +
          `no longer works; change keyRotation to issue one here`,
      );
    }
    return { id: channelId, state };
  },

  async update(ctx, id, news, olds, changed) {
    const channelId = channelIdOf(TOKEN, id);
    let state: ChannelState = { ...olds, ...news };
    const { api } = channels;
    const patchKeys = api.patchKeys(changed);
    if (patchKeys.length > 0) {
      const patch = api.patchBody(news, ["name", ...patchKeys]);
      state = toState(
        await ctx.client.patch(channels.itemPath(channelId), patch, { schema: channels.wire, signal: ctx.signal }),
      );
    }
    if (changed.includes("keyRotation")) state = toState(await rotate(ctx, channelId, news.revokeOnRotation));
    const out: ChannelState = { ...state };
    delete out.keyRotation;
    delete out.revokeOnRotation;
    if (news.keyRotation !== undefined) out.keyRotation = news.keyRotation;
    if (news.revokeOnRotation !== undefined) out.revokeOnRotation = news.revokeOnRotation;
    return out;
  },
});
