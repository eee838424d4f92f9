// What the fleet tells the world when a stack's health changes and when a run ends: the bodies
// of its webhook events. They are built from what the fleet records (names, counts, property
// names, an error already scrubbed of every token), never from a stack's state or outputs.
import type { Drift } from "./engine-events";

interface StackEventBody {
  type: "stack.failed" | "stack.drifted" | "stack.recovered";
  run: string;
  operation: string;
  stack: string;
  attempts: number;
  /** stack.failed: the error, as `status` shows it. */
  error?: string;
  /** stack.drifted, and stack.recovered from a drift: how many resources differ, and which properties. */
  drift?: DriftSummary;
  /** stack.recovered: what the run changed (a remediation's changes, for a drift check). */
  changes?: Record<string, number>;
}

interface RunEventBody {
  type: "run.finished";
  run: string;
  operation: string;
  summary: { stacks: number; succeeded: number; failed: number; changed?: number; drifted?: number };
}

/** An event before it is given its id and time. */
export type FleetEventBody = StackEventBody | RunEventBody;
export type FleetEvent = FleetEventBody & { id: string; at: string };

export interface DriftSummary {
  resources: number;
  gone: number;
  /** `<resource name>.<property>`, once each: the names only, never a value. */
  properties: string[];
}

export function driftSummary(drift: Drift): DriftSummary {
  const properties = drift.resources.flatMap((r) =>
    r.properties.map((p) => `${r.urn.slice(r.urn.lastIndexOf("::") + 2)}.${p.name}`),
  );
  return {
    resources: drift.resources.length,
    gone: drift.resources.filter((r) => r.gone).length,
    properties: [...new Set(properties)],
  };
}
