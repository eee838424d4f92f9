// One customer's operation on its stack, with the `pulumi` CLI on the customer project (a
// Pulumi.yaml and its program, which reads the customer from the stack's configuration). The
// program runs in the CLI's own language host, not in the fleet's process: a customer whose
// program fails fails only its own stack.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { recoverPendingCreates } from "../../provider/src/discover/recover-pending";
import type { Customer } from "./customers";
import { errorSummary, scrub } from "./report";

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
  /**
   * The fleet has run this stack before, so the backend most likely holds it: the operation goes
   * straight to it, and the stack is made only if it turns out missing. Otherwise it is made (or
   * selected) first, which spares a new stack a failed run of the CLI.
   */
  seenBefore?: boolean;
  /** Aborted: the operation stops at a safe point, as `pulumi up` does on Ctrl-C. */
  interrupt?: AbortSignal;
}

/**
 * The environment of the fleet's pulumi commands. Every stack starts the same Node.js programs
 * afresh: the customer program (ts-node and @pulumi/pulumi) and a provider plugin per provider
 * instance. Node's compile cache (NODE_COMPILE_CACHE, keyed by each file's contents and the Node
 * version) lets all but the first skip compiling them: a quarter of a stack's CPU when nothing
 * changes, measured. The user's own setting wins.
 */
export function stackEnvironment(env: NodeJS.ProcessEnv, projectDir: string): NodeJS.ProcessEnv {
  return { ...env, NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE || join(projectDir, ".nsp-fleet", "compile-cache") };
}

/** The CLI's whole output, and the engine's counts per operation or the error. */
export type StackOutcome = { output: string } & ({ changes: Record<string, number> } | { error: string });

/**
 * The commands of a worker that dies (a SIGKILL, a machine going down) must die with it, and so
 * must their language hosts and plugins: an orphaned `pulumi up` would go on writing the stack
 * while another worker takes it over. Each command runs in a session of its own (the language
 * hosts pulumi starts have process groups of their own, but stay in its session), and a small
 * watchdog process, told each session's id on a pipe, kills every process of the sessions still
 * open when the pipe closes, which the kernel does when the worker ends, however it ends. When a
 * command ends, the watchdog kills what is left of its session at once: nothing outlives it.
 */
const WATCHDOG = `
const { execFileSync } = require("node:child_process");
const sessions = new Set();
function end(sids) {
  let rows = [];
  try { rows = execFileSync("ps", ["-eo", "pid=,sess="], { encoding: "utf8" }).trim().split("\\n").map((l) => l.trim().split(/\\s+/).map(Number)); } catch {}
  for (const [pid, sid] of rows) if (sids.has(sid)) try { process.kill(pid, "SIGKILL"); } catch {}
}
let buffered = "";
process.stdin.on("data", (d) => {
  buffered += d;
  const lines = buffered.split("\\n");
  buffered = lines.pop();
  for (const l of lines) {
    const sid = Number(l.slice(1));
    if (l[0] === "+") sessions.add(sid);
    else { sessions.delete(sid); end(new Set([sid])); }
  }
});
process.stdin.on("end", () => {
  end(sessions);
  process.exit(0);
});`;

let watchdog: ChildProcess | undefined;
function watched(): ChildProcess {
  if (!watchdog) {
    watchdog = spawn(process.execPath, ["-e", WATCHDOG], { stdio: ["pipe", "ignore", "ignore"], detached: true });
    watchdog.unref();
    (watchdog.stdin as unknown as { unref(): void }).unref();
  }
  return watchdog;
}

interface CommandResult {
  code: number;
  /** stdout and stderr as they came. */
  output: string;
  stdout: string;
  stderr: string;
}

function pulumi(args: string[], cwd: string, interrupt?: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn("pulumi", args, { cwd, env: stackEnvironment(process.env, cwd), stdio: ["ignore", "pipe", "pipe"], detached: true });
    const dog = watched();
    if (child.pid !== undefined) dog.stdin!.write(`+${child.pid}\n`);
    let output = "";
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      stdout += d.toString();
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
      stderr += d.toString();
    });
    // Its own session hears no Ctrl-C from the terminal: the fleet passes the stop on.
    const stop = () => child.kill("SIGINT");
    interrupt?.addEventListener("abort", stop, { once: true });
    child.on("error", (e) => resolve({ code: -1, output: `${output}pulumi did not start: ${e.message}\n`, stdout, stderr }));
    child.on("close", (code) => {
      interrupt?.removeEventListener("abort", stop);
      if (child.pid !== undefined) dog.stdin!.write(`-${child.pid}\n`);
      resolve({ code: code ?? -1, output, stdout, stderr });
    });
  });
}

/**
 * What `--json` streams on stdout, one engine event a line: the counts per operation of the
 * summary event, and the messages of the error diagnostics.
 */
function engineEvents(stdout: string): { changes?: Record<string, number>; errors: string[] } {
  let changes: Record<string, number> | undefined;
  const errors: string[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let event: { summaryEvent?: { resourceChanges?: Record<string, number> }; diagnosticEvent?: { severity?: string; message?: string } };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event.summaryEvent) changes = event.summaryEvent.resourceChanges ?? {};
    if (event.diagnosticEvent?.severity === "error" && event.diagnosticEvent.message) errors.push(event.diagnosticEvent.message.trim());
  }
  return { changes, errors };
}

/**
 * Opens the stacks' state backend once, before stacks run side by side. Pulumi's PostgreSQL
 * backend makes its table when a command first opens the database, and commands that do so at
 * the same moment collide ("failed to create table pulumi_state: duplicate key"): one of them
 * fails. Opened once first, the table is there for all. A second try covers another worker or
 * machine that opened the same database at the same moment. Returns the error, or undefined.
 */
export async function openStateBackend(projectDir: string, secrets: readonly string[]): Promise<string | undefined> {
  let r: CommandResult | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    // `whoami` opens the backend and lists nothing: `stack ls` on Pulumi's PostgreSQL backend hung on a database of forty stacks.
    r = await pulumi(["whoami", "--non-interactive"], projectDir);
    if (r.code === 0) return undefined;
  }
  const why = errorSummary(r!.output) || `pulumi whoami exited with ${r!.code}`;
  return scrub(`cannot open the stacks' state backend (PULUMI_BACKEND_URL or the CLI's login): ${why}`, secrets);
}

/** What the CLI says of a stack the backend does not hold. */
const MISSING_STACK = /^error: no stack named '[^']*' found/m;

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

  const create = async (): Promise<StackOutcome | undefined> => {
    const selected = await step(["stack", "select", "--create", ...stack]);
    return selected.code === 0 ? undefined : failed(selected, "pulumi stack select");
  };
  if (task.recover || !task.seenBefore) {
    const notCreated = await create();
    if (notCreated) return notCreated;
  }
  if (task.recover) {
    // The dead run's lock, if its backend holds one; nothing to cancel is not an error.
    const cancelled = await step(["cancel", "--yes", ...stack]);
    if (cancelled.code !== 0 && !/no (update|operation)s? (is )?in progress|not (currently )?(running|locked)/i.test(cancelled.output)) return failed(cancelled, "pulumi cancel");
    const lines: string[] = [];
    const recovered = await recoverPendingCreates({
      stack: customer.ref,
      cwd,
      say: (m) => lines.push(m),
      // Its commands run as the fleet's others do (a session the watchdog ends with the worker),
      // their output in the stack's log; the exported state, which holds the secrets, is not logged.
      pulumi: async (args, opts) => {
        const r = await pulumi(args, cwd);
        lines.push((opts.showStdout ? r.output : r.stderr).trimEnd());
        return { code: r.code, stdout: r.stdout };
      },
    });
    output += `$ nsp-discover --pending-creates --stack ${customer.ref}\n${lines.join("\n")}\n`;
    if (recovered !== 0) return { output, error: `the pending creates of a run that died could not all be recovered: ${lines.filter((l) => /not decided|failed|ambiguous|unidentifiable|foreign/.test(l)).join(" | ")}` };
  }

  const args =
    task.operation === "up"
      ? ["up", "--yes", "--skip-preview", "--json", "--config", `customer=${JSON.stringify(customer)}`, ...stack]
      : ["destroy", "--yes", "--skip-preview", "--json", ...stack];
  const before = output;
  let r = await step(args, task.interrupt);
  if (task.seenBefore && !task.recover && r.code !== 0 && MISSING_STACK.test(r.stderr) && !task.interrupt?.aborted) {
    output = before;
    const notCreated = await create();
    if (notCreated) return notCreated;
    r = await step(args, task.interrupt);
  }
  const { changes, errors } = engineEvents(r.stdout);
  if (r.code !== 0) return { output, error: [...new Set(errors)].slice(0, 3).join(" | ") || errorSummary(r.output) || `pulumi ${task.operation} exited with ${r.code}` };
  return changes ? { output, changes } : { output, error: `pulumi ${task.operation} ended without its summary` };
}
