import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";

const domainShape = z
  .object({
    name: z.string().meta({ description: "The domain." }),
    verified: z.boolean().meta({ description: "Whether the organisation's control of the domain is verified." }),
  })
  .meta({ typeName: "OrgDomain", description: "A domain the organisation works under." });

const domainApi = wireModel(domainShape, z.object({}));

const result = z.object({ domains: z.array(domainShape).meta({ description: "The domains, in the API's order." }) });

export const getOrgDomains = defineFunction({
  since: "0.1.0",
  token: "nsp:org:getOrgDomains",
  description: "The domains the account's organisation works under, each with a verified flag.",
  args: z.object({}),
  result,
  async invoke(ctx) {
    const rows = await ctx.client.listAll("/org/domains", { itemSchema: domainApi.wire, signal: ctx.signal });
    return { domains: rows.map(domainApi.toState) };
  },
});
