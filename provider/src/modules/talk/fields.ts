// Shared by the chat and realtime rooms (and their city functions): the two APIs keep rooms the
// same way (numeric ids, a write-only passcode shown as `has_passcode`, a cities list).
import { ownIdOf } from "../../framework/api/ids";
import { displayName, lowerCaseMatching } from "../../framework/api/validators";
import { z } from "zod";
import { collection, apiId } from "../../framework/api/shapes/collection";
import { defineReadFunction, listOf } from "../../framework/api/shapes/read-function";

export const roomName = displayName;
export const cityCode = lowerCaseMatching(/^[a-z]{3}$/, "must be a three-letter city code such as fra");

/** Secret and never returned; unset clears it. Each room kind adds how it is sent. */
export const roomPasscode = z
  .string()
  .min(1, "must not be empty; leave it unset for no passcode")
  .max(64, "must be at most 64 characters")
  .optional()
  .meta({
    description:
      "Passcode people must give to join. Secret; the API never returns it (`hasPasscode` shows whether one " +
      "is set). Unset clears it.",
    secret: true,
    writeOnly: true,
  });

export const roomState = z.object({
  hasPasscode: z.boolean().meta({ description: "Whether the room has a passcode." }),
  createdAt: z.string().meta({ description: "When the room was created." }),
});

/** A room's id as the path wants it; a malformed import id is an error before any request. */
function numericRoomId(token: string, id: string): string {
  return ownIdOf(token, id, { what: "room", form: "<roomId>" });
}

/**
 * Both room kinds are top-level collections of numeric ids, patched alike: dropping a field the
 * API defaults leaves the last value, except a patched passcode, which unset clears; `name`
 * always goes along, as the API requires it.
 */
export function roomCollection<A extends z.ZodRawShape>(token: string, path: string, args: z.ZodObject<A>) {
  return collection({
    token,
    path,
    args,
    state: roomState,
    idOnWire: z.number().int(),
    id: apiId((id) => numericRoomId(token, id)),
    patchBody(_patch, news, changed, api) {
      const values = news as Record<string, unknown>;
      const keys = api.patchKeys(changed).filter((k) => values[k] !== undefined || k === "passcode");
      return keys.length === 0 ? {} : api.patchBody({ ...news, passcode: values.passcode ?? "" }, ["name", ...keys]);
    },
  });
}

const citiesResult = z.object({
  cities: listOf("RoomCity", "A city that hosts rooms.", "The cities, in the API's order.", {
    id: z.string().meta({ description: "City code, for a room's `city`." }),
    name: z.string().optional().meta({ description: "Display name." }),
    country: z.string().optional().meta({ description: "ISO 3166-1 alpha-2 country code." }),
    hasRoom: z.boolean().optional().meta({ description: "Whether the city accepts new rooms now." }),
  }),
});

const citiesArgs = z.object({
  withRoomOnly: z.boolean().default(false).meta({ description: "Only the cities that accept new rooms now." }),
});

const cityWire = z.looseObject({ id: z.string(), has_room: z.boolean().optional() });

/** The cities function of a room kind, such as `nsp:talk:getTalkCities` over `/talk/cities`. */
export function roomCitiesFunction(token: string, since: string, path: string, description: string) {
  return defineReadFunction({
    token,
    since,
    description,
    args: citiesArgs,
    result: citiesResult,
    async read(ctx, args) {
      const cities = await ctx.client.listAll(path, { itemSchema: cityWire, signal: ctx.signal });
      return { cities: args.withRoomOnly ? cities.filter((c) => c.has_room === true) : cities };
    },
  });
}
