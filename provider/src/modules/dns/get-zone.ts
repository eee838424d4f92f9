import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { checkNameOrId, findByNameOrId, nameOrIdArgs } from "../../framework/lookup";
import { fromWire } from "../../framework/wire";
import { zoneProperties, zoneWire } from "./zone";

const TOKEN = "nsp:dns:getZone";
const zoneResult = zoneProperties.extend({ id: z.string().meta({ description: "Zone id." }) });

export const getZone = defineFunction({
  token: TOKEN,
  description: "Looks up an existing zone by name or by id.",
  args: nameOrIdArgs("zone", "example.com"),
  result: zoneResult,
  check: checkNameOrId,
  async invoke(ctx, args) {
    const zone = await findByNameOrId(ctx, { token: TOKEN, what: "zone", collection: "/dns/zones", wire: zoneWire }, args);
    return fromWire(zoneResult, zone) as z.output<typeof zoneResult>;
  },
});
