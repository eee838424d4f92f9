import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { fromWire } from "../../framework/wire";
import { numericIdOf } from "./ids";

const TOKEN = "nsp:vod:Webhook";

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}

const webhookArgs = z.object({
  url: z.string().trim().refine(isHttpUrl, "must be an absolute http:// or https:// URL without credentials").meta({ description: "Address the VOD events would be POSTed to." }),
  events: z
    .array(z.string().trim().min(1, "must not be empty"))
    .default(["*"])
    .meta({ description: "Event names the endpoint subscribes to; `*` (the default) for all." }),
  note: z.string().max(256, "must be at most 256 characters").optional().meta({ description: "A note for people." }),
});

const webhookState = z.object({
  deliveryEnabled: z.boolean().optional().meta({ description: "Whether events are delivered; the API stores VOD event endpoints but has not switched delivery on." }),
  createdAt: z.string().meta({ description: "When the endpoint was added." }),
});

const webhookProperties = webhookArgs.extend(webhookState.shape);
type WebhookState = z.output<typeof webhookProperties>;

const webhookWire = z.looseObject({ id: z.number().int(), url: z.string(), note: z.string().nullable().optional() });
type WebhookWire = z.output<typeof webhookWire>;

function toState(raw: WebhookWire) {
  const state = fromWire(webhookProperties, raw) as WebhookState;
  if (raw.note === null) delete state.note;
  return { id: String(raw.id), state };
}

const hookIdOf = (id: string) => numericIdOf(TOKEN, id, "a VOD event endpoint id");

export const webhook = defineResource({
  token: TOKEN,
  description:
    "A video-on-demand event endpoint. The API stores it but does not deliver to it yet (`deliveryEnabled`). Every change makes a new endpoint, as the API has no change in place.",
  args: webhookArgs,
  state: webhookState,
  replaceOnChanges: ["url", "events", "note"],
  importId: "<hookId>",

  check(args) {
    const dup = args.events.findIndex((e, i) => args.events.indexOf(e) !== i);
    return dup >= 0 ? [{ property: `events[${dup}]`, reason: `duplicate of events[${args.events.indexOf(args.events[dup]!)}]` }] : [];
  },

  // No natural key: a lost answer is not looked up, and the client never repeats a POST blindly.
  async create(ctx, args) {
    const payload = { url: args.url, events: args.events, ...(args.note !== undefined ? { note: args.note } : {}) };
    return toState(await ctx.client.post("/vod/webhooks", payload, { schema: webhookWire, signal: ctx.signal }));
  },

  // There is no GET of one endpoint: it is found in the account's list.
  async read(ctx, id) {
    const hookId = hookIdOf(id);
    const found = (await ctx.client.listAll("/vod/webhooks", { itemSchema: webhookWire, signal: ctx.signal })).find((w) => String(w.id) === hookId);
    return found ? toState(found) : undefined;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/vod/webhooks/${hookIdOf(id)}`, { signal: ctx.signal });
  },
});
