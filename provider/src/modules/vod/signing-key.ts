import { z } from "zod";
import { oneTimeSecret } from "../../framework/api/validators";
import { collection, apiId, fromList, postOnce } from "../../framework/api/shapes/collection";
import { ownIdOf } from "../../framework/api/ids";
import { dropNone, VOD_STRING_ID } from "./ids";

const TOKEN = "nsp:vod:SigningKey";

const keyArgs = z.object({
  note: z.string().max(256, "must be at most 256 characters").optional().meta({
    key: true,
    description: "What the key is for. The API cannot change it, so a new note makes a new key.",
    create: true,
    replace: true,
  }),
});

const keyState = z.object({
  secret: oneTimeSecret(
    "The signing secret, for signing playback addresses of private videos. The API shows it only when the " +
      "key is created, so it is kept from the state on every refresh; null after an import (replace the " +
      "resource to get a new key).",
  ),
  createdAt: z.string().meta({ description: "When the key was created." }),
});

// Null when this answer carries none; the framework then keeps the one from the prior state.
const keyIdOf = (id: string) =>
  ownIdOf(TOKEN, id, { what: "VOD signing key", form: "<keyId>", pattern: VOD_STRING_ID, example: "key_0123456789ab" });
// There is no GET of one key: it is found in the account's list.
const keys = collection({
  token: TOKEN,
  path: "/vod/keys",
  args: keyArgs,
  state: keyState,
  idOnWire: z.string(),
  id: apiId(keyIdOf),
  read: fromList(),
  adjust: (state) => ({ ...dropNone(state, ["note"]), secret: state.secret ?? null }),
});

export const signingKey = keys.resource({
  since: "0.1.0",
  list: { label: (k) => String(k.id) },
  description:
    "A playback signing key for private videos. Its secret is returned once, when the key is created, and " +
    "kept as a secret output. There is no change in place: a new note makes a new key.",
  importId: "<keyId>",

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  create: (ctx, args) => keys.create(ctx, "signing key", args, postOnce),
});
