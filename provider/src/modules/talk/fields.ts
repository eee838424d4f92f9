// Shared by the chat and realtime rooms (and their city functions).
import { z } from "zod";

const NUMERIC = /^[1-9][0-9]{0,15}$/;

export const roomName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
export const cityCode = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[a-z]{3}$/, "must be a three-letter city code such as fra"));

/** A room's id as the path wants it; a malformed import id is an error before any request. */
export function numericRoomId(token: string, id: string): string {
  if (!NUMERIC.test(id)) throw new Error(`${token}: "${id}" is not a room id; a room is known by its numeric id (<roomId>)`);
  return id;
}

export const citiesResult = z.object({
  cities: z
    .array(
      z
        .object({
          id: z.string().meta({ description: "City code, for a room's `city`." }),
          name: z.string().optional().meta({ description: "Display name." }),
          country: z.string().optional().meta({ description: "ISO 3166-1 alpha-2 country code." }),
          hasRoom: z.boolean().optional().meta({ description: "Whether the city accepts new rooms now." }),
        })
        .meta({ typeName: "RoomCity", description: "A city that hosts rooms." }),
    )
    .meta({ description: "The cities, in the API's order." }),
});

export const citiesArgs = z.object({
  withRoomOnly: z.boolean().default(false).meta({ description: "Only the cities that accept new rooms now." }),
});
