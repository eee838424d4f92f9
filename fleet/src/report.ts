// What the fleet reports: one row per stack, as a table for people and as JSON for a pipeline.
import { nameOfUrn, type Drift, type Plan } from "./engine-events";

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
  plan?: Plan;
  drift?: Drift;
  remediation?: Plan;
}

export interface FleetReport {
  operation: string;
  remediate?: boolean;
  /** Stacks a preview would change, or a drift check found drifted. */
  changed: number;
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

/** A drift check's finding, in a few words: each drifted resource's properties, or that it is gone. */
export function driftText(drift: Drift | undefined, remediation?: Plan): string {
  if (!drift) return "";
  if (drift.resources.length === 0) return "none";
  const found = drift.resources
    .map((r) => `${nameOfUrn(r.urn)}${r.gone ? " (gone)" : `.${r.properties.map((p) => p.name).join(",")}`}`)
    .join(" ");
  return remediation ? `${found}; remediated: ${formatChanges(remediation.changes)}` : found;
}

/** A row of the table: a stack's report, and for a queued run its attempts, worker, drift and health. */
export type TableRow = Pick<StackReport, "stack" | "changes" | "durationMs" | "error"> & {
  result: string;
  attempts?: number;
  worker?: string;
  drift?: Drift;
  remediation?: Plan;
  health?: { state: string; since: string };
};

/** The rows as a table, then the summary line. */
export function table(rows: TableRow[], summary: string): string {
  const queued = rows.some((r) => r.attempts !== undefined);
  const drifts = rows.some((r) => r.drift !== undefined);
  const unwell = rows.some((r) => r.health !== undefined && r.health.state !== "ok");
  const cells = [
    [
      "STACK",
      "RESULT",
      "CHANGES",
      ...(drifts ? ["DRIFT"] : []),
      ...(queued ? ["ATTEMPTS", "WORKER"] : []),
      "DURATION",
      ...(unwell ? ["NOW"] : []),
      "ERROR",
    ],
    ...rows.map((r) => [
      r.stack,
      r.result,
      r.result === "succeeded" ? formatChanges(r.changes) : "",
      ...(drifts ? [driftText(r.drift, r.remediation)] : []),
      ...(queued ? [String(r.attempts ?? ""), r.worker ?? ""] : []),
      r.durationMs > 0 ? `${(r.durationMs / 1000).toFixed(1)} s` : "",
      ...(unwell
        ? [
            r.health && r.health.state !== "ok"
              ? `${r.health.state} since ${r.health.since.slice(0, 16).replace("T", " ")}Z`
              : "",
          ]
        : []),
      r.error ?? "",
    ]),
  ];
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((row) => row[col]!.length)));
  const lines = cells.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!)))
      .join("  ")
      .trimEnd(),
  );
  lines.push(summary);
  return `${lines.join("\n")}\n`;
}

/** A stack's row of a run, as the Markdown summary reads it. */
export interface SummaryRow {
  stack: string;
  result: string;
  changes: Record<string, number>;
  plan?: Plan;
  drift?: Drift;
  remediation?: Plan;
  error?: string;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * A run's summary for a pull request's comment: one line per stack that changes (a preview) or
 * drifted (a drift check), those that delete or replace first, then those that failed; the rest
 * counted in one line.
 */
export function markdownSummary(run: { run: string; operation: string; stacks: SummaryRow[] }): string {
  const drift = run.operation === "drift";
  const changing = run.stacks.filter(
    (s) => s.result === "succeeded" && (drift ? (s.drift?.resources.length ?? 0) > 0 : changedCount(s.changes) > 0),
  );
  const failed = run.stacks.filter((s) => s.result !== "succeeded");
  const unchanged = run.stacks.length - changing.length - failed.length;
  const severity = (s: SummaryRow) => ((s.changes.delete ?? 0) > 0 || (s.changes.replace ?? 0) > 0 ? 0 : 1);
  changing.sort((a, b) => severity(a) - severity(b) || a.stack.localeCompare(b.stack));
  const what = drift ? "drifted" : run.operation === "preview" ? "would change" : "changed";
  const lines = [
    `### nsp-fleet ${run.operation}: ${changing.length} of ${run.stacks.length} stack(s) ${what}${failed.length > 0 ? `, ${failed.length} failed` : ""}`,
    "",
  ];
  if (changing.length > 0) {
    if (drift) {
      lines.push("| stack | drifted | remediated |", "|---|---|---|");
      for (const s of changing)
        lines.push(
          `| ${cell(s.stack)} | ${cell(driftText(s.drift))} | ${s.remediation ? cell(formatChanges(s.remediation.changes)) : "no"} |`,
        );
    } else {
      lines.push("| stack | create | update | replace | delete | resources |", "|---|---|---|---|---|---|");
      for (const s of changing) {
        const steps = (s.plan?.steps ?? [])
          .map(
            (step) =>
              `${step.op} \`${nameOfUrn(step.urn)}\`${step.properties.length > 0 ? ` (${step.properties.join(", ")})` : ""}`,
          )
          .join("; ");
        const n = (op: string) => String(s.changes[op] ?? 0);
        lines.push(
          `| ${cell(s.stack)} | ${n("create")} | ${n("update")} | ${n("replace")} | ${n("delete")} | ${cell(steps)} |`,
        );
      }
    }
    lines.push("");
  }
  for (const s of failed) lines.push(`- **${cell(s.stack)}** ${s.result}${s.error ? `: ${cell(s.error)}` : ""}`);
  if (failed.length > 0) lines.push("");
  lines.push(`${unchanged} stack(s) ${drift ? "without drift" : "unchanged"}.`, "", `Run \`${run.run}\`.`);
  return `${lines.join("\n")}\n`;
}

/** What a stack's succeeded job did, in a few words: its changes, its plan, or its drift. */
export function describeOutcome(
  operation: string,
  outcome: { changes: Record<string, number>; drift?: Drift; remediation?: Plan },
): string {
  if (operation === "preview") return `would change ${changedCount(outcome.changes)}`;
  if (operation === "drift") {
    const drifted = outcome.drift?.resources.length ?? 0;
    return drifted === 0
      ? "no drift"
      : `${drifted} resource(s) drifted${outcome.remediation ? `, remediated: ${changedCount(outcome.remediation.changes)} changed` : ""}`;
  }
  return `${changedCount(outcome.changes)} changed`;
}
