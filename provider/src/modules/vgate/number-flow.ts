import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { gatewayRef, pbxChildOf, pbxIdField, pbxPath } from "./ids";

const TOKEN = "nsp:vgate:NumberFlow";

const flowArgs = z.object({
  pbxId: pbxIdField.meta({ replace: true }),
  numberId: gatewayRef("a number", "Id of the number (`nsp:vgate:Number`) whose calls the flow directs.").meta({
    replace: true,
  }),
  flow: z
    .record(z.string(), z.unknown())
    .refine((f) => Object.keys(f).length > 0, "must not be empty; delete the resource to clear the number's flow")
    .meta({
      description:
        "What calls to the number do, sent to the API as written (field names in the API's snake_case). The " +
        "API documents do not show the flow's fields; the emulator takes `ring` (extension ids rung together) " +
        "or `destination`, with `ring_s` and `noanswer` for `ring`, and `hours` (schedule rules) with " +
        "`after_hours` (see docs/api-assumptions.md).",
      // A number without a flow has none (null or absent): Read tells that apart, not the wire schema.
      optionalOnWire: true,
    }),
});

const flowState = z.object({
  groupId: z.string().nullable().optional().meta({
    description: "Id of the ring group the gateway made for the flow, if it needed one.",
    wire: "flow_group_id",
  }),
  timeconditionId: z.string().nullable().optional().meta({
    description: "Id of the business hours (time condition) the gateway made for the flow, if it needed them.",
    wire: "flow_timecond_id",
  }),
});

type FlowState = z.output<typeof flowArgs> & z.output<typeof flowState>;

// The flow is read from the number it belongs to; the PBX and the number are its path.
const api = wireModel(flowArgs.pick({ flow: true }), flowState, { id: z.string() });
const numberWire = api.wire;

/** The number's flow as the API holds it; undefined when the number has none (or is gone). */
async function readFlow(ctx: OperationContext, pbxId: string, numberId: string): Promise<FlowState | undefined> {
  const raw = await ctx.client.getOrUndefined(pbxPath(pbxId, "numbers", numberId), {
    schema: numberWire,
    signal: ctx.signal,
  });
  if (!raw) return undefined;
  const { flow, groupId, timeconditionId } = api.toState(raw);
  if (!flow || Object.keys(flow).length === 0) return undefined;
  return { pbxId, numberId, flow, groupId: groupId ?? null, timeconditionId: timeconditionId ?? null };
}

async function putFlow(
  ctx: OperationContext,
  pbxId: string,
  numberId: string,
  flow: Record<string, unknown>,
): Promise<FlowState> {
  // The answer to the PUT is not documented; the number itself says what was stored.
  await ctx.client.put(pbxPath(pbxId, "numbers", numberId, "flow"), flow, { signal: ctx.signal });
  const state = await readFlow(ctx, pbxId, numberId);
  if (!state) throw new Error(`${TOKEN}: the flow of number ${numberId} was set, but the number does not show it`);
  return state;
}

// No shape: a document of a PBX number written by PUT and read from the number itself (getOrUndefined), not from the document's path.
export const numberFlow = defineResource({
  since: "0.1.0",
  notListed: "part of an nsp:vgate:Number (its flow document); import `<pbx>/<numberId>` by hand to manage it apart",
  token: TOKEN,
  description:
    "The flow of a number: what its calls do, set as one JSON document. The gateway makes or updates the " +
    "ring group and business hours the flow needs (see `groupId` and `timeconditionId`). Deleting the " +
    "resource clears the flow.",
  args: flowArgs,
  state: flowState,
  importId: "<pbx>/<numberId>",
  shownId: { form: "<numberId>", importable: false },

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
