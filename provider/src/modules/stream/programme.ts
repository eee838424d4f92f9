import { z } from "zod";
import { defineDocument } from "../../framework/api/shapes/document";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { isApiError } from "../../client";
import { channelIdOf } from "./ids";

const TOKEN = "nsp:stream:Programme";
const MAX_ITEMS = 100;

const programmeArgs = z.object({
  channelId: idRef("Id of the channel (`nsp:stream:Channel`).").meta({ replace: true }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the channel plays the programme when nobody publishes.", create: true }),
  mode: z
    .enum(["loop", "relay"])
    .default("loop")
    .meta({ description: "`loop` (play the items over and over) or `relay`.", create: true }),
  items: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`)
    .default([])
    .meta({
      description: `What is played, in order, at most ${MAX_ITEMS} items; each item is sent to the API as written, field names in the API's snake_case.`,
      create: true,
    }),
});

const programmeState = z.object({
  updatedAt: z.string().meta({
    description:
      "When the programme was last replaced; sent back on the next change so that a change made meanwhile " +
      "elsewhere is not overwritten.",
  }),
});

// The channel is the programme's path, not a field of it; every PUT sends the whole programme.
export const programme = defineDocument({
  since: "0.1.0",
  notListed: "part of a channel; import `<channelId>` by hand to manage it apart",
  token: TOKEN,
  description:
    "The fallback programme of a live-streaming channel: what it plays when nobody publishes. One per " +
    "channel; the API replaces its items and their order as a whole. Deleting the resource empties and " +
    "disables the programme.",
  args: programmeArgs,
  state: programmeState,
  importId: "<channelId>",
  parent: "channelId",
  idOf: (id) => channelIdOf(TOKEN, id),
  path: (channelId) => `/stream/streams/${channelId}/programme`,
  model: wireModel(programmeArgs.omit({ channelId: true }), programmeState),
  emptied: { enabled: false, mode: "loop", items: [] },

  // The last read's updatedAt goes with the change, so that a change made meanwhile elsewhere is refused.
  async update(ctx, document, channelId, news, olds) {
    try {
      return await document.putRaw(
        ctx,
        channelId,
        news,
        olds.updatedAt !== undefined ? { updated_at: olds.updatedAt } : {},
      );
    } catch (e) {
      if (!isApiError(e) || e.code !== "conflict") throw e;
      throw new Error(
        `${TOKEN}: the programme of channel ${channelId} was changed outside this program since it was last ` +
          `read; run \`pulumi refresh\` to see the change, then \`pulumi up\` again`,
        { cause: e },
      );
    }
  },
});
