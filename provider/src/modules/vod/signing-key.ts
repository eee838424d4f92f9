import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { dropNone, stringIdOf } from "./ids";

const TOKEN = "nsp:vod:SigningKey";

const keyArgs = z.object({
  note: z.string().max(256, "must be at most 256 characters").optional().meta({ key: true, description: "What the key is for. The API cannot change it, so a new note makes a new key.", create: true, replace: true }),
});

const keyState = z.object({
  secret: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        "The signing secret, for signing playback addresses of private videos. The API shows it only when the key is created, so it is kept from the state on every refresh; null after an import (replace the resource to get a new key).",
      secret: true,
      oneTime: true,
    }),
  createdAt: z.string().meta({ description: "When the key was created." }),
});

const api = wireModel(keyArgs, keyState, { id: z.string() });
const keyWire = api.wire as z.ZodType<Record<string, unknown> & { id: string }>;

function toState(raw: z.output<typeof keyWire>) {
  // Null when this answer carries none; the framework then keeps the one from the prior state.
  const state = dropNone(api.toState(raw), ["note"]);
  return { id: raw.id, state: { ...state, secret: state.secret ?? null } };
}

const keyIdOf = (id: string) => stringIdOf(TOKEN, id, "a VOD signing key id", "key_0123456789ab");

export const signingKey = defineResource({
  token: TOKEN,
  description: "A playback signing key for private videos. Its secret is returned once, when the key is created, and kept as a secret output. There is no change in place: a new note makes a new key.",
  args: keyArgs,
  state: keyState,
  importId: "<keyId>",

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  async create(ctx, args) {
    return toState(await ctx.client.post("/vod/keys", api.createBody(args), { schema: keyWire, signal: ctx.signal }));
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
