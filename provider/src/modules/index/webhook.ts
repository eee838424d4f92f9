import { isIP } from "node:net";
import { z } from "zod";
import { oneTimeSecret } from "../../framework/api/validators";
import { collection, apiId, postOnce } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:index:Webhook";
import { ownIdOf } from "../../framework/api/ids";

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
  url: publicHttpsUrl.meta({
    key: true,
    description: "The public https:// endpoint deliveries are POSTed to.",
    create: true,
    patch: true,
  }),
  events: z
    .array(z.string().trim().min(1, "must not be empty"))
    .min(1, "must name at least one event, or `*` for all")
    .default(["*"])
    .meta({
      description:
        'Event names to deliver (`nsp:index:getWebhookEvents` lists them), or `["*"]` for all (the default).',
      create: true,
      patch: true,
    }),
  // The create body has no `enabled`; a disabled endpoint takes a patch.
  enabled: z.boolean().default(true).meta({ description: "Whether deliveries are sent.", patch: true }),
  note: z
    .string()
    .max(255, "must be at most 255 characters")
    .optional()
    .meta({ description: "Free-form note.", create: true, patch: true, clearedAs: null }),
});

const webhookState = z.object({
  secret: oneTimeSecret(
    "The HMAC-SHA256 signing secret of deliveries. The API shows it only when the endpoint is created, so " +
      "it is kept from the state on every refresh; null after an import (replace the resource to get a new " +
      "one).",
  ),
  lastStatus: z.number().int().nullable().optional().meta({ description: "HTTP status of the last delivery." }),
  lastAt: z.string().nullable().optional().meta({ description: "When the last delivery was attempted." }),
  failures: z.number().int().meta({ description: "Failed deliveries counted by the API." }),
  createdAt: z.string().meta({ description: "When the endpoint was created." }),
});

function webhookIdOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "webhook", form: "<webhookId>" });
}

// Null, not absent, where an answer has no secret: the state keeps the one shown at create.
// A note the API holds as null is no note, as the program leaves it unset.
function adjust<T extends { note?: string | null; secret?: string | null }>({ note, ...state }: T) {
  return { ...state, secret: state.secret ?? null, ...(note != null ? { note } : {}) } as T;
}
const webhooks = collection({
  token: TOKEN,
  path: "/webhooks",
  args: webhookArgs,
  state: webhookState,
  idOnWire: z.number().int(),
  id: apiId(webhookIdOf),
  adjust,
});

export const webhook = webhooks.resource({
  since: "0.1.0",
  list: { label: (w) => String(w.url) },
  description:
    "A webhook endpoint: events are POSTed to its URL, signed with HMAC-SHA256 using `secret`, a secret " +
    "output the API shows once. An account may have at most 10 endpoints.",
  importId: "<webhookId>",

  check(args) {
    if (args.events.includes("*") && args.events.length > 1)
      return [{ property: "events", reason: "`*` already subscribes to every event; give it alone" }];
    if (new Set(args.events).size !== args.events.length)
      return [{ property: "events", reason: "names an event twice" }];
    return [];
  },

  // Not createOnce: a URL may be registered twice, so there is no natural key to look up, and an
  // adopted endpoint would have lost its secret anyway.
  async create(ctx, args) {
    const result = await webhooks.create(ctx, "webhook", args, postOnce);
    if (args.enabled) return result;
    ctx.progress(result.id, result.state);
    const patched = await webhooks.update(ctx, result.id, args, result.state, ["enabled"]);
    return { id: result.id, state: { ...patched, secret: result.state.secret } };
  },
});
