import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { fromWire, idRef, wireTimestamp } from "../../framework/wire";
import { isNotFound } from "../../client";
import { channelIdOf } from "./ids";

const TOKEN = "nsp:stream:Programme";
const MAX_ITEMS = 100;

const programmeArgs = z.object({
  channelId: idRef("Id of the channel (`nsp:stream:Channel`)."),
  enabled: z.boolean().default(true).meta({ description: "Whether the channel plays the programme when nobody publishes." }),
  mode: z.enum(["loop", "relay"]).default("loop").meta({ description: "`loop` (play the items over and over) or `relay`." }),
  items: z
    .array(z.record(z.string(), z.unknown()))
    .max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`)
    .default([])
    .meta({ description: `What is played, in order, at most ${MAX_ITEMS} items; each item is sent to the API as written, field names in the API's snake_case.` }),
});

const programmeState = z.object({
  updatedAt: z.string().meta({ description: "When the programme was last replaced; sent back on the next change so that a change made meanwhile elsewhere is not overwritten." }),
});

const programmeProperties = programmeArgs.extend(programmeState.shape);
type ProgrammeState = z.output<typeof programmeProperties>;

const programmeWire = z.looseObject({ enabled: z.boolean(), mode: z.string(), items: z.array(z.unknown()), updated_at: wireTimestamp });
type ProgrammeWire = z.output<typeof programmeWire>;

const toState = (channelId: string, raw: ProgrammeWire): ProgrammeState => ({ ...(fromWire(programmeProperties, raw) as ProgrammeState), channelId });

function put(ctx: OperationContext, channelId: string, args: { enabled: boolean; mode: string; items: Record<string, unknown>[] }, updatedAt?: string): Promise<ProgrammeWire> {
  const payload = { enabled: args.enabled, mode: args.mode, items: args.items, ...(updatedAt !== undefined ? { updated_at: updatedAt } : {}) };
  return ctx.client.put(`/stream/streams/${channelId}/programme`, payload, { schema: programmeWire, signal: ctx.signal });
}

export const programme = defineResource({
  token: TOKEN,
  description:
    "The fallback programme of a live-streaming channel: what it plays when nobody publishes. One per channel; the API replaces its items and their order as a whole. Deleting the resource empties and disables the programme.",
  args: programmeArgs,
  state: programmeState,
  replaceOnChanges: ["channelId"],
  importId: "<channelId>",

  async create(ctx, args) {
    return { id: args.channelId, state: toState(args.channelId, await put(ctx, args.channelId, args)) };
  },

  async read(ctx, id) {
    const channelId = channelIdOf(TOKEN, id);
    try {
      return { id: channelId, state: toState(channelId, await ctx.client.get(`/stream/streams/${channelId}/programme`, { schema: programmeWire, signal: ctx.signal })) };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds) {
    const channelId = channelIdOf(TOKEN, id);
    try {
      return toState(channelId, await put(ctx, channelId, news, olds.updatedAt));
    } catch (e) {
      if ((e as { code?: string }).code !== "conflict") throw e;
      throw new Error(`${TOKEN}: the programme of channel ${channelId} was changed outside this program since it was last read; run \`pulumi refresh\` to see the change, then \`pulumi up\` again`, { cause: e });
    }
  },

  async delete(ctx, id) {
    await put(ctx, channelIdOf(TOKEN, id), { enabled: false, mode: "loop", items: [] });
  },
});
