// One customer's stack, run in a worker thread of its own. The Node SDK's server for inline
// programs listens for unhandled rejections and uncaught exceptions on `process` while a program
// runs, and counts each one as an error of its own program: in a single thread, the failure of
// one customer's program would also fail every stack running beside it. A worker has its own
// `process` events and its own Pulumi runtime, so a stack's errors stay its own.
import { parentPort, workerData } from "node:worker_threads";
import { LocalWorkspace, type ProjectSettings } from "@pulumi/pulumi/automation";
import type { Customer } from "./customers";
import { customerProgram, type Access } from "./program";

export interface StackJob {
  customer: Customer;
  access: Access;
  baseUrl: string | undefined;
  project: ProjectSettings;
  workDir: string;
  operation: "up" | "destroy";
}

/** What the worker posts back once: the command's output, and its resource changes or its error. */
export type StackOutcome = { output: string } & ({ changes: Record<string, number> } | { error: string });

/** The message that stops the stack at a safe point, as `pulumi up` does on Ctrl-C. */
export const STOP = "stop";

async function runStack(job: StackJob, signal: AbortSignal): Promise<StackOutcome> {
  let output = "";
  const run = { onOutput: (text: string) => (output += text), signal };
  try {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: job.customer.ref, projectName: job.project.name, program: customerProgram(job.customer, job.access, job.baseUrl) },
      { workDir: job.workDir, projectSettings: job.project },
    );
    const result = job.operation === "up" ? await stack.up(run) : await stack.destroy(run);
    return { output, changes: (result.summary.resourceChanges ?? {}) as Record<string, number> };
  } catch (e) {
    return { output, error: e instanceof Error ? e.message : String(e) };
  }
}

if (parentPort) {
  const port = parentPort;
  const stop = new AbortController();
  port.on("message", (message) => {
    if (message === STOP) stop.abort();
  });
  void runStack(workerData as StackJob, stop.signal).then((outcome) => {
    port.postMessage(outcome);
    port.close();
  });
}
