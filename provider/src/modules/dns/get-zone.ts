import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { fromWire, numericId } from "../../framework/wire";
import { zoneProperties } from "./zone";

const zoneWire = z.looseObject({ id: z.number().int(), name: z.string() });
const zoneResult = zoneProperties.extend({ id: z.string().meta({ description: "Zone id." }) });

export const getZone = defineFunction({
  token: "nsp:dns:getZone",
  description: "Looks up an existing zone by name or by id.",
  args: z.object({
    name: z
      .string()
      .trim()
      .toLowerCase()
      .transform((s) => s.replace(/\.$/, ""))
      .optional()
      .meta({ description: "Zone name, such as `example.com`." }),
    id: numericId("must be a numeric zone id").optional().meta({ description: "Zone id." }),
  }),
  result: zoneResult,
  check(args) {
    if ((args.name === undefined) === (args.id === undefined)) return [{ property: "name", reason: "give exactly one of name or id" }];
    return [];
  },
  async invoke(ctx, args) {
    if (args.id !== undefined) {
      return fromWire(zoneResult, await ctx.client.get(`/dns/zones/${args.id}`, { schema: zoneWire, signal: ctx.signal })) as z.output<typeof zoneResult>;
    }
    // The API has no filter by name; one paged listing finds it.
    const zones = await ctx.client.listAll("/dns/zones", { itemSchema: zoneWire, signal: ctx.signal });
    const found = zones.find((z) => z.name === args.name);
    if (!found) throw new Error(`nsp:dns:getZone: no zone named "${args.name}" in this account (${zones.length} zones listed)`);
    return fromWire(zoneResult, found) as z.output<typeof zoneResult>;
  },
});
