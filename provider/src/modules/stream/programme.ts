import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { wireModel } from "../../framework/fields";
import { isApiError } from "../../client";
import { channelIdOf } from "./ids";

const TOKEN = "nsp:stream:Programme";
const MAX_ITEMS = 100;

const programmeArgs = z.object({
  channelId: idRef("Id of the channel (`nsp:stream:Channel`).").meta({ replace: true }),
  enabled: z.boolean().default(true).meta({ description: "Whether the channel plays the programme when nobody publishes.", create: true }),
  mode: z.enum(["loop", "relay"]).default("loop").meta({ description: "`loop` (play the items over and over) or `relay`.", create: true }),
  items: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`)
    .default([])
    .meta({ description: `What is played, in order, at most ${MAX_ITEMS} items; each item is sent to the API as written, field names in the API's snake_case.`, create: true }),
});

const programmeState = z.object({
  updatedAt: z.string().meta({ description: "When the programme was last replaced; sent back on the next change so that a change made meanwhile elsewhere is not overwritten." }),
});

// The channel is the programme's path, not a field of it; every PUT sends the whole programme.
const api = wireModel(programmeArgs.omit({ channelId: true }), programmeState);
const programmeWire = api.wire;

const toState = (channelId: string, raw: z.output<typeof programmeWire>) => ({ ...api.toState(raw), channelId });

function put(ctx: OperationContext, channelId: string, programme: z.output<typeof programmeArgs>, updatedAt?: string) {
  const payload = { ...api.createBody(programme), ...(updatedAt !== undefined ? { updated_at: updatedAt } : {}) };
  return ctx.client.put(`/stream/streams/${channelId}/programme`, payload, { schema: programmeWire, signal: ctx.signal });
}

// No shape: a document of a channel written by PUT, whose read must find the channel gone (getOrUndefined), which documentAt's get does not.
export const programme = defineResource({
  token: TOKEN,
  description:
    "The fallback programme of a live-streaming channel: what it plays when nobody publishes. One per channel; the API replaces its items and their order as a whole. Deleting the resource empties and disables the programme.",
  args: programmeArgs,
  state: programmeState,
  importId: "<channelId>",

  async create(ctx, args) {
    return { id: args.channelId, state: toState(args.channelId, await put(ctx, args.channelId, args)) };
  },

  async read(ctx, id) {
    const channelId = channelIdOf(TOKEN, id);
    const raw = await ctx.client.getOrUndefined(`/stream/streams/${channelId}/programme`, { schema: programmeWire, signal: ctx.signal });
    return raw && { id: channelId, state: toState(channelId, raw) };
  },

  async update(ctx, id, news, olds) {
    const channelId = channelIdOf(TOKEN, id);
    try {
      return toState(channelId, await put(ctx, channelId, news, olds.updatedAt));
    } catch (e) {
      if (!isApiError(e) || e.code !== "conflict") throw e;
      throw new Error(`${TOKEN}: the programme of channel ${channelId} was changed outside this program since it was last read; run \`pulumi refresh\` to see the change, then \`pulumi up\` again`, { cause: e });
    }
  },

  async delete(ctx, id) {
    const channelId = channelIdOf(TOKEN, id);
    await put(ctx, channelId, { channelId, enabled: false, mode: "loop", items: [] });
  },
});
