// The flow of a number (PUT /vgate/pbx/{pbx}/numbers/{id}/flow): what calls to it do. The body's
// fields are not shown in the API documents; the emulator's flow is described in
// docs/api-assumptions.md. "Needed ring groups and business hours are made or updated": a flow
// that rings extensions gets a ring group, one with opening hours a time condition, and each is
// updated by the next flow and removed when a flow no longer needs it (unless something else
// has started routing to it, in which case it stays as an ordinary object).
import { z } from "zod";
import { ApiError } from "../pipeline/errors";
import { intBetween } from "../pipeline/validation";
import { destination, objectId, schedule, uniqueArray } from "./fields";
import {
  type FlowBody,
  type GroupRow,
  type NumberRow,
  type PbxRow,
  type TimecondRow,
  type VgateTables,
  blockers,
  checkDestination,
  checkTarget,
  newId,
} from "./state";

export const flowBody = z.strictObject({
  ring: uniqueArray(objectId, 1, 20).optional(),
  ring_s: intBetween(5, 300).optional(),
  noanswer: destination.optional(),
  destination: destination.optional(),
  hours: schedule.optional(),
  after_hours: destination.optional(),
});

export function validateFlow(pbx: PbxRow, f: FlowBody): void {
  if (Object.keys(f).length === 0) return;
  if ((f.ring === undefined) === (f.destination === undefined))
    throw new ApiError(
      "validation_error",
      "ring: give exactly one of ring and destination (or an empty body to clear the flow)",
    );
  if (f.ring === undefined) {
    if (f.ring_s !== undefined) throw new ApiError("validation_error", "ring_s: only with ring");
    if (f.noanswer !== undefined) throw new ApiError("validation_error", "noanswer: only with ring");
  }
  if (f.hours === undefined && f.after_hours !== undefined)
    throw new ApiError("validation_error", "after_hours: only with hours");
  for (const [i, id] of (f.ring ?? []).entries()) checkTarget(pbx, `ring[${i}]`, { kind: "extension", id });
  for (const key of ["destination", "noanswer", "after_hours"] as const) {
    const v = f[key];
    if (v !== undefined) checkDestination(pbx, key, v);
  }
}

/** Drops an object the flow made, unless something other than this flow routes to it. */
function release(pbx: PbxRow, number: NumberRow, kind: "group" | "timecond", id: string | null): void {
  if (id === null) return;
  const others = blockers(pbx, kind, id, (from) => from.kind === "number" && from.id === number.id);
  if (others.length === 0) pbx.objects[kind].delete(id);
}

const FLOW_ID = { group: "flow_group_id", timecond: "flow_timecond_id" } as const;

/** The flow's ring group or time condition: updated with `fields`, made when missing, released when the flow has none. */
function keepFlowObject<K extends "group" | "timecond">(
  pbx: PbxRow,
  number: NumberRow,
  kind: K,
  fields: object | undefined,
  make: () => GroupRow | TimecondRow,
): void {
  const key = FLOW_ID[kind];
  const old = number[key];
  const table = pbx.objects[kind] as Map<string, GroupRow | TimecondRow>;
  if (!fields) {
    number[key] = null;
    release(pbx, number, kind, old);
    return;
  }
  const existing = old ? table.get(old) : undefined;
  if (existing) Object.assign(existing, fields);
  else {
    const row = make();
    table.set(row.id, row);
    number[key] = row.id;
  }
}

export function applyFlow(t: VgateTables, pbx: PbxRow, number: NumberRow, f: FlowBody, now: string): void {
  if (Object.keys(f).length === 0) {
    clearFlow(pbx, number);
    return;
  }
  const ring = f.ring && {
    members: [...f.ring],
    ring_s: f.ring_s ?? 20,
    noanswer: f.noanswer ?? "hangup",
    updated_at: now,
  };
  keepFlowObject(
    pbx,
    number,
    "group",
    ring,
    (): GroupRow => ({
      id: newId(t, "grp"),
      pbx_id: pbx.id,
      created_at: now,
      number: null,
      name: `Flow ${number.e164}`,
      strategy: "ringall",
      moh: "default",
      ...ring!,
    }),
  );
  const hours = f.hours && { schedule: structuredClone(f.hours), updated_at: now };
  keepFlowObject(
    pbx,
    number,
    "timecond",
    hours,
    (): TimecondRow => ({
      id: newId(t, "tc"),
      pbx_id: pbx.id,
      created_at: now,
      updated_at: now,
      name: `Hours ${number.e164}`,
      schedule: structuredClone(f.hours!),
    }),
  );
  number.flow = structuredClone(f);
  number.updated_at = now;
}

export function clearFlow(pbx: PbxRow, number: NumberRow): void {
  const group = number.flow_group_id;
  const timecond = number.flow_timecond_id;
  number.flow = null;
  number.flow_group_id = null;
  number.flow_timecond_id = null;
  release(pbx, number, "group", group);
  release(pbx, number, "timecond", timecond);
}
