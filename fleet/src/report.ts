// What the fleet reports: one row per stack, as a table for people and as JSON for a pipeline.
import type { Drift, Plan } from "./engine-events";

export interface StackReport {
  stack: string;
  /** `cancelled`: never started, the fleet was interrupted first. */
  result: "succeeded" | "failed" | "cancelled";
  /** The engine's counts per operation (`create`, `update`, `delete`, `replace`, `same`, ...). */
  changes: Record<string, number>;
  /** Every count but `same`: 0 when the stack already matched its program. */
  changed: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  error?: string;
  /** The file holding the stack's whole CLI output, for a failure's details (none when not started). */
  logFile?: string;
}

export interface FleetReport {
  operation: "up" | "destroy";
  concurrency: number;
  startedAt: string;
  finishedAt: string;
  succeeded: number;
  /** Stacks that failed or were cancelled. */
  failed: number;
  stacks: StackReport[];
}

export function changedCount(changes: Record<string, number>): number {
  return Object.entries(changes).reduce((sum, [op, n]) => (op === "same" ? sum : sum + n), 0);
}

/**
 * The lines of an engine failure that say what went wrong: the CLI's message holds the whole
 * output of the command, the diagnostics are the lines with `error:`.
 */
export function errorSummary(message: string): string {
  const lines = message.split("\n").map((l) => l.trim());
  const errors = [...new Set(lines.filter((l) => /\berror:/.test(l)))];
  return (errors.length > 0 ? errors.slice(0, 3) : lines.filter((l) => l !== "").slice(-1)).join(" | ");
}

/** The text with every given secret blanked, for anything the fleet prints or writes. */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length > 0).reduce((t, s) => t.split(s).join("[secret]"), text);
}

function formatChanges(changes: Record<string, number>): string {
  const ops = Object.entries(changes).filter(([op, n]) => op !== "same" && n > 0);
  return ops.length === 0 ? "none" : ops.map(([op, n]) => `${op} ${n}`).join(", ");
}

/** A row of the table: a stack's report, and for a queued run its attempts and worker. */
export type TableRow = Pick<StackReport, "stack" | "changes" | "durationMs" | "error"> & { result: string; attempts?: number; worker?: string };

/** The rows as a table, then the summary line. */
export function table(rows: TableRow[], summary: string): string {
  const queued = rows.some((r) => r.attempts !== undefined);
  const cells = [
    ["STACK", "RESULT", "CHANGES", ...(queued ? ["ATTEMPTS", "WORKER"] : []), "DURATION", "ERROR"],
    ...rows.map((r) => [
      r.stack,
      r.result,
      r.result === "succeeded" ? formatChanges(r.changes) : "",
      ...(queued ? [String(r.attempts ?? ""), r.worker ?? ""] : []),
      r.durationMs > 0 ? `${(r.durationMs / 1000).toFixed(1)} s` : "",
      r.error ?? "",
    ]),
  ];
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((row) => row[col]!.length)));
  const lines = cells.map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ").trimEnd());
  lines.push(summary);
  return `${lines.join("\n")}\n`;
}

/** What a stack's succeeded job did, in a few words: its changes, its plan, or its drift. */
export function describeOutcome(operation: string, outcome: { changes: Record<string, number>; drift?: Drift; remediation?: Plan }): string {
  if (operation === "preview") return `would change ${changedCount(outcome.changes)}`;
  if (operation === "drift") {
    const drifted = outcome.drift?.resources.length ?? 0;
    return drifted === 0 ? "no drift" : `${drifted} resource(s) drifted${outcome.remediation ? `, remediated: ${changedCount(outcome.remediation.changes)} changed` : ""}`;
  }
  return `${changedCount(outcome.changes)} changed`;
}
