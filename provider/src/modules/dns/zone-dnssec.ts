import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { wireModel } from "../../framework/fields";
import { zoneIdOf } from "./ids";

const dnssecArgs = z.object({
  zoneId: idRef("Id of the zone to sign.").meta({ replace: true }),
  enabled: z.boolean().default(true).meta({ description: "Whether the zone is signed (online signing with ECDSA P-256).", create: true }),
});

const dnssecState = z.object({
  ds: z.string().nullable().optional().meta({ description: "The DS record to publish at the registrar, such as `2371 13 2 <digest>`; null while signing is off." }),
  dnskey: z.string().nullable().optional().meta({ description: "The zone's DNSKEY (key-signing key); null while signing is off." }),
  warning: z.string().optional().meta({ description: "What still has to be done by hand, typically publishing the DS at the registrar." }),
});

// The settings object of a zone, at the zone's path: the zone id is in the path, not in the object.
const api = wireModel(dnssecArgs.omit({ zoneId: true }), dnssecState);

function stateOf(zoneId: string, raw: Record<string, unknown>) {
  return { ...api.toState(raw), zoneId };
}

async function put(ctx: OperationContext, zoneId: string, enabled: boolean) {
  const raw = await ctx.client.put(`/dns/zones/${zoneId}/dnssec`, api.createBody({ enabled }), { schema: api.wire, signal: ctx.signal });
  return stateOf(zoneId, raw);
}

// No shape: a document of a zone written by PUT, whose read must find the zone gone (getOrUndefined), which documentAt's get does not.
export const zoneDnssec = defineResource({
  token: "nsp:dns:ZoneDnssec",
  list: { path: "/dns/zones", parent: { token: "nsp:dns:Zone", input: "zoneId" }, fromParent: (z) => (z.dnssec === true ? [z] : []), label: (z) => String(z.name), zoneOf: (z) => z.id },
  description:
    "DNSSEC signing of a zone. Hand the `ds` output to the zone's registrar; until the DS is published resolvers treat the zone as unsigned. Disabling and enabling again makes a new key (and a new DS). Deleting this resource turns signing off.",
  args: dnssecArgs,
  state: dnssecState,
  importId: "<zoneId>",

  async create(ctx, args) {
    return { id: args.zoneId, state: await put(ctx, args.zoneId, args.enabled) };
  },

  async read(ctx, id) {
    const zoneId = zoneIdOf("nsp:dns:ZoneDnssec", id);
    const raw = await ctx.client.getOrUndefined(`/dns/zones/${zoneId}/dnssec`, { schema: api.wire, signal: ctx.signal });
    return raw && { id: zoneId, state: stateOf(zoneId, raw) };
  },

  async update(ctx, id, news) {
    return put(ctx, zoneIdOf("nsp:dns:ZoneDnssec", id), news.enabled);
  },

  async delete(ctx, id) {
    await put(ctx, zoneIdOf("nsp:dns:ZoneDnssec", id), false);
  },
});
