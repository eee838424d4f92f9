import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { createOnce } from "../../framework/create-once";
import { idRef, wireTimestamp } from "../../framework/wire";
import { isNotFound } from "../../client";
import {
  BLOCK_MODES,
  LOG_MODES,
  NUMERIC_ID,
  SAFESEARCH,
  addressOrPrefix,
  joinItems,
  joinLines,
  key,
  requireResolver,
  ruleLine,
  splitItems,
  splitLines,
  timestamp,
} from "./fields";

const TOKEN = "nsp:services:Client";

const clientArgs = z.object({
  serviceId: idRef("Id of the resolver service the client group belongs to."),
  name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters").meta({ description: "Name of the client group, for people." }),
  clientId: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.string().regex(/^$|^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be letters, digits and '-', not starting or ending with '-', or empty"))
    .default("")
    .meta({ description: "Identifier devices present (in a DoH path or DoT name) to be recognised as this group; unique within the service; empty for none." }),
  addrs: z.array(addressOrPrefix).default([]).meta({ description: "Source addresses or prefixes recognised as this group." }),
  tags: z.array(key).default([]).meta({ description: "Tags of the group." }),
  pausedUntil: timestamp.default("").meta({ description: "Filtering is paused for the group until this time (ISO 8601); empty when not paused." }),
  lists: z.array(key).default([]).meta({ description: "Blocklist keys for this group (`nsp:dns:getDnsLists`); empty uses the service's filter lists." }),
  rules: z.array(ruleLine).default([]).meta({ description: "Custom rules of this group, one per item." }),
  blockedServices: z.array(key).default([]).meta({ description: "Keys of online services blocked for this group." }),
  safesearch: z.enum(SAFESEARCH).default("").meta({ description: "`on` or `off`; empty follows the service policy." }),
  blockMode: z.enum(["", ...BLOCK_MODES]).default("").meta({ description: "`nxdomain`, `zero` or `page`; empty follows the service filter." }),
  logMode: z.enum(["", ...LOG_MODES]).default("").meta({ description: "`off`, `blocked` or `all`; empty follows the service policy." }),
  enabled: z.boolean().default(true).meta({ description: "Whether the group's settings apply." }),
});
type ClientArgs = z.output<typeof clientArgs>;

const clientState = z.object({
  ddnsConfigured: z.boolean().meta({ description: "Whether a dynamic-address update token is issued (`nsp:services:ClientDdnsToken`)." }),
  createdAt: z.string().meta({ description: "When the group was created." }),
});

export const clientWire = z.looseObject({
  id: z.number().int(),
  service_id: z.number().int(),
  name: z.string(),
  client_id: z.string(),
  addrs: z.string(),
  tags: z.string(),
  paused_until: z.string(),
  lists: z.string(),
  rules: z.string(),
  blocked_services: z.string(),
  safesearch: z.enum(SAFESEARCH),
  block_mode: z.enum(["", ...BLOCK_MODES]),
  log_mode: z.enum(["", ...LOG_MODES]),
  enabled: z.boolean(),
  ddns: z.object({ configured: z.boolean(), issued_at: wireTimestamp.nullable() }),
  created_at: wireTimestamp,
});
export type ClientWire = z.output<typeof clientWire>;

function toState(w: ClientWire) {
  return {
    id: String(w.id),
    state: {
      serviceId: String(w.service_id),
      name: w.name,
      clientId: w.client_id,
      addrs: splitItems(w.addrs),
      tags: splitItems(w.tags),
      pausedUntil: w.paused_until,
      lists: splitItems(w.lists),
      rules: splitLines(w.rules),
      blockedServices: splitItems(w.blocked_services),
      safesearch: w.safesearch,
      blockMode: w.block_mode,
      logMode: w.log_mode,
      enabled: w.enabled,
      ddnsConfigured: w.ddns.configured,
      createdAt: w.created_at,
    },
  };
}

const WIRE: { [K in Exclude<keyof ClientArgs, "serviceId">]: (a: ClientArgs) => [string, unknown] } = {
  name: (a) => ["name", a.name],
  clientId: (a) => ["client_id", a.clientId],
  addrs: (a) => ["addrs", joinItems(a.addrs)],
  tags: (a) => ["tags", joinItems(a.tags)],
  pausedUntil: (a) => ["paused_until", a.pausedUntil],
  lists: (a) => ["lists", joinItems(a.lists)],
  rules: (a) => ["rules", joinLines(a.rules)],
  blockedServices: (a) => ["blocked_services", joinItems(a.blockedServices)],
  safesearch: (a) => ["safesearch", a.safesearch],
  blockMode: (a) => ["block_mode", a.blockMode],
  logMode: (a) => ["log_mode", a.logMode],
  enabled: (a) => ["enabled", a.enabled],
};

function wireBody(args: ClientArgs, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { id: Number(args.serviceId) };
  for (const k of keys) {
    const f = WIRE[k as keyof typeof WIRE] as ((a: ClientArgs) => [string, unknown]) | undefined;
    if (f) {
      const [name, value] = f(args);
      out[name] = value;
    }
  }
  return out;
}

/** The import form `<serviceId>/<clientGroupId>`, or the group's own id with the service known from the state. */
export function clientIdOf(token: string, id: string, knownService?: string): { serviceId: string; clientGroupId: string } {
  const [a, b, extra] = id.split("/");
  if (extra === undefined && a !== undefined && b !== undefined && NUMERIC_ID.test(a) && NUMERIC_ID.test(b)) return { serviceId: a, clientGroupId: b };
  if (b === undefined && a !== undefined && NUMERIC_ID.test(a) && knownService !== undefined && NUMERIC_ID.test(knownService)) return { serviceId: knownService, clientGroupId: a };
  throw new Error(`${token}: id "${id}" must have the form <serviceId>/<clientGroupId>, both numeric`);
}

export async function findClient(ctx: OperationContext, serviceId: string, clientGroupId: string): Promise<ClientWire | undefined> {
  try {
    const all = await ctx.client.listAll(`/services/${serviceId}/clients`, { itemSchema: clientWire, signal: ctx.signal });
    return all.find((c) => String(c.id) === clientGroupId);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

export const client = defineResource({
  token: TOKEN,
  description:
    "A client group of a resolver service: devices recognised by their addresses or client id, with their own lists, rules and modes (empty values follow the service's filter and policy). Its dynamic-address update token is `nsp:services:ClientDdnsToken`.",
  args: clientArgs,
  state: clientState,
  replaceOnChanges: ["serviceId"],
  importId: "<serviceId>/<clientGroupId>",

  async create(ctx, args) {
    await requireResolver(ctx, TOKEN, args.serviceId);
    const created = await createOnce(
      ctx,
      `client group ${args.name}`,
      () => ctx.client.post(`/services/${args.serviceId}/clients`, wireBody(args, Object.keys(WIRE)), { schema: clientWire, signal: ctx.signal }),
      // A client id is unique within the service; without one, the name is the best key there is.
      async () =>
        (await ctx.client.listAll(`/services/${args.serviceId}/clients`, { itemSchema: clientWire, signal: ctx.signal })).find((c) =>
          args.clientId !== "" ? c.client_id === args.clientId : c.name === args.name,
        ),
    );
    return toState(created);
  },

  async read(ctx, id, prior) {
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id, prior.serviceId);
    const found = await findClient(ctx, serviceId, clientGroupId);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changed) {
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id, olds.serviceId);
    if (changed.length === 0) return { ...olds, ...news };
    return toState(await ctx.client.patch(`/services/${serviceId}/clients/${clientGroupId}`, wireBody(news, changed), { schema: clientWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id, olds) {
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id, olds.serviceId);
    await ctx.client.delete(`/services/${serviceId}/clients/${clientGroupId}`, { signal: ctx.signal });
  },
});
