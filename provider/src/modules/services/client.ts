import { lowerCaseMatching } from "../../framework/api/validators";
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { childCollection, locatedBy } from "../../framework/api/shapes/child-collection";
import { idRef, wireTimestamp } from "../../framework/api/wire";
import {
  BLOCK_MODES,
  LOG_MODES,
  SAFESEARCH,
  addressOrPrefix,
  key,
  requireResolver,
  ruleLine,
  timestamp,
} from "./fields";
import { items, lines, textListModel } from "./text-lists";
import { naturalKey, fromList } from "../../framework/api/shapes/collection";
import { formOf, idFormat, parseId } from "../../framework/api/ids";

const TOKEN = "nsp:services:Client";

// Every field is in the create body, and the patch takes the same body.
const both = { create: true, patch: true } as const;

const clientArgs = z.object({
  serviceId: idRef("Id of the resolver service the client group belongs to.").meta({ replace: true }),
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .meta({ key: true, description: "Name of the client group, for people.", ...both }),
  clientId: lowerCaseMatching(
    /^$|^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/,
    "must be letters, digits and '-', not starting or ending with '-', or empty",
  )
    .default("")
    .meta({
      key: true,
      description:
        "Identifier devices present (in a DoH path or DoT name) to be recognised as this group; unique within " +
        "the service; empty for none.",
      ...both,
    }),
  addrs: z
    .array(addressOrPrefix)
    .default([])
    .meta({ description: "Source addresses or prefixes recognised as this group.", ...both }),
  tags: z
    .array(key)
    .default([])
    .meta({ description: "Tags of the group.", ...both }),
  pausedUntil: timestamp.default("").meta({
    description: "Filtering is paused for the group until this time (ISO 8601); empty when not paused.",
    ...both,
  }),
  lists: z
    .array(key)
    .default([])
    .meta({
      description: "Blocklist keys for this group (`nsp:dns:getDnsLists`); empty uses the service's filter lists.",
      ...both,
    }),
  rules: z
    .array(ruleLine)
    .default([])
    .meta({ description: "Custom rules of this group, one per item.", ...both }),
  blockedServices: z
    .array(key)
    .default([])
    .meta({ description: "Keys of online services blocked for this group.", ...both }),
  safesearch: z
    .enum(SAFESEARCH)
    .default("")
    .meta({ description: "`on` or `off`; empty follows the service policy.", ...both }),
  blockMode: z
    .enum(["", ...BLOCK_MODES])
    .default("")
    .meta({ description: "`nxdomain`, `zero` or `page`; empty follows the service filter.", ...both }),
  logMode: z
    .enum(["", ...LOG_MODES])
    .default("")
    .meta({ description: "`off`, `blocked` or `all`; empty follows the service policy.", ...both }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the group's settings apply.", ...both }),
});

const clientState = z.object({
  // Worked out from the answer's `ddns` object.
  ddnsConfigured: z.boolean().meta({
    description: "Whether a dynamic-address update token is issued (`nsp:services:ClientDdnsToken`).",
    local: true,
  }),
  createdAt: z.string().meta({ description: "When the group was created." }),
});

const ddnsWire = z.object({ configured: z.boolean(), issued_at: wireTimestamp.nullable() });
const api = textListModel(
  clientArgs,
  clientState,
  { addrs: items, tags: items, lists: items, rules: lines, blockedServices: items },
  { id: z.number().int(), ddns: ddnsWire },
);
const clientWire = api.wire as z.ZodType<
  Record<string, unknown> & { id: number; name: string; client_id: string; ddns: z.output<typeof ddnsWire> }
>;
type ClientWire = z.output<typeof clientWire>;

/** The documented bodies carry the service's id as `id`, besides the path. */
const withServiceId = (serviceId: string, body: Record<string, unknown>) => ({ id: Number(serviceId), ...body });

const CLIENT_ID = idFormat("resolver client group", { name: "serviceId" }, { name: "clientGroupId" });

/** The import form `<serviceId>/<clientGroupId>`, or the group's own id with the service known from the state. */
export function clientIdOf(
  token: string,
  id: string,
  knownService?: string,
): { serviceId: string; clientGroupId: string } {
  return parseId(token, CLIENT_ID, id, { serviceId: knownService });
}

export async function findClient(
  ctx: OperationContext,
  serviceId: string,
  clientGroupId: string,
): Promise<ClientWire | undefined> {
  // There is no GET of one client group, only the service's list: not_found there means the service is gone.
  const all = await ctx.client.listAllOrUndefined(`/services/${serviceId}/clients`, {
    itemSchema: clientWire,
    signal: ctx.signal,
  });
  return all?.find((c) => String(c.id) === clientGroupId);
}

// A service's client groups; the service's id goes in every body too, and the state tells
// whether a dynamic-address token is issued. There is no GET of one client group, only the
// service's list: not_found there means the service is gone.
const clients = childCollection({
  token: TOKEN,
  path: "/services/{serviceId}/clients",
  parent: { token: "nsp:services:Service", input: "serviceId" },
  importId: formOf(CLIENT_ID),
  id: locatedBy((id, serviceId) => {
    const { serviceId: parent, clientGroupId: child } = clientIdOf(TOKEN, id, serviceId);
    return { parent, child };
  }),
  args: clientArgs,
  state: clientState,
  model: api,
  read: fromList(),
  adjust: (state, raw) => ({ ...state, ddnsConfigured: (raw as ClientWire).ddns.configured }),
  createBody: (body, values) => withServiceId(values.serviceId, body),
  patchBody: (patch, news, changed) => (changed.length === 0 ? {} : withServiceId(news.serviceId, patch)),
});

export const client = clients.resource({
  since: "0.1.0",
  list: {
    // The resolver services the API makes with the account, no resource of this provider.
    parent: { path: "/services", holds: (s) => s.type === "resolver" },
    label: (c, s) => `${String(s?.name)}-${String(c.name)}`,
  },
  description:
    "A client group of a resolver service: devices recognised by their addresses or client id, with their " +
    "own lists, rules and modes (empty values follow the service's filter and policy). Its " +
    "dynamic-address update token is `nsp:services:ClientDdnsToken`.",

  async create(ctx, args) {
    await requireResolver(ctx, TOKEN, args.serviceId);
    // A client id is unique within the service; without one, the name is the best key there is.
    return clients.of(args.serviceId).create(
      ctx,
      `client group ${args.name}`,
      args,
      naturalKey((c) => (args.clientId !== "" ? c.client_id === args.clientId : c.name === args.name)),
    );
  },
});
