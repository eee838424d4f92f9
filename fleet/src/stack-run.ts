// One customer's operation on its stack, with the `pulumi` CLI on the customer project (a
// Pulumi.yaml and its program, which reads the customer from the stack's configuration). The
// program runs in the CLI's own language host, not in the fleet's process: a customer whose
// program fails fails only its own stack.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { recoverPendingCreates } from "../../provider/src/discover/recover-pending";
import type { Customer } from "./customers";
import {
  driftOf,
  errorsOf,
  parseEvents,
  planOf,
  requestsOf,
  summaryOf,
  type Changes,
  type Drift,
  type Plan,
} from "./engine-events";

/** The API requests a stack's commands made, and the 429s among them. */
export type Requests = { requests: number; rateLimited: number };
import { errorSummary, scrub } from "./report";

/**
 * `preview` plans without writing anything; `drift` refreshes without writing the state, and
 * with `remediate` brings a drifted stack back to its program.
 */
export type Operation = "up" | "destroy" | "preview" | "drift";

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
  /** A drift check: bring a drifted stack back to its program (`pulumi up --refresh`). */
  remediate?: boolean;
  /** Variables for the stack's commands beside the fleet's own environment. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The environment of the fleet's pulumi commands. Every stack starts the same Node.js programs
 * afresh: the customer program (ts-node and @pulumi/pulumi) and a provider plugin per provider
 * instance. Node's compile cache (NODE_COMPILE_CACHE, keyed by each file's contents and the Node
 * version) lets all but the first skip compiling them: a quarter of a stack's CPU when nothing
 * changes, measured. The user's own setting wins.
 */
export function stackEnvironment(env: NodeJS.ProcessEnv, projectDir: string): NodeJS.ProcessEnv {
  return {
    ...env,
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE || join(projectDir, ".nsp-fleet", "compile-cache"),
    // A preview's and a refresh preview's `--json` stream the engine's events, as an update's
    // does, instead of one document at the end.
    PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true",
    // Without it, every command on a self-managed backend lists the keys of every stack, to warn
    // of stacks in an older layout: with 1,001 stacks in Pulumi's PostgreSQL backend a stack's
    // `up` read 14,055 rows instead of 37 (bench F3). The fleet makes every stack in the current layout.
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: env.PULUMI_DIY_BACKEND_NO_LEGACY_WARNING || "true",
  };
}

/**
 * The CLI's whole output, and the engine's counts per operation or the error; a preview's plan;
 * a drift check's drift (kept with an error when its remediation failed) and what the
 * remediation changed.
 */
export type StackOutcome = { output: string; drift?: Drift; requests?: Requests } & (
  | { changes: Changes; plan?: Plan; remediation?: Plan }
  | { error: string }
);

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

function pulumi(
  args: string[],
  cwd: string,
  interrupt?: AbortSignal,
  extra: NodeJS.ProcessEnv = {},
): Promise<CommandResult> {
  const env = { ...stackEnvironment(process.env, cwd), ...extra };
  // The CLI takes PULUMI_SKIP_CONFIRMATIONS for --yes, which a refresh preview refuses: the
  // fleet gives --yes itself to every command that needs it.
  if (args.includes("--preview-only")) delete env.PULUMI_SKIP_CONFIRMATIONS;
  return new Promise((resolve) => {
    const child = spawn("pulumi", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
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
    child.on("error", (e) =>
      resolve({ code: -1, output: `${output}pulumi did not start: ${e.message}\n`, stdout, stderr }),
    );
    child.on("close", (code) => {
      interrupt?.removeEventListener("abort", stop);
      if (child.pid !== undefined) dog.stdin!.write(`-${child.pid}\n`);
      resolve({ code: code ?? -1, output, stdout, stderr });
    });
  });
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

/** The arguments of each operation's command, but the stack's and the event log's. */
function commandOf(operation: Operation | "remediate", customer: Customer): string[] {
  const config = ["--config", `customer=${JSON.stringify(customer)}`];
  switch (operation) {
    case "up":
      return ["up", "--yes", "--skip-preview", ...config];
    case "destroy":
      return ["destroy", "--yes", "--skip-preview"];
    // The engine asks the provider to plan, and writes nothing: no state, no lock, no request
    // that changes an object in the customer's account.
    case "preview":
      return ["preview", ...config];
    // Reads every object of the state and compares; the state is not written.
    case "drift":
      return ["refresh", "--preview-only"];
    // Refreshes, then brings the account back to the program.
    case "remediate":
      return ["up", "--refresh", "--yes", "--skip-preview", ...config];
  }
}

/** Whether an operation may write the stack, and so may leave a dead run's lock and pending creates. */
const writes = (task: StackTask) =>
  task.operation === "up" || task.operation === "destroy" || (task.operation === "drift" && task.remediate === true);

export async function runStack(task: StackTask): Promise<StackOutcome> {
  const { customer, projectDir: cwd } = task;
  const stack = ["--stack", customer.ref, "--non-interactive"];
  let output = "";
  const step = async (args: string[], interrupt?: AbortSignal) => {
    output += `$ pulumi ${args.join(" ")}\n`;
    const r = await pulumi(args, cwd, interrupt, task.env);
    output += r.output;
    return r;
  };
  const failed = (r: CommandResult, what: string): StackOutcome => ({
    output,
    error: errorSummary(r.output) || `${what} exited with ${r.code}`,
  });

  const create = async (): Promise<StackOutcome | undefined> => {
    const selected = await step(["stack", "select", "--create", ...stack]);
    return selected.code === 0 ? undefined : failed(selected, "pulumi stack select");
  };
  // A drift check of a stack that does not exist has nothing to compare: it is not made for it.
  const makes = task.operation !== "drift";
  const recover = task.recover && writes(task);
  if (makes && (recover || !task.seenBefore)) {
    const notCreated = await create();
    if (notCreated) return notCreated;
  }
  if (recover) {
    // The dead run's lock, if its backend holds one; nothing to cancel is not an error.
    const cancelled = await step(["cancel", "--yes", ...stack]);
    if (
      cancelled.code !== 0 &&
      !/no (update|operation)s? (is )?in progress|not (currently )?(running|locked)/i.test(cancelled.output)
    )
      return failed(cancelled, "pulumi cancel");
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
    if (recovered !== 0)
      return {
        output,
        error: `the pending creates of a run that died could not all be recovered: ${lines.filter((l) => /not decided|failed|ambiguous|unidentifiable|foreign/.test(l)).join(" | ")}`,
      };
  }

  /** One command, with the engine's events it streamed. */
  const withEvents = async (operation: Operation | "remediate") => {
    const args = [...commandOf(operation, customer), "--json", ...stack];
    const before = output;
    let r = await step(args, task.interrupt);
    if (
      makes &&
      task.seenBefore &&
      !recover &&
      r.code !== 0 &&
      MISSING_STACK.test(r.stderr) &&
      !task.interrupt?.aborted
    ) {
      output = before;
      const notCreated = await create();
      if (notCreated) return { r, events: [], notCreated };
      r = await step(args, task.interrupt);
    }
    return { r, events: parseEvents(r.stdout) };
  };
  const requests: Requests = { requests: 0, rateLimited: 0 };
  const count = (events: ReturnType<typeof parseEvents>) => {
    const n = requestsOf(events);
    requests.requests += n.requests;
    requests.rateLimited += n.rateLimited;
  };
  const failure = (r: CommandResult, events: ReturnType<typeof parseEvents>, what: string): StackOutcome => ({
    output,
    requests,
    error: errorsOf(events).slice(0, 3).join(" | ") || errorSummary(r.output) || `pulumi ${what} exited with ${r.code}`,
  });

  const first = await withEvents(task.operation);
  count(first.events);
  if (first.notCreated) return first.notCreated;
  if (first.r.code !== 0) return failure(first.r, first.events, task.operation);
  const changes = summaryOf(first.events);
  if (!changes) return { output, requests, error: `pulumi ${task.operation} ended without its summary` };
  if (task.operation === "preview") return { output, requests, changes, plan: planOf(first.events) };
  if (task.operation !== "drift") return { output, requests, changes };

  const drift = driftOf(first.events);
  if (!task.remediate || drift.resources.length === 0) return { output, requests, changes, drift };
  const repair = await withEvents("remediate");
  count(repair.events);
  if (repair.notCreated) return repair.notCreated;
  if (repair.r.code !== 0) return { ...failure(repair.r, repair.events, "up --refresh"), drift };
  const repaired = summaryOf(repair.events);
  if (!repaired) return { output, requests, error: "pulumi up --refresh ended without its summary", drift };
  return { output, requests, changes, drift, remediation: planOf(repair.events) };
}
