import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOnce } from "../../framework/create-once";
import { cityCode, numericRoomId, roomName } from "./fields";

const TOKEN = "nsp:talk:Room";

const roomArgs = z.object({
  name: roomName.meta({ description: "Name of the room." }),
  kind: z.enum(["room", "live"]).default("room").meta({ description: "`room` (everybody talks) or `live` (a few talk, many read)." }),
  city: cityCode.optional().meta({ description: "City that hosts the room (see `nsp:talk:getTalkCities`); the API's default (`fra` in the emulator) when unset. Moving to a city without room is refused." }),
  visibility: z.enum(["public", "unlisted"]).default("public").meta({ description: "`public` rooms are listed; `unlisted` ones are reachable by id only." }),
  maxPeers: z.number().int().min(2, "must be at least 2").max(1000, "must be at most 1000").optional().meta({ description: "Most participants at once (2 to 1000); the API's default when unset." }),
  maxKbps: z.number().int().min(64, "must be at least 64").max(20000, "must be at most 20000").optional().meta({ description: "Bandwidth cap per participant in kbit/s (64 to 20000); the API's default when unset." }),
  retentionDays: z.number().int().min(0, "must be at least 0").max(3650, "must be at most 3650").optional().meta({ description: "Days the history is kept (0 keeps none); the API's default when unset." }),
  publicJoin: z.boolean().default(false).meta({ description: "Whether anybody with the link may join without a token minted by the customer's backend." }),
  enabled: z.boolean().default(true).meta({ description: "Whether the room can be joined." }),
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

const roomWire = z.looseObject({ id: z.number().int(), name: z.string(), kind: z.string().optional(), city: z.string().optional() });
type RoomWire = z.output<typeof roomWire>;

const PATCHABLE = ["name", "kind", "city", "visibility", "maxPeers", "maxKbps", "retentionDays", "publicJoin", "enabled"] as const;
const toState = (raw: RoomWire) => ({ id: String(raw.id), state: fromWire(roomProperties, raw) as RoomState });
const idOf = (id: string) => numericRoomId(TOKEN, id);

async function setPasscode(ctx: OperationContext, id: string, passcode: string | undefined): Promise<RoomWire> {
  return ctx.client.put(`/talk/rooms/${id}/passcode`, { passcode: passcode ?? "" }, { schema: roomWire, signal: ctx.signal });
}

export const talkRoom = defineResource({
  token: TOKEN,
  description:
    "A chat room (conversation with history). The passcode is set through its own endpoint: a room with a passcode is made in two calls; if the second fails the room stays in the stack and the next `pulumi up` sets the passcode. Deleting the room deletes its history.",
  args: roomArgs,
  state: roomState,
  secrets: ["passcode"],
  writeOnly: ["passcode"],
  importId: "<roomId>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `chat room ${args.name}`,
      () => ctx.client.post("/talk/rooms", body(roomArgs, args, PATCHABLE), { schema: roomWire, signal: ctx.signal }),
      // Room names need not be unique; the name with its kind and city is the best key there is.
      async () =>
        (await ctx.client.listAll("/talk/rooms", { itemSchema: roomWire, signal: ctx.signal })).find(
          (r) => r.name === args.name && r.kind === args.kind && (args.city === undefined || r.city === args.city),
        ),
    );
    const made = toState(created);
    if (args.passcode === undefined) return made;
    ctx.progress(made.id, made.state);
    return toState(await setPasscode(ctx, made.id, args.passcode));
  },

  async read(ctx, id) {
    try {
      return toState(await ctx.client.get(`/talk/rooms/${idOf(id)}`, { schema: roomWire, signal: ctx.signal }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds, changed) {
    const roomId = idOf(id);
    let state: RoomState = { ...olds, ...news };
    // Dropping a field the API defaults leaves the last value; `name` goes along, as the API requires it.
    const keys = PATCHABLE.filter((k) => changed.includes(k) && news[k] !== undefined);
    if (keys.length > 0) {
      state = toState(await ctx.client.patch(`/talk/rooms/${roomId}`, body(roomArgs, news, ["name", ...keys]), { schema: roomWire, signal: ctx.signal })).state;
    }
    if (changed.includes("passcode")) state = toState(await setPasscode(ctx, roomId, news.passcode)).state;
    return state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/talk/rooms/${idOf(id)}`, { signal: ctx.signal });
  },
});
