import { z } from "zod";
import { isNotFound } from "../../client";
import { defineResource, type OperationContext } from "../../framework/definition";
import { gatewayRef, pbxChildOf, pbxIdField, pbxPath } from "./ids";

const TOKEN = "nsp:vgate:NumberFlow";

const flowArgs = z.object({
  pbxId: pbxIdField,
  numberId: gatewayRef("a number", "Id of the number (`nsp:vgate:Number`) whose calls the flow directs."),
  flow: z
    .record(z.string(), z.unknown())
    .refine((f) => Object.keys(f).length > 0, "must not be empty; delete the resource to clear the number's flow")
    .meta({
      description:
        "What calls to the number do, sent to the API as written (field names in the API's snake_case). The API documents do not show the flow's fields; the emulator takes `ring` (extension ids rung together) or `destination`, with `ring_s` and `noanswer` for `ring`, and `hours` (schedule rules) with `after_hours` (see docs/api-assumptions.md).",
    }),
});

const flowState = z.object({
  groupId: z.string().nullable().optional().meta({ description: "Id of the ring group the gateway made for the flow, if it needed one." }),
  timeconditionId: z.string().nullable().optional().meta({ description: "Id of the business hours (time condition) the gateway made for the flow, if it needed them." }),
});

type FlowState = z.output<typeof flowArgs> & z.output<typeof flowState>;

const numberWire = z.looseObject({
  id: z.string(),
  flow: z.record(z.string(), z.unknown()).nullable().optional(),
  flow_group_id: z.string().nullable().optional(),
  flow_timecond_id: z.string().nullable().optional(),
});

/** The number's flow as the API holds it; undefined when the number has none (or is gone). */
async function readFlow(ctx: OperationContext, pbxId: string, numberId: string): Promise<FlowState | undefined> {
  let raw: z.output<typeof numberWire>;
  try {
    raw = await ctx.client.get(pbxPath(pbxId, "numbers", numberId), { schema: numberWire, signal: ctx.signal });
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  if (!raw.flow || Object.keys(raw.flow).length === 0) return undefined;
  return { pbxId, numberId, flow: raw.flow, groupId: raw.flow_group_id ?? null, timeconditionId: raw.flow_timecond_id ?? null };
}

async function putFlow(ctx: OperationContext, pbxId: string, numberId: string, flow: Record<string, unknown>): Promise<FlowState> {
  // The answer to the PUT is not documented; the number itself says what was stored.
  await ctx.client.put(pbxPath(pbxId, "numbers", numberId, "flow"), flow, { signal: ctx.signal });
  const state = await readFlow(ctx, pbxId, numberId);
  if (!state) throw new Error(`${TOKEN}: the flow of number ${numberId} was set, but the number does not show it`);
  return state;
}

export const numberFlow = defineResource({
  token: TOKEN,
  description:
    "The flow of a number: what its calls do, set as one JSON document. The gateway makes or updates the ring group and business hours the flow needs (see `groupId` and `timeconditionId`). Deleting the resource clears the flow.",
  args: flowArgs,
  state: flowState,
  replaceOnChanges: ["pbxId", "numberId"],
  importId: "<pbx>/<numberId>",

  async create(ctx, args) {
    return { id: args.numberId, state: await putFlow(ctx, args.pbxId, args.numberId, args.flow) };
  },

  async read(ctx, id, prior) {
    const { pbxId, child } = pbxChildOf(TOKEN, id, prior.pbxId);
    const state = await readFlow(ctx, pbxId, child);
    return state && { id: child, state };
  },

  async update(ctx, id, news, olds) {
    const { pbxId, child } = pbxChildOf(TOKEN, id, olds.pbxId);
    return putFlow(ctx, pbxId, child, news.flow);
  },

  async delete(ctx, id, olds) {
    const { pbxId, child } = pbxChildOf(TOKEN, id, olds.pbxId);
    await ctx.client.put(pbxPath(pbxId, "numbers", child, "flow"), {}, { signal: ctx.signal });
  },
});
