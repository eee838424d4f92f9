// The fleet: one Pulumi stack per customer, run by Pulumi's Automation API with a bounded number
// of stacks at a time. Each stack is an ordinary stack of the project in Pulumi.yaml: its state is
// in the backend PULUMI_BACKEND_URL names, and any Pulumi command works on it afterwards.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { LocalWorkspace, type ProjectSettings } from "@pulumi/pulumi/automation";
import { credentials, InputError, parseCustomers, type Customer } from "./customers";
import type { Access } from "./program";
import { runPool } from "./pool";
import { STOP, type StackJob, type StackOutcome } from "./stack-run";
import { changedCount, errorSummary, scrub, table, type FleetReport, type StackReport } from "./report";

const USAGE = `usage: node build/fleet.js [--customers FILE] [--concurrency N] [--report FILE] [--work-dir DIR] [--destroy]
  --customers FILE   the customers, a JSON list (default: customers.json beside Pulumi.yaml)
  --concurrency N    stacks at a time, 1 to 64 (default: FLEET_CONCURRENCY or 4)
  --report FILE      also write the report as JSON to FILE
  --work-dir DIR     each stack's workspace (its Pulumi.<stack>.yaml and last log) (default: .fleet beside Pulumi.yaml)
  --destroy          destroy the customers' stacks instead of updating them
Environment: PULUMI_BACKEND_URL (e.g. file:///path), PULUMI_CONFIG_PASSPHRASE for a file backend,
NSP_BASE_URL, NSP_PARTNER_TOKEN (the partner token), and each customer's tokenEnv, if any.`;

const PARTNER_TOKEN_ENV = "NSP_PARTNER_TOKEN";

interface Options {
  customersFile: string;
  concurrency: number;
  reportFile?: string;
  workDir: string;
  operation: FleetReport["operation"];
}

type ProjectTemplate = ProjectSettings & { plugins?: { providers?: { name: string; path?: string; version?: string }[] } };

/** The directory of the fleet's Pulumi.yaml: the nearest one above this file (compiled or not). */
function projectDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "Pulumi.yaml"))) return dir;
    if (dirname(dir) === dir) throw new InputError(`no Pulumi.yaml above ${__dirname}`);
  }
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv, home: string): Options {
  const opts: Options = { customersFile: join(home, "customers.json"), concurrency: 4, workDir: join(home, ".fleet"), operation: "up" };
  let concurrency = env.FLEET_CONCURRENCY;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new InputError(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === "--customers") opts.customersFile = resolve(value());
    else if (flag === "--concurrency") concurrency = value();
    else if (flag === "--report") opts.reportFile = resolve(value());
    else if (flag === "--work-dir") opts.workDir = resolve(value());
    else if (flag === "--destroy") opts.operation = "destroy";
    else throw new InputError(`unknown argument ${flag}\n${USAGE}`);
  }
  if (concurrency !== undefined) {
    opts.concurrency = Number(concurrency);
    if (!/^\d+$/.test(concurrency) || opts.concurrency < 1 || opts.concurrency > 64) throw new InputError(`--concurrency (or FLEET_CONCURRENCY): "${concurrency}" must be a whole number from 1 to 64`);
  }
  // The SDK would give it to every provider that names no subject, the partner's own included.
  if (env.NSP_PARTNER_SUBJECT !== undefined) throw new InputError("NSP_PARTNER_SUBJECT: unset it; the fleet gives each customer's provider the customer's own subject");
  const backend = env.PULUMI_BACKEND_URL ?? "";
  if (backend.startsWith("file:") && env.PULUMI_CONFIG_PASSPHRASE === undefined && env.PULUMI_CONFIG_PASSPHRASE_FILE === undefined) {
    throw new InputError("PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE): a file backend encrypts each stack's secrets (the tokens) with it");
  }
  return opts;
}

/**
 * The project of Pulumi.yaml, for every stack's own workspace directory: each stack gets a
 * directory of its own so that concurrent stacks never write the same workspace files, and a
 * plugin path in Pulumi.yaml, relative to Pulumi.yaml, is made absolute for them.
 */
async function projectTemplate(home: string): Promise<ProjectTemplate> {
  const project: ProjectTemplate = await (await LocalWorkspace.create({ workDir: home })).projectSettings();
  const providers = project.plugins?.providers?.map((p) => (p.path === undefined || isAbsolute(p.path) ? p : { ...p, path: resolve(home, p.path) }));
  return providers ? { ...project, plugins: { ...project.plugins, providers } } : project;
}

/**
 * After SIGINT or SIGTERM no new stack starts. The running ones stop at a safe point, as
 * `pulumi up` does on Ctrl-C: the operations under way finish, the state is written and the lock
 * released, so no stack is left stuck. A terminal sends SIGINT to the pulumi commands itself (a
 * second one would make them stop at once), so only SIGTERM, which reaches the fleet alone, is
 * passed on to them. A second signal ends the fleet at once, as it does `pulumi up`.
 *
 * The listeners stay for good: execa (under the Automation API) re-sends a signal to the process
 * when it finds no listener but its own, which would end the fleet before its stacks stop.
 */
function stopOnSignals(): { newStacks: AbortSignal; running: AbortSignal } {
  const newStacks = new AbortController();
  const running = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (newStacks.signal.aborted) process.exit(1);
    process.stderr.write(`fleet: ${signal}: no new stack starts; the running ones stop at a safe point\n`);
    newStacks.abort();
    if (signal === "SIGTERM") running.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return { newStacks: newStacks.signal, running: running.signal };
}

/**
 * Runs one stack in a worker thread of its own (see stack-run.ts for why); `running` aborted
 * stops it at a safe point.
 */
function inWorker(job: StackJob, running: AbortSignal): Promise<StackOutcome> {
  return new Promise((resolveOutcome, reject) => {
    const worker = new Worker(join(__dirname, "stack-run.js"), { workerData: job });
    const stop = () => worker.postMessage(STOP);
    if (running.aborted) stop();
    else running.addEventListener("abort", stop, { once: true });
    worker.once("message", (outcome: StackOutcome) => resolveOutcome(outcome));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      running.removeEventListener("abort", stop);
      reject(new Error(`exited with code ${code} before reporting`));
    });
  });
}

function stackRow(stack: string, started: Date, result: StackReport["result"], changes: Record<string, number>, error?: string): StackReport {
  const finished = new Date();
  return {
    stack,
    result,
    changes,
    changed: changedCount(changes),
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    ...(error === undefined ? {} : { error }),
  };
}

async function main(): Promise<number> {
  const home = projectDir();
  const opts = parseArgs(process.argv.slice(2), process.env, home);
  const customers = parseCustomers(readFileSync(opts.customersFile, "utf8"), opts.customersFile);
  const { partnerToken, customerTokens } = credentials(customers, process.env, PARTNER_TOKEN_ENV);
  const secrets = [partnerToken ?? "", ...customerTokens.values()];
  const baseUrl = process.env.NSP_BASE_URL || undefined;
  const project = await projectTemplate(home);
  const interrupted = stopOnSignals();

  const runStack = async (customer: Customer): Promise<StackReport> => {
    const started = new Date();
    if (interrupted.newStacks.aborted) return stackRow(customer.ref, started, "cancelled", {}, "not started: the fleet was interrupted");
    const workDir = join(opts.workDir, customer.ref);
    const logFile = join(workDir, `${opts.operation}.log`);
    mkdirSync(workDir, { recursive: true });
    const customerToken = customerTokens.get(customer.ref);
    const access: Access = customerToken !== undefined ? { customerToken } : { partnerToken: partnerToken! };
    let outcome: StackOutcome;
    try {
      outcome = await inWorker({ customer, access, baseUrl, project, workDir, operation: opts.operation }, interrupted.running);
    } catch (e) {
      outcome = { output: "", error: `the stack's worker failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    writeFileSync(logFile, scrub(outcome.output, secrets));
    if ("error" in outcome) return { ...stackRow(customer.ref, started, "failed", {}, errorSummary(scrub(outcome.error, secrets))), logFile };
    return { ...stackRow(customer.ref, started, "succeeded", outcome.changes), logFile };
  };

  const startedAt = new Date().toISOString();
  const stacks = await runPool(customers, opts.concurrency, runStack);
  const failed = stacks.filter((s) => s.result !== "succeeded").length;
  const report: FleetReport = {
    operation: opts.operation,
    concurrency: opts.concurrency,
    startedAt,
    finishedAt: new Date().toISOString(),
    succeeded: stacks.length - failed,
    failed,
    stacks,
  };
  process.stdout.write(table(report));
  if (opts.reportFile) writeFileSync(opts.reportFile, `${scrub(JSON.stringify(report, null, 2), secrets)}\n`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    process.stderr.write(`fleet: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
