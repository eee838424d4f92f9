import { z } from "zod";
import { defineResource, type CheckFailure } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOnce } from "../../framework/create-once";
import { cityCode, numericRoomId, roomName } from "../talk/fields";

const TOKEN = "nsp:rtc:Room";

const roomArgs = z.object({
  name: roomName.meta({ description: "Name of the room." }),
  maxPeers: z.number().int().min(2, "must be at least 2").max(500, "must be at most 500").optional().meta({ description: "Most participants at once (2 to 500); the API's default (16 in the emulator) when unset." }),
  maxVideo: z.number().int().min(0, "must be at least 0").max(100, "must be at most 100").optional().meta({ description: "Most participants sending video at once; at most `maxPeers`. The API's default (9 in the emulator) when unset." }),
  enabled: z.boolean().default(true).meta({ description: "Whether the room can be joined." }),
  publicJoin: z.boolean().default(false).meta({ description: "Whether anybody with the link may join without a token minted by the customer's backend." }),
  requireVerify: z.boolean().default(false).meta({ description: "Whether participants must pass bot verification before joining." }),
  cascade: z.boolean().default(false).meta({ description: "Whether the room spans several cities (participants join the node nearest to them)." }),
  record: z.boolean().default(false).meta({ description: "Whether every participant is recorded (one file each)." }),
  verifyLevel: z.enum(["standard", "strict", "maximum"]).default("standard").meta({ description: "How hard the verification is, when `requireVerify` is on." }),
  city: cityCode.optional().meta({ description: "City that hosts the room (see `nsp:rtc:getRtcCities`); the API's default when unset. Moving to a city without room is refused." }),
  passcode: z
    .string()
    .min(1, "must not be empty; leave it unset for no passcode")
    .max(64, "must be at most 64 characters")
    .optional()
    .meta({ description: "Passcode people must give to join. Secret; the API never returns it (`hasPasscode` shows whether one is set). Unset clears it." }),
});

const roomState = z.object({
  hasPasscode: z.boolean().meta({ description: "Whether the room has a passcode." }),
  createdAt: z.string().meta({ description: "When the room was created." }),
});

const roomProperties = roomArgs.extend(roomState.shape);
type RoomState = z.output<typeof roomProperties>;

const roomWire = z.looseObject({ id: z.number().int(), name: z.string(), city: z.string().optional() });
type RoomWire = z.output<typeof roomWire>;

const FIELDS = ["name", "maxPeers", "maxVideo", "enabled", "publicJoin", "requireVerify", "cascade", "record", "verifyLevel", "city", "passcode"] as const;
const toState = (raw: RoomWire) => ({ id: String(raw.id), state: fromWire(roomProperties, raw) as RoomState });
const idOf = (id: string) => numericRoomId(TOKEN, id);

export const rtcRoom = defineResource({
  token: TOKEN,
  description: "A realtime audio/video room. Participants join with short-lived tokens minted by the customer's backend (not managed here). The passcode is a secret input the API never returns.",
  args: roomArgs,
  state: roomState,
  secrets: ["passcode"],
  writeOnly: ["passcode"],
  importId: "<roomId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.maxVideo !== undefined && args.maxPeers !== undefined && args.maxVideo > args.maxPeers) failures.push({ property: "maxVideo", reason: `must not exceed maxPeers (${args.maxPeers})` });
    return failures;
  },

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `realtime room ${args.name}`,
      () => ctx.client.post("/rtc/rooms", body(roomArgs, args, FIELDS), { schema: roomWire, signal: ctx.signal }),
      // Room names need not be unique; the name and city are the best key there is.
      async () => (await ctx.client.listAll("/rtc/rooms", { itemSchema: roomWire, signal: ctx.signal })).find((r) => r.name === args.name && (args.city === undefined || r.city === args.city)),
    );
    return toState(created);
  },

  async read(ctx, id) {
    try {
      return toState(await ctx.client.get(`/rtc/rooms/${idOf(id)}`, { schema: roomWire, signal: ctx.signal }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds, changed) {
    // Dropping a field the API defaults leaves the last value, except the passcode: unset clears it.
    const keys = FIELDS.filter((k) => changed.includes(k) && (news[k] !== undefined || k === "passcode"));
    if (keys.length === 0) return { ...olds, ...news };
    const patch = body(roomArgs, { ...news, passcode: news.passcode ?? "" }, ["name", ...keys]);
    return toState(await ctx.client.patch(`/rtc/rooms/${idOf(id)}`, patch, { schema: roomWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/rtc/rooms/${idOf(id)}`, { signal: ctx.signal });
  },
});
