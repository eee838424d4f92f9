// F1: the fleet on its PostgreSQL queue: the same customers (40 by default) with 1, 2 and 3
// workers (`nsp-fleet worker --concurrency 2`, each with its own copy of the customer project and
// PULUMI_HOME, started idle before the enqueue and stopped with SIGTERM after the last stack),
// Pulumi's PostgreSQL state backend, the emulator at its default quota, one partner token. For
// each: the wall time from the enqueue to the last stack's end (the database's times), the CPU
// time of everything the workers ran (read from this process's reaped children), and the queue's
// overhead per job: from the enqueue to a job's start while a worker has a free slot (the first
// jobs), and from a slot freeing to the next job's start on that worker (the others). The
// baseline of the wall time is the 1-worker run of the same invocation.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import {
  prepareProject,
  pulumiAvailable,
  pulumiEnv,
  pulumiHome,
  startEmulatorProcess,
  type EmulatorProcess,
} from "../test/e2e/harness/pulumi-cli";
import { pulumiBackendUrl, testPostgres } from "../test/e2e/harness/postgres-backend";
import { type Figure, type PartResult, ROOT, log, ms, notAvailable, sec, x } from "./lib";

export const F1_DEFAULT_CUSTOMERS = 40;
const CONCURRENCY = 2;

export interface Row {
  stack: string;
  worker: string;
  result: string;
  enqueued_at: Date;
  started_at: Date;
  finished_at: Date;
}

interface Run {
  workers: number;
  wallMs: number;
  cpuMs: number;
  succeeded: number;
  /** Enqueue to start, for the jobs taken at once by idle workers. */
  firstMs: number[];
  /** A slot freeing to the next job's start on that worker. */
  nextMs: number[];
  rateLimited: number;
  requests: number;
}

/** CPU time (user + system) of this process's children that have ended and been waited for, in ms. */
export function reapedChildrenCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  // After the command's name: cutime and cstime are the 14th and 15th fields, in clock ticks.
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / 100;
}

/**
 * The queue's overhead per job, from the database's times: from the enqueue to a job's start for
 * the first `concurrency` jobs of each worker (taken while it had free slots), and from a slot
 * freeing (the latest finish before the job's start on that worker) to the next job's start.
 */
export function queueOverhead(
  rows: Pick<Row, "worker" | "enqueued_at" | "started_at" | "finished_at">[],
  concurrency: number,
): { firstMs: number[]; nextMs: number[] } {
  const firstMs: number[] = [];
  const nextMs: number[] = [];
  for (const w of new Set(rows.map((r) => r.worker))) {
    const mine = rows.filter((r) => r.worker === w).sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
    mine.forEach((r, i) => {
      if (i < concurrency) {
        firstMs.push(r.started_at.getTime() - r.enqueued_at.getTime());
        return;
      }
      const freed = mine
        .filter((o) => o.finished_at.getTime() <= r.started_at.getTime())
        .map((o) => o.finished_at.getTime());
      if (freed.length) nextMs.push(r.started_at.getTime() - Math.max(...freed));
    });
  }
  return { firstMs, nextMs };
}

export const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);

/** The fleet benches' customers, `<prefix>1` to `<prefix><count>`: a zone with one record each. */
export function benchCustomers(count: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => ({
    ref: `${prefix}${i + 1}`,
    zone: `${prefix}${i + 1}.fleet.example`,
    records: [{ name: "www", type: "A", content: "192.0.2.10" }],
  }));
}

/**
 * Worker `m`'s environment: a Pulumi home of its own under `scratch`, the stacks' state and the
 * queue in PostgreSQL, and the emulator's partner token.
 */
export function fleetWorkerEnv(
  scratch: string,
  m: number,
  databases: { state: string; queue: string },
  emulator: EmulatorProcess,
): NodeJS.ProcessEnv {
  return {
    ...pulumiEnv(pulumiHome(join(scratch, `home-${m}`)), ""),
    PULUMI_BACKEND_URL: pulumiBackendUrl(databases.state),
    FLEET_DATABASE_URL: databases.queue,
    NSP_BASE_URL: emulator.baseUrl,
    NSP_PARTNER_TOKEN: emulator.accounts.partner!,
  };
}

async function oneRun(
  workers: number,
  customers: number,
  postgresUrl: (prefix: string) => Promise<string>,
): Promise<Run> {
  const queueUrl = await postgresUrl("f1_queue");
  const stateUrl = await postgresUrl("f1_state");
  const emulator = await startEmulatorProcess(["--account", "partner", "--rate-limit", "300"]);
  const scratch = mkdtempSync(join(tmpdir(), "nsp-bench-f1-"));
  const dirs: string[] = [];
  try {
    const file = join(scratch, "customers.json");
    writeFileSync(file, JSON.stringify(benchCustomers(customers, "f")));
    const envOf = (m: number) => fleetWorkerEnv(scratch, m, { state: stateUrl, queue: queueUrl }, emulator);
    for (let m = 0; m < workers; m++) dirs.push(prepareProject("fleet"));
    const cpu0 = reapedChildrenCpuMs();
    // The workers start idle, then the jobs arrive: the first ones' wait is the queue's alone.
    const started = dirs.map((dir, m) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, "dist", "fleet.js"), "worker", "--concurrency", String(CONCURRENCY)],
        { cwd: dir, env: envOf(m), stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      let markReady = () => {};
      const ready = new Promise<void>((r) => (markReady = r));
      child.stderr!.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (/stack\(s\) at a time/.test(stderr)) markReady();
      });
      const exit = new Promise<{ code: number | null; stderr: string }>((r) =>
        child.on("close", (code) => r({ code, stderr })),
      );
      return { ready, exit, stop: () => child.kill("SIGTERM") };
    });
    await Promise.all(started.map((w) => w.ready));
    await emulator.control().resetStats();
    execFileSync(process.execPath, [join(ROOT, "dist", "fleet.js"), "enqueue", "--customers", file], {
      cwd: dirs[0],
      env: envOf(0),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const client = new Client(queueUrl);
    await client.connect();
    const finished = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            "SELECT count(*) AS n FROM nsp_fleet.stacks WHERE result IN ('succeeded', 'failed')",
          )
        ).rows[0]!.n,
      );
    while ((await finished()) < customers) await new Promise((r) => setTimeout(r, 500));
    const rows = (
      await client.query<Row>(
        "SELECT stack, worker, result, enqueued_at, started_at, finished_at FROM nsp_fleet.stacks",
      )
    ).rows;
    await client.end();
    for (const w of started) w.stop();
    const ended = await Promise.all(started.map((w) => w.exit));
    const cpuMs = reapedChildrenCpuMs() - cpu0;
    const wallMs =
      Math.max(...rows.map((r) => r.finished_at.getTime())) - Math.min(...rows.map((r) => r.enqueued_at.getTime()));
    for (const e of ended) if (e.code !== 0) log(`F1: a worker exited ${e.code}: ${e.stderr.slice(-2000)}`);
    const stats = await emulator.control().stats();

    const { firstMs, nextMs } = queueOverhead(rows, CONCURRENCY);
    return {
      workers,
      wallMs,
      cpuMs,
      succeeded: rows.filter((r) => r.result === "succeeded").length,
      firstMs,
      nextMs,
      rateLimited: stats.rateLimited,
      requests: stats.total,
    };
  } finally {
    await emulator.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function f1(customers: number): Promise<PartResult> {
  const name = `F1 the fleet, ${customers} customers`;
  if (!process.env.PATH?.includes(".cache/nsp")) {
    process.env.PATH = `${execFileSync("bash", ["scripts/install-pulumi.sh"], { cwd: ROOT, encoding: "utf8" }).trim()}:${process.env.PATH}`;
  }
  if (!pulumiAvailable())
    return {
      figures: [notAvailable(name, "the pulumi CLI v3.259.0 is not available (scripts/install-pulumi.sh)")],
      notes: [],
    };
  const pg = await testPostgres();
  try {
    const runs: Run[] = [];
    for (const workers of [1, 2, 3]) {
      log(`F1: ${customers} customers, ${workers} worker(s) × ${CONCURRENCY} stacks`);
      runs.push(await oneRun(workers, customers, (p) => pg.database(p)));
    }
    const one = runs[0]!;
    const figures: Figure[] = [];
    const notes: string[] = [];
    for (const r of runs) {
      const cpuPerStack = r.cpuMs / customers;
      notes.push(
        `F1 ${r.workers} worker(s) × ${CONCURRENCY}: ${r.succeeded}/${customers} succeeded; wall ` +
          `${sec(r.wallMs)}; CPU ${sec(r.cpuMs)} (${sec(cpuPerStack)} a stack); ` +
          (`queue overhead: enqueue to start ${ms(mean(r.firstMs))} (mean of ${r.firstMs.length}), slot free ` +
            `to next start ${r.nextMs.length ? `${ms(mean(r.nextMs))} (mean of ${r.nextMs.length}, max ${ms(Math.max(...r.nextMs))})` : "none (no slot took a second job)"}; `) +
          `429s ${r.rateLimited} of ${r.requests} requests (${((r.rateLimited / Math.max(1, r.requests)) * 100).toFixed(2)}%).`,
      );
      figures.push({
        name: `${name}: wall time, ${r.workers} worker(s) (baseline: 1 worker)`,
        measured: sec(r.wallMs),
        baseline: sec(one.wallMs),
        ratio: x(r.wallMs / one.wallMs),
        goal: "-",
        met: r.succeeded === customers ? undefined : false,
      });
      figures.push({
        name: `${name}: queue overhead a job, ${r.workers} worker(s)`,
        measured: `${ms(mean([...r.firstMs, ...r.nextMs]))}`,
        baseline: "-",
        ratio: "-",
        goal: "< 100 ms",
        met: mean([...r.firstMs, ...r.nextMs]) < 100,
      });
    }
    const cpuPerStack = mean(runs.map((r) => r.cpuMs / customers));
    notes.push(
      `F1 on ${cpus().length} cores: the wall time stops shrinking once the workers' stacks use every core (CPU ${sec(cpuPerStack)} a stack). ` +
        (`With a machine per worker, each with its own cores, the wall time is about CPU a stack × customers / ` +
          `machines / cores a machine: `) +
        (`${customers} customers on 3 machines of ${cpus().length} cores ≈ ` +
          `${sec((cpuPerStack * customers) / 3 / cpus().length)}; 2,000 customers on 10 such machines ≈ ${sec((cpuPerStack * 2000) / 10 / cpus().length)}.`),
    );
    return { figures, notes };
  } finally {
    pg.stop();
  }
}
