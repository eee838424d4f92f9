import { defineFunction } from "../../framework/definition";
import { fromWire } from "../../framework/wire";
import { z } from "zod";
import { citiesArgs, citiesResult } from "./fields";

const cityWire = z.looseObject({ id: z.string(), has_room: z.boolean().optional() });

export const getTalkCities = defineFunction({
  token: "nsp:talk:getTalkCities",
  description: "Lists the cities that host chat rooms (`nsp:talk:Room`) and whether each accepts new rooms now.",
  args: citiesArgs,
  result: citiesResult,
  async invoke(ctx, args) {
    const cities = await ctx.client.listAll("/talk/cities", { itemSchema: cityWire, signal: ctx.signal });
    const picked = args.withRoomOnly ? cities.filter((c) => c.has_room === true) : cities;
    return fromWire(citiesResult, { cities: picked }) as z.output<typeof citiesResult>;
  },
});
