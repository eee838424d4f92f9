import { z } from "zod";
import { defineReadFunction } from "../../framework/api/shapes/read-function";

const city = z
  .object({
    code: z.string().meta({ description: "City code, the `city` of a channel." }),
    name: z.string().optional().meta({ description: "City name." }),
    country: z.string().optional().meta({ description: "Country code." }),
    hasRoom: z.boolean().meta({ description: "Whether a new channel can be placed there now." }),
  })
  .meta({ typeName: "StreamCity" });

const citiesResult = z.object({ cities: z.array(city).meta({ description: "The ingest cities." }) });
const cityWire = z.looseObject({ code: z.string(), has_room: z.boolean() });

export const getStreamCities = defineReadFunction({
  since: "0.1.0",
  token: "nsp:stream:getStreamCities",
  description: "Lists the live-streaming ingest cities and whether they have room for another channel.",
  result: citiesResult,
  async read(ctx) {
    const raw = await ctx.client.get("/stream/cities", {
      schema: z.union([z.array(cityWire), z.looseObject({ data: z.array(cityWire) })]),
      signal: ctx.signal,
    });
    return { cities: Array.isArray(raw) ? raw : raw.data };
  },
});
