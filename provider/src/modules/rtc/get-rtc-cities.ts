import { defineFunction } from "../../framework/definition";
import { fromWire } from "../../framework/wire";
import { z } from "zod";
import { citiesArgs, citiesResult } from "../talk/fields";

const cityWire = z.looseObject({ id: z.string(), has_room: z.boolean().optional() });

export const getRtcCities = defineFunction({
  token: "nsp:rtc:getRtcCities",
  description: "Lists the cities that host realtime rooms (`nsp:rtc:Room`) and whether each accepts new rooms now.",
  args: citiesArgs,
  result: citiesResult,
  async invoke(ctx, args) {
    const cities = await ctx.client.listAll("/rtc/cities", { itemSchema: cityWire, signal: ctx.signal });
    const picked = args.withRoomOnly ? cities.filter((c) => c.has_room === true) : cities;
    return fromWire(citiesResult, { cities: picked }) as z.output<typeof citiesResult>;
  },
});
