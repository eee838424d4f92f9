// Webhook endpoints: at most ten per account, public https:// URLs only, a signing secret shown
// once on create, and the event names they subscribe to. The test endpoint records a ping
// delivery; nothing is actually sent.
import { z } from "zod";
import { assignDefined, collection } from "../model/collection";
import { invalid } from "../pipeline/errors";
import { paginate, pagingOnlyQuery } from "../model/paging";
import { route } from "../pipeline/route";
import { bits, cidrContains, isIP, parseAddress, parseCidr } from "../util/ip";
import { MAX_WEBHOOKS, WEBHOOK_EVENTS, deliveryView, newWebhookSecret, webhookView, webhooks } from "./state";

const PRIVATE_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "::1/128",
  "::/128",
  "fc00::/7",
  "fe80::/10",
].map((c) => {
  const r = parseCidr(c);
  if (!r.ok) throw new Error(c);
  return r.cidr;
});

function isPrivateAddress(host: string): boolean {
  const a = parseAddress(host);
  if (!a) return false;
  const self = { version: a.version, addr: a.addr, len: bits(a.version) };
  return PRIVATE_RANGES.some((c) => cidrContains(c, self));
}

/** A public https:// URL: no credentials, no loopback, private or link-local address, no single-label or local host. */
function publicHttpsUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw invalid("url", "must be an absolute https:// URL");
  }
  if (u.protocol !== "https:") throw invalid("url", "must use https://");
  if (u.username || u.password) throw invalid("url", "must not carry credentials");
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host)) {
    if (isPrivateAddress(host))
      throw invalid("url", "must be a public address, not a private, loopback or link-local one");
  } else if (!host.includes(".") || /(^|\.)(localhost|local|internal|localdomain)$/.test(host)) {
    throw invalid("url", "must be a public host name");
  }
  if (u.href.length > 2048) throw invalid("url", "must be at most 2048 characters");
  return u.href;
}

function eventList(events: string[]): string[] {
  if (events.length === 0) throw invalid("events", "must name at least one event, or `*` for all");
  const known = new Set(WEBHOOK_EVENTS.map((e) => e.name));
  const out: string[] = [];
  for (const e of events) {
    if (e !== "*" && !known.has(e)) throw invalid("events", `unknown event "${e}"; GET /webhook-events lists them`);
    if (!out.includes(e)) out.push(e);
  }
  if (out.includes("*") && out.length > 1)
    throw invalid("events", "`*` already subscribes to every event; give it alone");
  return out;
}

const note = z.string().max(255).nullable().optional();
const createBody = z.strictObject({ url: z.string(), events: z.array(z.string()).optional(), note });
const patchBody = z.strictObject({
  url: z.string().optional(),
  events: z.array(z.string()).optional(),
  enabled: z.boolean().optional(),
  note,
});

const endpoints = collection({
  path: "/webhooks",
  what: "webhook",
  table: ({ store }) => webhooks(store).webhooks,
  view: webhookView,
  create: {
    body: createBody,
    build: ({ store, account, body }) => {
      const url = publicHttpsUrl(body.url);
      const events = eventList(body.events ?? ["*"]);
      return {
        id: store.nextId(),
        account: account.name,
        url,
        events,
        enabled: true,
        note: body.note ?? null,
        secret: newWebhookSecret(),
        last_status: null,
        last_at: null,
        failures: 0,
        created_at: store.timestamp(),
      };
    },
    limit: { max: MAX_WEBHOOKS, what: "webhook endpoints" },
    // The signing secret is in the create answer only.
    answer: (row) => ({ ...webhookView(row), secret: row.secret }),
  },
  patch: {
    body: patchBody,
    apply: ({ body }, row) => {
      // Validate everything before changing anything.
      const url = body.url !== undefined ? publicHttpsUrl(body.url) : row.url;
      const events = body.events !== undefined ? eventList(body.events) : row.events;
      row.url = url;
      row.events = events;
      assignDefined(row, body, ["enabled", "note"]);
    },
  },
  // The endpoint's deliveries go with it.
  remove: ({ store }, row) => {
    const { deliveries } = webhooks(store);
    for (const [id, d] of deliveries) if (d.webhook_id === row.id) deliveries.delete(id);
  },
});

export const webhookRoutes = [
  // The event names an endpoint can subscribe to.
  route({
    method: "GET",
    path: "/webhook-events",
    scope: "read",
    handler: () => ({ data: WEBHOOK_EVENTS.map((e) => ({ ...e })) }),
  }),
  ...endpoints.routes,

  endpoints.member("POST", "test", (row, ctx) => {
    const { store, account } = ctx;
    const now = store.timestamp();
    const id = store.nextId();
    const delivery = {
      id,
      account: account.name,
      webhook_id: row.id,
      event: "ping",
      status: "pending" as const,
      attempts: 0,
      http_status: null,
      response: null,
      next_attempt: now,
      created_at: now,
      delivered_at: null,
      payload: { event: "ping", webhook_id: row.id, delivery_id: id, created_at: now },
    };
    webhooks(store).deliveries.set(id, delivery);
    ctx.status(202);
    return deliveryView(delivery);
  }),

  endpoints.member(
    "GET",
    "deliveries",
    (row, ctx) => {
      const rows = [...webhooks(ctx.store).deliveries.values()].filter((d) => d.webhook_id === row.id).reverse();
      return paginate(rows, ctx.query, deliveryView);
    },
    { query: pagingOnlyQuery },
  ),
];
