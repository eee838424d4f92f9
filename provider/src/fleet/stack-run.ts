// One customer's operation on its stack, with the `pulumi` CLI on the customer project (a
// Pulumi.yaml and its program, which reads the customer from the stack's configuration). The
// program runs in the CLI's own language host, not in the fleet's process: a customer whose
// program fails fails only its own stack.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recoverPendingCreates } from "../discover/recover-pending";
import type { Customer } from "./customers";
import { errorSummary } from "./report";

export type Operation = "up" | "destroy";

export interface StackTask {
  customer: Customer;
  operation: Operation;
  /** The directory of the customer project's Pulumi.yaml. */
  projectDir: string;
  /**
   * A run of this stack may have died under it (its worker was killed): clear its lock and
   * recover its pending creates first.
   */
  recover: boolean;
  /** Aborted: the operation stops at a safe point, as `pulumi up` does on Ctrl-C. */
  interrupt?: AbortSignal;
}

/** The CLI's whole output, and the engine's counts per operation or the error. */
export type StackOutcome = { output: string } & ({ changes: Record<string, number> } | { error: string });

/**
 * On Linux each command runs under `setpriv --pdeathsig KILL`: when the worker dies (a SIGKILL, a
 * machine going down), its pulumi commands die with it instead of running on unseen, so that the
 * worker that takes the stack over is the only one writing it. Elsewhere the commands outlive a
 * killed worker and the stack's lock keeps the next run off until they end.
 */
const DIE_WITH_PARENT = process.platform === "linux" && spawnSync("setpriv", ["--help"], { stdio: "ignore" }).status === 0 ? ["setpriv", "--pdeathsig", "KILL", "--"] : [];

interface CommandResult {
  code: number;
  output: string;
}

function pulumi(args: string[], cwd: string, interrupt?: AbortSignal): Promise<CommandResult> {
  const [command, ...prefix] = DIE_WITH_PARENT.length > 0 ? DIE_WITH_PARENT : ["pulumi"];
  const argv = DIE_WITH_PARENT.length > 0 ? [...prefix, "pulumi", ...args] : args;
  return new Promise((resolve) => {
    const child = spawn(command!, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const stop = () => child.kill("SIGINT");
    interrupt?.addEventListener("abort", stop, { once: true });
    child.on("error", (e) => resolve({ code: -1, output: `${output}pulumi did not start: ${e.message}\n` }));
    child.on("close", (code) => {
      interrupt?.removeEventListener("abort", stop);
      resolve({ code: code ?? -1, output });
    });
  });
}

/** The engine's counts per operation, from the summary event of `--event-log`. */
function summaryOf(eventLog: string): Record<string, number> | undefined {
  let changes: Record<string, number> | undefined;
  for (const line of eventLog.split("\n")) {
    if (!line.includes("summaryEvent")) continue;
    const event = JSON.parse(line) as { summaryEvent?: { resourceChanges?: Record<string, number> } };
    if (event.summaryEvent) changes = event.summaryEvent.resourceChanges ?? {};
  }
  return changes;
}

export async function runStack(task: StackTask): Promise<StackOutcome> {
  const { customer, projectDir: cwd } = task;
  const stack = ["--stack", customer.ref, "--non-interactive"];
  let output = "";
  const step = async (args: string[], interrupt?: AbortSignal) => {
    output += `$ pulumi ${args.join(" ")}\n`;
    const r = await pulumi(args, cwd, interrupt);
    output += r.output;
    return r;
  };
  const failed = (r: CommandResult, what: string): StackOutcome => ({ output, error: errorSummary(r.output) || `${what} exited with ${r.code}` });

  const selected = await step(["stack", "select", "--create", ...stack]);
  if (selected.code !== 0) return failed(selected, "pulumi stack select");
  if (task.recover) {
    // The dead run's lock, if its backend holds one; nothing to cancel is not an error.
    const cancelled = await step(["cancel", "--yes", ...stack]);
    if (cancelled.code !== 0 && !/no (update|operation)s? (is )?in progress|not (currently )?(running|locked)/i.test(cancelled.output)) return failed(cancelled, "pulumi cancel");
    const lines: string[] = [];
    const recovered = await recoverPendingCreates({ stack: customer.ref, cwd, say: (m) => lines.push(m), commandOutput: "say" });
    output += `$ nsp-discover --pending-creates --stack ${customer.ref}\n${lines.join("\n")}\n`;
    if (recovered !== 0) return { output, error: `the pending creates of a run that died could not all be recovered: ${lines.filter((l) => /not decided|failed|ambiguous|unidentifiable|foreign/.test(l)).join(" | ")}` };
  }

  const dir = mkdtempSync(join(tmpdir(), "nsp-fleet-events-"));
  try {
    const eventLog = join(dir, "events.jsonl");
    writeFileSync(eventLog, "");
    const args =
      task.operation === "up"
        ? ["up", "--yes", "--skip-preview", "--suppress-progress", "--config", `customer=${JSON.stringify(customer)}`, "--event-log", eventLog, ...stack]
        : ["destroy", "--yes", "--skip-preview", "--suppress-progress", "--event-log", eventLog, ...stack];
    const r = await step(args, task.interrupt);
    if (r.code !== 0) return failed(r, `pulumi ${task.operation}`);
    const changes = summaryOf(readFileSync(eventLog, "utf8"));
    return changes ? { output, changes } : { output, error: `pulumi ${task.operation} ended without its summary` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
