import { z } from "zod";
import { wireTimestamp } from "../../framework/wire";
import { defineResource } from "../../framework/definition";
import { stringIdOf } from "./ids";

const TOKEN = "nsp:vod:SigningKey";

const keyArgs = z.object({
  note: z.string().max(256, "must be at most 256 characters").optional().meta({ description: "What the key is for. The API cannot change it, so a new note makes a new key." }),
});

const keyState = z.object({
  secret: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        "The signing secret, for signing playback addresses of private videos. The API shows it only when the key is created, so it is kept from the state on every refresh; null after an import (replace the resource to get a new key).",
    }),
  createdAt: z.string().meta({ description: "When the key was created." }),
});

type KeyState = z.output<typeof keyArgs> & z.output<typeof keyState>;

const keyWire = z.looseObject({ id: z.string(), note: z.string().nullable().optional(), created_at: wireTimestamp, secret: z.string().optional() });
type KeyWire = z.output<typeof keyWire>;

function toState(raw: KeyWire) {
  const state: KeyState = { secret: raw.secret ?? null, createdAt: raw.created_at };
  if (raw.note !== null && raw.note !== undefined) state.note = raw.note;
  return { id: raw.id, state };
}

const keyIdOf = (id: string) => stringIdOf(TOKEN, id, "a VOD signing key id", "key_0123456789ab");

export const signingKey = defineResource({
  token: TOKEN,
  description: "A playback signing key for private videos. Its secret is returned once, when the key is created, and kept as a secret output. There is no change in place: a new note makes a new key.",
  args: keyArgs,
  state: keyState,
  replaceOnChanges: ["note"],
  secrets: ["secret"],
  oneTime: ["secret"],
  importId: "<keyId>",

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  async create(ctx, args) {
    return toState(await ctx.client.post("/vod/keys", args.note !== undefined ? { note: args.note } : {}, { schema: keyWire, signal: ctx.signal }));
  },

  // There is no GET of one key: it is found in the account's list.
  async read(ctx, id) {
    const keyId = keyIdOf(id);
    const found = (await ctx.client.listAll("/vod/keys", { itemSchema: keyWire, signal: ctx.signal })).find((k) => k.id === keyId);
    return found ? toState(found) : undefined;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/vod/keys/${encodeURIComponent(keyIdOf(id))}`, { signal: ctx.signal });
  },
});
