import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { fromWire, idRef } from "../../framework/wire";
import { isNotFound } from "../../client";
import { zoneIdOf } from "./ids";

const dnssecArgs = z.object({
  zoneId: idRef("Id of the zone to sign."),
  enabled: z.boolean().default(true).meta({ description: "Whether the zone is signed (online signing with ECDSA P-256)." }),
});

const dnssecState = z.object({
  ds: z.string().nullable().optional().meta({ description: "The DS record to publish at the registrar, such as `2371 13 2 <digest>`; null while signing is off." }),
  dnskey: z.string().nullable().optional().meta({ description: "The zone's DNSKEY (key-signing key); null while signing is off." }),
  warning: z.string().optional().meta({ description: "What still has to be done by hand, typically publishing the DS at the registrar." }),
});

const dnssecProperties = dnssecArgs.extend(dnssecState.shape);
type DnssecState = z.output<typeof dnssecProperties>;

const dnssecWire = z.looseObject({ enabled: z.boolean() });

async function put(ctx: OperationContext, zoneId: string, enabled: boolean): Promise<DnssecState> {
  const raw = await ctx.client.put(`/dns/zones/${zoneId}/dnssec`, { enabled }, { schema: dnssecWire, signal: ctx.signal });
  return { ...(fromWire(dnssecProperties, raw) as DnssecState), zoneId };
}

export const zoneDnssec = defineResource({
  token: "nsp:dns:ZoneDnssec",
  description:
    "DNSSEC signing of a zone. Hand the `ds` output to the zone's registrar; until the DS is published resolvers treat the zone as unsigned. Disabling and enabling again makes a new key (and a new DS). Deleting this resource turns signing off.",
  args: dnssecArgs,
  state: dnssecState,
  replaceOnChanges: ["zoneId"],
  importId: "<zoneId>",

  async create(ctx, args) {
    return { id: args.zoneId, state: await put(ctx, args.zoneId, args.enabled) };
  },

  async read(ctx, id) {
    const zoneId = zoneIdOf("nsp:dns:ZoneDnssec", id);
    try {
      const raw = await ctx.client.get(`/dns/zones/${zoneId}/dnssec`, { schema: dnssecWire, signal: ctx.signal });
      return { id: zoneId, state: { ...(fromWire(dnssecProperties, raw) as DnssecState), zoneId } };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news) {
    return put(ctx, zoneIdOf("nsp:dns:ZoneDnssec", id), news.enabled);
  },

  async delete(ctx, id) {
    await put(ctx, zoneIdOf("nsp:dns:ZoneDnssec", id), false);
  },
});
