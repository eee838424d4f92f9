import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";

const pop = z
  .object({
    id: z
      .string()
      .meta({ description: "Landing point id, for `popId` and `popId2` of `nsp:link:Tunnel`.", wireInteger: true }),
    code: z.string().optional().meta({ description: "Short code, such as `ams`." }),
    name: z.string().optional().meta({ description: "Display name, usually the city." }),
    country: z.string().optional().meta({ description: "ISO 3166-1 alpha-2 country code." }),
  })
  .meta({ typeName: "LinkPop", description: "A landing point (point of presence) of tunnels." });
const popApi = wireModel(pop, z.object({}));

const popsResult = z.object({
  pops: z.array(pop).meta({ description: "The landing points, in the API's order." }),
});

export const getLinkPops = defineFunction({
  since: "0.1.0",
  token: "nsp:link:getLinkPops",
  description:
    "Lists the landing points (points of presence) where tunnels can land, optionally only the one with a given code.",
  args: z.object({
    code: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, "must not be empty")
      .optional()
      .meta({ description: "Only the landing point with this code, such as `ams` (any case)." }),
  }),
  result: popsResult,
  async invoke(ctx, args) {
    const pops = (await ctx.client.listAll("/link/pops", { itemSchema: popApi.wire, signal: ctx.signal })).map(
      popApi.toState,
    );
    const picked = args.code === undefined ? pops : pops.filter((p) => p.code?.toLowerCase() === args.code);
    if (args.code !== undefined && picked.length === 0) {
      const known = pops.map((p) => p.code).filter((c) => typeof c === "string");
      throw new Error(
        `nsp:link:getLinkPops: no landing point with code "${args.code}" (known: ${known.join(", ") || "none"})`,
      );
    }
    return { pops: picked };
  },
});
