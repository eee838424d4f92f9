import { z } from "zod";
import { collection, apiId, postOnce, fromList } from "../../framework/api/shapes/collection";
import { ownIdOf } from "../../framework/api/ids";
import { dropNone } from "./ids";

const TOKEN = "nsp:vod:Webhook";

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}

// The API has no change in place: every field is sent at create, and a change makes a new endpoint.
const sentOnce = { create: true, replace: true } as const;

const webhookArgs = z.object({
  url: z
    .string()
    .trim()
    .refine(isHttpUrl, "must be an absolute http:// or https:// URL without credentials")
    .meta({ key: true, description: "Address the VOD events would be POSTed to.", ...sentOnce }),
  events: z
    .array(z.string().trim().min(1, "must not be empty"))
    .default(["*"])
    .meta({ description: "Event names the endpoint subscribes to; `*` (the default) for all.", ...sentOnce }),
  note: z
    .string()
    .max(256, "must be at most 256 characters")
    .optional()
    .meta({ description: "A note for people.", ...sentOnce }),
});

const webhookState = z.object({
  deliveryEnabled: z.boolean().optional().meta({
    description: "Whether events are delivered; the API stores VOD event endpoints but has not switched delivery on.",
  }),
  createdAt: z.string().meta({ description: "When the endpoint was added." }),
});

// There is no GET of one endpoint: it is found in the account's list.
const webhooks = collection({
  token: TOKEN,
  path: "/vod/webhooks",
  args: webhookArgs,
  state: webhookState,
  idOnWire: z.number().int(),
  id: apiId((id) => ownIdOf(TOKEN, id, { what: "VOD event endpoint", form: "<hookId>" })),
  read: fromList(),
  adjust: (state) => dropNone(state, ["note"]),
});

export const webhook = webhooks.resource({
  since: "0.1.0",
  list: { label: (w) => String(w.url) },
  description:
    "A video-on-demand event endpoint. The API stores it but does not deliver to it yet " +
    "(`deliveryEnabled`). Every change makes a new endpoint, as the API has no change in place.",
  importId: "<hookId>",

  check(args) {
    const dup = args.events.findIndex((e, i) => args.events.indexOf(e) !== i);
    return dup >= 0
      ? [{ property: `events[${dup}]`, reason: `duplicate of events[${args.events.indexOf(args.events[dup]!)}]` }]
      : [];
  },

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  create: (ctx, args) => webhooks.create(ctx, "VOD event endpoint", args, postOnce),
});
