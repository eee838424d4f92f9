import { z } from "zod";
import { defineReadFunction, listOf } from "../../framework/api/shapes/read-function";

const cityWire = z.looseObject({ id: z.string() });

const citiesResult = z.object({
  cities: listOf("City", "A location PBXs run in.", "The cities, in the API's order.", {
    id: z.string().meta({ description: "City id, for a PBX's `city`." }),
    name: z.string().optional().meta({ description: "City name." }),
    country: z.string().optional().meta({ description: "Country code." }),
    timezone: z.string().optional().meta({ description: "The city's time zone, a new PBX's default." }),
    accepting: z.boolean().optional().meta({ description: "Whether the city accepts new PBXs (and moves)." }),
  }),
});

export const getCities = defineReadFunction({
  since: "0.1.0",
  token: "nsp:vgate:getCities",
  description:
    "Lists the locations a PBX can run in, and whether each accepts new PBXs. The platform defines them; " +
    "the API cannot create any.",
  args: z.object({
    acceptingOnly: z.boolean().optional().meta({ description: "Only the cities that accept new PBXs." }),
  }),
  result: citiesResult,
  async read(ctx, args) {
    const cities = await ctx.client.listAll("/vgate/cities", { itemSchema: cityWire, signal: ctx.signal });
    return { cities: args.acceptingOnly ? cities.filter((c) => c.accepting === true) : cities };
  },
});
