import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { cityCode, roomCollection, roomName, roomPasscode } from "../talk/fields";
import { naturalKey } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:rtc:Room";
const both = { create: true, patch: true } as const;

const roomArgs = z.object({
  name: roomName.meta({ key: true, description: "Name of the room.", ...both }),
  maxPeers: z
    .number()
    .int()
    .min(2, "must be at least 2")
    .max(500, "must be at most 500")
    .optional()
    .meta({
      description: "Most participants at once (2 to 500); the API's default (16 in the emulator) when unset.",
      ...both,
    }),
  maxVideo: z
    .number()
    .int()
    .min(0, "must be at least 0")
    .max(100, "must be at most 100")
    .optional()
    .meta({
      description:
        "Most participants sending video at once; at most `maxPeers`. The API's default (9 in the emulator) when unset.",
      ...both,
    }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the room can be joined.", ...both }),
  publicJoin: z
    .boolean()
    .default(false)
    .meta({
      description: "Whether anybody with the link may join without a token minted by the customer's backend.",
      ...both,
    }),
  requireVerify: z
    .boolean()
    .default(false)
    .meta({ description: "Whether participants must pass bot verification before joining.", ...both }),
  cascade: z
    .boolean()
    .default(false)
    .meta({
      description: "Whether the room spans several cities (participants join the node nearest to them).",
      ...both,
    }),
  record: z
    .boolean()
    .default(false)
    .meta({ description: "Whether every participant is recorded (one file each).", ...both }),
  verifyLevel: z
    .enum(["standard", "strict", "maximum"])
    .default("standard")
    .meta({ description: "How hard the verification is, when `requireVerify` is on.", ...both }),
  city: cityCode.optional().meta({
    description:
      "City that hosts the room (see `nsp:rtc:getRtcCities`); the API's default when unset. Moving to a " +
      "city without room is refused.",
    ...both,
  }),
  passcode: roomPasscode.meta(both),
});

const rooms = roomCollection(TOKEN, "/rtc/rooms", roomArgs);

export const rtcRoom = rooms.resource({
  since: "0.1.0",
  description:
    "A realtime audio/video room. Participants join with short-lived tokens minted by the customer's " +
    "backend (not managed here). The passcode is a secret input the API never returns.",
  importId: "<roomId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.maxVideo !== undefined && args.maxPeers !== undefined && args.maxVideo > args.maxPeers)
      failures.push({ property: "maxVideo", reason: `must not exceed maxPeers (${args.maxPeers})` });
    return failures;
  },

  create: (ctx, args) =>
    // Room names need not be unique; the name and city are the best key there is.
    rooms.create(
      ctx,
      `realtime room ${args.name}`,
      args,
      naturalKey((r) => r.name === args.name && (args.city === undefined || r.city === args.city)),
    ),
});
