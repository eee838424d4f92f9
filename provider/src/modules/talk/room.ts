import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { cityCode, roomCollection, roomName, roomPasscode, type roomState } from "./fields";
import { naturalKey } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:talk:Room";
const both = { create: true, patch: true } as const;

const roomArgs = z.object({
  name: roomName.meta({ key: true, description: "Name of the room.", ...both }),
  kind: z
    .enum(["room", "live"])
    .default("room")
    .meta({ description: "`room` (everybody talks) or `live` (a few talk, many read).", ...both }),
  city: cityCode.optional().meta({
    description:
      "City that hosts the room (see `nsp:talk:getTalkCities`); the API's default (`fra` in the emulator) " +
      "when unset. Moving to a city without room is refused.",
    ...both,
  }),
  visibility: z
    .enum(["public", "unlisted"])
    .default("public")
    .meta({ description: "`public` rooms are listed; `unlisted` ones are reachable by id only.", ...both }),
  maxPeers: z
    .number()
    .int()
    .min(2, "must be at least 2")
    .max(1000, "must be at most 1000")
    .optional()
    .meta({ description: "Most participants at once (2 to 1000); the API's default when unset.", ...both }),
  maxKbps: z
    .number()
    .int()
    .min(64, "must be at least 64")
    .max(20000, "must be at most 20000")
    .optional()
    .meta({
      description: "Bandwidth cap per participant in kbit/s (64 to 20000); the API's default when unset.",
      ...both,
    }),
  retentionDays: z
    .number()
    .int()
    .min(0, "must be at least 0")
    .max(3650, "must be at most 3650")
    .optional()
    .meta({ description: "Days the history is kept (0 keeps none); the API's default when unset.", ...both }),
  publicJoin: z
    .boolean()
    .default(false)
    .meta({
      description: "Whether anybody with the link may join without a token minted by the customer's backend.",
      ...both,
    }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the room can be joined.", ...both }),
  // Set through its own endpoint, not in the room's bodies.
  passcode: roomPasscode,
});

type RoomState = z.output<typeof roomArgs> & z.output<typeof roomState>;

const rooms = roomCollection(TOKEN, "/talk/rooms", roomArgs);

function setPasscode(ctx: OperationContext, id: string, passcode: string | undefined) {
  return ctx.client.put(
    `${rooms.itemPath(id)}/passcode`,
    { passcode: passcode ?? "" },
    { schema: rooms.wire, signal: ctx.signal },
  );
}

export const talkRoom = rooms.resource({
  since: "0.1.0",
  description:
    "A chat room (conversation with history). The passcode is set through its own endpoint: a room with a " +
    "passcode is made in two calls; if the second fails the room stays in the stack and the next `pulumi " +
    "up` sets the passcode. Deleting the room deletes its history.",
  importId: "<roomId>",

  async create(ctx, args) {
    // Room names need not be unique; the name with its kind and city is the best key there is.
    const made = await rooms.create(
      ctx,
      `chat room ${args.name}`,
      args,
      naturalKey(
        (r) => r.name === args.name && r.kind === args.kind && (args.city === undefined || r.city === args.city),
      ),
    );
    if (args.passcode === undefined) return made;
    ctx.progress(made.id, made.state);
    return rooms.toState(await setPasscode(ctx, made.id, args.passcode));
  },

  async update(ctx, id, news, olds, changed) {
    let state: RoomState = await rooms.update(ctx, id, news, olds, changed);
    if (changed.includes("passcode")) state = rooms.toState(await setPasscode(ctx, id, news.passcode)).state;
    return state;
  },
});
