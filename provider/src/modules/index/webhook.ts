import { isIP } from "node:net";
import { z } from "zod";
import { wireTimestamp } from "../../framework/wire";
import { defineResource } from "../../framework/definition";
import { isNotFound } from "../../client";

const TOKEN = "nsp:index:Webhook";
const NUMERIC_ID = /^[1-9][0-9]{0,15}$/;

/** The URL as the API stores it (WHATWG-normalised), so a second `up` shows no change. */
const publicHttpsUrl = z
  .string()
  .trim()
  .transform((s, ctx) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an absolute https:// URL" });
      return z.NEVER;
    }
    const host = u.hostname.replace(/^\[|\]$/g, "");
    if (u.protocol !== "https:") ctx.addIssue({ code: "custom", message: "must use https://" });
    else if (u.username || u.password) ctx.addIssue({ code: "custom", message: "must not carry credentials" });
    else if (isIP(host) === 0 && (!host.includes(".") || /(^|\.)(localhost|local|internal|localdomain)$/.test(host))) {
      ctx.addIssue({ code: "custom", message: "must be a public host name" });
    }
    return u.href;
  });

const webhookArgs = z.object({
  url: publicHttpsUrl.meta({ description: "The public https:// endpoint deliveries are POSTed to." }),
  events: z
    .array(z.string().trim().min(1, "must not be empty"))
    .min(1, "must name at least one event, or `*` for all")
    .default(["*"])
    .meta({ description: "Event names to deliver (`nsp:index:getWebhookEvents` lists them), or `[\"*\"]` for all (the default)." }),
  enabled: z.boolean().default(true).meta({ description: "Whether deliveries are sent." }),
  note: z.string().max(255, "must be at most 255 characters").optional().meta({ description: "Free-form note." }),
});

const webhookState = z.object({
  secret: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        "The HMAC-SHA256 signing secret of deliveries. The API shows it only when the endpoint is created, so it is kept from the state on every refresh; null after an import (replace the resource to get a new one).",
    }),
  lastStatus: z.number().int().nullable().optional().meta({ description: "HTTP status of the last delivery." }),
  lastAt: z.string().nullable().optional().meta({ description: "When the last delivery was attempted." }),
  failures: z.number().int().meta({ description: "Failed deliveries counted by the API." }),
  createdAt: z.string().meta({ description: "When the endpoint was created." }),
});

type WebhookState = z.output<typeof webhookArgs> & z.output<typeof webhookState>;

const webhookWire = z.looseObject({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  note: z.string().nullable(),
  last_status: z.number().int().nullable(),
  last_at: wireTimestamp.nullable(),
  failures: z.number().int(),
  created_at: wireTimestamp,
  secret: z.string().nullable().optional(),
});
type WebhookWire = z.output<typeof webhookWire>;

function toState(w: WebhookWire) {
  const state: WebhookState = {
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    secret: w.secret ?? null,
    lastStatus: w.last_status,
    lastAt: w.last_at,
    failures: w.failures,
    createdAt: w.created_at,
  };
  if (w.note !== null) state.note = w.note;
  return { id: String(w.id), state };
}

function webhookIdOf(id: string): string {
  if (!NUMERIC_ID.test(id)) throw new Error(`${TOKEN}: id "${id}" must be a numeric webhook id (<webhookId>)`);
  return id;
}

const PATCHABLE = { url: "url", events: "events", enabled: "enabled", note: "note" } as const;

export const webhook = defineResource({
  token: TOKEN,
  description:
    "A webhook endpoint: events are POSTed to its URL, signed with HMAC-SHA256 using `secret`, a secret output the API shows once. An account may have at most 10 endpoints.",
  args: webhookArgs,
  state: webhookState,
  secrets: ["secret"],
  oneTime: ["secret"],
  importId: "<webhookId>",

  check(args) {
    if (args.events.includes("*") && args.events.length > 1) return [{ property: "events", reason: "`*` already subscribes to every event; give it alone" }];
    if (new Set(args.events).size !== args.events.length) return [{ property: "events", reason: "names an event twice" }];
    return [];
  },

  // Not createOnce: a URL may be registered twice, so there is no natural key to look up, and an
  // adopted endpoint would have lost its secret anyway.
  async create(ctx, args) {
    const created = await ctx.client.post(
      "/webhooks",
      { url: args.url, events: args.events, ...(args.note !== undefined ? { note: args.note } : {}) },
      { schema: webhookWire, signal: ctx.signal },
    );
    const result = toState(created);
    if (args.enabled) return result;
    // The create body has no `enabled`; a disabled endpoint takes a patch.
    ctx.progress(result.id, result.state);
    const patched = toState(await ctx.client.patch(`/webhooks/${result.id}`, { enabled: false }, { schema: webhookWire, signal: ctx.signal }));
    return { id: result.id, state: { ...patched.state, secret: result.state.secret } };
  },

  async read(ctx, id) {
    try {
      return toState(await ctx.client.get(`/webhooks/${webhookIdOf(id)}`, { schema: webhookWire, signal: ctx.signal }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds, changed) {
    if (changed.length === 0) return { ...olds, ...news };
    const patch: Record<string, unknown> = {};
    // A note the program stopped setting is cleared.
    for (const k of changed) patch[PATCHABLE[k]] = news[k] ?? null;
    const updated = toState(await ctx.client.patch(`/webhooks/${webhookIdOf(id)}`, patch, { schema: webhookWire, signal: ctx.signal }));
    return updated.state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/webhooks/${webhookIdOf(id)}`, { signal: ctx.signal });
  },
});
