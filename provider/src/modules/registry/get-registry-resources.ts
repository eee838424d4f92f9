import { z } from "zod";
import { defineReadFunction } from "../../framework/api/shapes/read-function";
import { wireModel } from "../../framework/api/fields";
import { linkedMaintainer, requireLinkedMaintainer } from "./fields";

const resourcesResult = z.object({
  mntner: z.string().meta({ description: "The linked maintainer." }),
  syncedAt: z.string().nullable().optional().meta({
    description: "When the resources were last discovered; null (and every list empty) before the first discovery.",
  }),
  organisations: z
    .array(
      z
        .object({
          handle: z.string().meta({ description: "Organisation handle in the registry database." }),
          name: z.string().meta({ description: "Organisation name." }),
        })
        .meta({ typeName: "RegistryOrganisation", description: "An organisation behind the maintainer." }),
    )
    .meta({ description: "Organisations behind the maintainer." }),
  blocks: z
    .array(
      z
        .object({
          prefix: z.string().meta({ description: "The address block." }),
          rdns: z
            .object({
              zone: z.string().meta({ description: "The block's reverse zone." }),
              zoneId: z.string().nullable().optional().meta({
                description: "Id of the hosted zone of that name (`nsp:dns:Zone`), or null.",
                wireInteger: true,
              }),
              status: z.string().meta({
                description:
                  "`delegated` (hosted here and the domain object points here), `zone_not_delegated` (hosted, not " +
                  "pointed here) or `not_hosted`.",
              }),
              nserver: z.array(z.string()).meta({ description: "Name servers the domain object delegates to now." }),
            })
            .meta({ typeName: "RegistryBlockRdns", description: "Reverse-DNS status of the block." }),
        })
        .meta({ typeName: "RegistryBlock", description: "An address block held by the maintainer." }),
    )
    .meta({ description: "Address blocks held by the maintainer, with their reverse-DNS status." }),
  asns: z.array(z.number().int()).meta({ description: "Autonomous system numbers held by the maintainer." }),
  domains: z.array(z.string()).meta({ description: "Names of the domain objects the maintainer controls." }),
});

const api = wireModel(resourcesResult, z.object({}));

const TOKEN = "nsp:registry:getRegistryResources";

export const getRegistryResources = defineReadFunction({
  since: "0.1.0",
  token: TOKEN,
  description:
    "What the registry link discovered behind the maintainer: organisations, address blocks with their " +
    "reverse-DNS status, ASNs and domain objects. Needs an `nsp:registry:Link`; discovery itself (`POST " +
    "/registry/sync`) is an action outside the provider.",
  args: z.object({ mntner: linkedMaintainer }),
  result: resourcesResult,
  async read(ctx, args) {
    await requireLinkedMaintainer(ctx, TOKEN, args.mntner);
    return ctx.client.get("/registry/resources", { schema: api.wire, signal: ctx.signal });
  },
});
