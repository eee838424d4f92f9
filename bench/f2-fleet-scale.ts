// F2: the fleet at the size partners run, on the emulator at its default quota (300 requests a
// minute per token) and one partner token: N customers (100 by default; 1,000 do not fit on a
// machine of 2 cores in the bench's time, see below) on 3 workers (`nsp-fleet worker
// --concurrency 2`, each with its own copy of the customer project and PULUMI_HOME), the queue
// and Pulumi's PostgreSQL state backend in one database, as the fleet guide sets them up. Four
// runs one after the other, each enqueued as a user would: a create run, a no-change `up`, a
// preview (`enqueue --preview`) and a drift check (`enqueue --drift`).
//
// Per run: the wall time (the database's times, from the enqueue to the last stack's end), the
// CPU a stack (everything the workers ran, read from this process's reaped children, as F1
// does), the requests on the partner token and on the customers' minted credentials (the
// emulator's per-token statistics), the 429s, and the queue's overhead per job: from a slot
// freeing on a worker to the next job's start on it (the jobs a worker took while it had free
// slots count from the enqueue instead), as F1 measures it. Beside each run's wall time, its
// floor: the partner token's requests at 300 a minute, and the CPU a stack × N / the cores; the
// larger bounds the run. The fleet's memory: each worker's peak RSS (VmHWM of the worker process,
// and the peak of its whole process tree, sampled each second: the pulumi commands, programs and
// plugins it runs), and the database's size after the four runs, by part.
//
// 1,000 customers: each figure a stack is measured at N; the wall time of 1,000 on this machine
// is computed from them (max of the two floors, with the queue's overhead), and said to be so.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { prepareProject, pulumiAvailable, startEmulatorProcess } from "../test/e2e/harness/pulumi-cli";
import { testPostgres } from "../test/e2e/harness/postgres-backend";
import type { TokenStats } from "../emulator/src/control/stats";
import { benchCustomers, fleetWorkerEnv, mean, queueOverhead, reapedChildrenCpuMs, type Row } from "./f1-fleet";
import { type Figure, type PartResult, ROOT, log, mb, ms, notAvailable, sec } from "./lib";

export const F2_DEFAULT_CUSTOMERS = 100;
const WORKERS = 3;
const CONCURRENCY = 2;
/** The emulator's default quota, as the API's: requests a minute per token. */
const QUOTA = 300;
const AT_SCALE = 1000;

const RUNS = [
  { name: "create", flags: [] as string[] },
  { name: "no-change up", flags: [] as string[] },
  { name: "preview", flags: ["--preview"] },
  { name: "drift", flags: ["--drift"] },
];

interface RunFigures {
  name: string;
  succeeded: number;
  wallMs: number;
  cpuMs: number;
  postgresCpuMs: number;
  partner: { total: number; rateLimited: number; byRoute: Record<string, number> };
  minted: { total: number; rateLimited: number; tokens: number };
  /** The requests the fleet recorded for its stacks (nsp_fleet.stacks.requests), summed. */
  recordedRequests: number;
  firstMs: number[];
  nextMs: number[];
  /** Per worker: VmHWM of the worker process, and the sampled peak of its process tree, in kB. */
  workerPeakKb: number[];
  treePeakKb: number[];
}

/** pid → [ppid, VmRSS kB] of every process now (those that end while read are skipped). */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the name: state, ppid, ...; rss (pages) is the 24th field of the line, the 22nd after the name.
      table.set(Number(entry), [Number(fields[1]), (Number(fields[21]) * 4096) / 1024]);
    } catch {
      // Ended meanwhile.
    }
  }
  return table;
}

/** The RSS of a process and all its descendants, in kB. */
function treeRssKb(root: number, table: Map<number, [number, number]>): number {
  const children = new Map<number, number[]>();
  for (const [pid, [ppid]] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += table.get(pid)?.[1] ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

function statusKb(pid: number, field: string): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU (user + system) of a process and the children it has reaped, in ms: the postmaster's is the server's. */
function processCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
}

const minutes = (msValue: number) => `${(msValue / 60_000).toFixed(1)} min`;

export async function f2(customers: number): Promise<PartResult> {
  const name = `F2 the fleet at scale, ${customers} customers`;
  if (!process.env.PATH?.includes(".cache/nsp")) {
    process.env.PATH = `${execFileSync("bash", ["scripts/install-pulumi.sh"], { cwd: ROOT, encoding: "utf8" }).trim()}:${process.env.PATH}`;
  }
  if (!pulumiAvailable())
    return {
      figures: [notAvailable(name, "the pulumi CLI v3.259.0 is not available (scripts/install-pulumi.sh)")],
      notes: [],
    };
  const cores = cpus().length;
  const pg = await testPostgres();
  const db = await pg.database("f2_fleet");
  const emulator = await startEmulatorProcess(["--account", "partner", "--rate-limit", String(QUOTA)]);
  const scratch = mkdtempSync(join(tmpdir(), "nsp-bench-f2-"));
  const dirs = Array.from({ length: WORKERS }, () => prepareProject("fleet"));
  const client = new Client(db);
  await client.connect();
  try {
    const file = join(scratch, "customers.json");
    writeFileSync(file, JSON.stringify(benchCustomers(customers, "c")));
    // The queue and the stacks' state in one database, as the fleet guide sets them up.
    const envOf = (m: number) => fleetWorkerEnv(scratch, m, { state: db, queue: db }, emulator);
    const backendPid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const postmaster = Number(
      readFileSync(`/proc/${backendPid}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ")[1],
    );

    const results: RunFigures[] = [];
    /** The database once the first workers made the fleet's tables, pg-boss's and Pulumi's, before any job: the fleet's fixed part. */
    let emptyFleetBytes = 0;
    for (const run of RUNS) {
      log(`F2: ${run.name} of ${customers} customers, ${WORKERS} workers × ${CONCURRENCY}`);
      const cpu0 = reapedChildrenCpuMs();
      const pgCpu0 = processCpuMs(postmaster);
      const start = (dir: string, m: number) => {
        const child = spawn(
          process.execPath,
          [join(ROOT, "dist", "fleet.js"), "worker", "--concurrency", String(CONCURRENCY)],
          { cwd: dir, env: envOf(m), stdio: ["ignore", "ignore", "pipe"] },
        );
        let stderr = "";
        let markReady = () => {};
        let markFailed = (_: Error) => {};
        const ready = new Promise<void>((resolve, reject) => {
          markReady = resolve;
          markFailed = reject;
        });
        child.stderr!.on("data", (d: Buffer) => {
          stderr += d.toString();
          if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
          if (/stack\(s\) at a time/.test(stderr)) markReady();
        });
        const exit = new Promise<{ code: number | null; stderr: string }>((r) =>
          child.on("close", (code) => {
            markFailed(new Error(`F2: worker ${m} exited ${code} before it was ready: ${stderr.slice(-2000)}`));
            r({ code, stderr });
          }),
        );
        return { pid: child.pid!, ready, exit, stop: () => child.kill("SIGTERM") };
      };
      // The first worker alone, then the others: workers that start at the same moment on a new
      // database race to make pg-boss's queues (pgboss.create_queue), and one may fail with a
      // deadlock (seen here; reported to the fleet's maintainers).
      const first = start(dirs[0]!, 0);
      await first.ready;
      const workers = [first, ...dirs.slice(1).map((dir, m) => start(dir, m + 1))];
      await Promise.all(workers.map((w) => w.ready));
      if (!emptyFleetBytes)
        emptyFleetBytes = Number(
          (await client.query<{ n: string }>("SELECT pg_database_size(current_database()) AS n")).rows[0]!.n,
        );
      const treePeakKb = workers.map(() => 0);
      const sampler = setInterval(() => {
        const table = processTable();
        workers.forEach((w, i) => {
          treePeakKb[i] = Math.max(treePeakKb[i]!, treeRssKb(w.pid, table));
        });
      }, 1000);
      await emulator.control().resetStats();
      const runId = execFileSync(
        process.execPath,
        [join(ROOT, "dist", "fleet.js"), "enqueue", "--customers", file, ...run.flags],
        { cwd: dirs[0], env: envOf(0), encoding: "utf8" },
      ).trim();
      const finished = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              "SELECT count(*) AS n FROM nsp_fleet.stacks WHERE run_id = $1 AND result IN ('succeeded', 'failed')",
              [runId],
            )
          ).rows[0]!.n,
        );
      let done = 0;
      let progressAt = Date.now();
      while (done < customers) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = await finished();
        if (now > done) progressAt = Date.now();
        done = now;
        if (Date.now() - progressAt > 15 * 60_000)
          throw new Error(`F2 ${run.name}: no stack finished in 15 minutes (${done} of ${customers} done)`);
      }
      clearInterval(sampler);
      const rows = (
        await client.query<Row & { requests: number | null }>(
          "SELECT stack, worker, result, enqueued_at, started_at, finished_at, requests FROM nsp_fleet.stacks WHERE run_id = $1",
          [runId],
        )
      ).rows;
      const workerPeakKb = workers.map((w) => statusKb(w.pid, "VmHWM"));
      const stats = await emulator.control().stats();
      for (const w of workers) w.stop();
      const ended = await Promise.all(workers.map((w) => w.exit));
      for (const e of ended) if (e.code !== 0) log(`F2: a worker exited ${e.code}: ${e.stderr.slice(-2000)}`);
      const cpuMs = reapedChildrenCpuMs() - cpu0;
      const postgresCpuMs = processCpuMs(postmaster) - pgCpu0;
      const partner: TokenStats = stats.byToken["account:partner"] ?? {
        total: 0,
        rateLimited: 0,
        byRoute: {},
        byStatus: {},
      };
      const mintedLabels = Object.keys(stats.byToken).filter((label) => label.startsWith("minted:"));
      const minted = mintedLabels.reduce(
        (sum, label) => ({
          total: sum.total + stats.byToken[label]!.total,
          rateLimited: sum.rateLimited + stats.byToken[label]!.rateLimited,
        }),
        { total: 0, rateLimited: 0 },
      );
      const wallMs =
        Math.max(...rows.map((r) => r.finished_at.getTime())) - Math.min(...rows.map((r) => r.enqueued_at.getTime()));
      const { firstMs, nextMs } = queueOverhead(rows, CONCURRENCY);
      const failedRows = rows.filter((r) => r.result !== "succeeded");
      if (failedRows.length)
        log(
          `F2 ${run.name}: ${failedRows.length} stack(s) failed: ${failedRows
            .slice(0, 5)
            .map((r) => r.stack)
            .join(", ")}`,
        );
      results.push({
        name: run.name,
        succeeded: rows.length - failedRows.length,
        wallMs,
        cpuMs,
        postgresCpuMs,
        partner: { total: partner.total, rateLimited: partner.rateLimited, byRoute: partner.byRoute },
        minted: { ...minted, tokens: mintedLabels.length },
        recordedRequests: rows.reduce((sum, r) => sum + (r.requests ?? 0), 0),
        firstMs,
        nextMs,
        workerPeakKb,
        treePeakKb,
      });
    }

    // The database after the four runs, by part.
    const size = (
      await client.query<{ total: string; state: string; state_rows: string; boss: string; fleet: string }>(
        `SELECT pg_database_size(current_database()) AS total,
           coalesce(pg_total_relation_size(to_regclass('public.pulumi_state')), 0) AS state,
           (SELECT count(*) FROM pulumi_state) AS state_rows,
           (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pgboss' AND c.relkind IN ('r', 'p')) AS boss,
           (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'nsp_fleet' AND c.relkind = 'r') AS fleet`,
      )
    ).rows[0]!;

    const figures: Figure[] = [];
    const notes: string[] = [];
    const rows: string[][] = [
      [
        "run",
        "stacks ok",
        "wall",
        "floor: partner token",
        "floor: CPU",
        "CPU a stack",
        "partner-token requests (a stack)",
        "minted-credential requests (a stack)",
        "429s",
        "queue overhead a job",
        "1,000 customers (computed)",
      ],
    ];
    for (const r of results) {
      const cpuPerStack = r.cpuMs / customers;
      const partnerFloorMs = (r.partner.total / QUOTA) * 60_000;
      const cpuFloorMs = (cpuPerStack * customers) / cores;
      const overhead = mean(r.nextMs.length ? r.nextMs : r.firstMs);
      const perStack = (n: number) => (n / customers).toFixed(2);
      // At 1,000: the larger floor, each scaled by the measured rate a stack, plus the queue's overhead for each slot's jobs.
      const atScaleMs =
        Math.max((r.partner.total / customers) * AT_SCALE * (60_000 / QUOTA), (cpuPerStack * AT_SCALE) / cores) +
        (overhead * AT_SCALE) / (WORKERS * CONCURRENCY);
      rows.push([
        r.name,
        `${r.succeeded}/${customers}`,
        sec(r.wallMs),
        minutes(partnerFloorMs),
        sec(cpuFloorMs),
        sec(cpuPerStack),
        `${r.partner.total} (${perStack(r.partner.total)})`,
        `${r.minted.total} (${perStack(r.minted.total)})`,
        String(r.partner.rateLimited + r.minted.rateLimited),
        ms(overhead),
        minutes(atScaleMs),
      ]);
      notes.push(
        `F2 ${r.name} at 1,000 customers (computed from this run's rates): partner-token floor ` +
          `${minutes((r.partner.total / customers) * AT_SCALE * (60_000 / QUOTA))}, CPU floor ` +
          `${minutes((cpuPerStack * AT_SCALE) / cores)} on ${cores} cores, so about ${minutes(atScaleMs)}.`,
      );
      notes.push(
        `F2 ${r.name}: ${r.succeeded}/${customers} succeeded; wall ${sec(r.wallMs)} (floors: partner token ` +
          `${minutes(partnerFloorMs)}, CPU ${sec(cpuFloorMs)} on ${cores} cores; wall/CPU floor ` +
          `${(r.wallMs / cpuFloorMs).toFixed(2)}); ` +
          (`CPU ${sec(r.cpuMs)} (${sec(cpuPerStack)} a stack; the workers' start and stop included), ` +
            `PostgreSQL's ${sec(r.postgresCpuMs)} (${ms(r.postgresCpuMs / customers)} a stack); `) +
          `partner token: ${r.partner.total} requests, ${r.partner.rateLimited} 429s (${
            Object.entries(r.partner.byRoute)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ") || "none"
          }); ` +
          (`minted credentials: ${r.minted.total} requests on ${r.minted.tokens} credentials, ` +
            `${r.minted.rateLimited} 429s; the fleet recorded ${r.recordedRequests} requests; `) +
          (`queue overhead: slot free to next start ` +
            `${r.nextMs.length ? `${ms(mean(r.nextMs))} (mean of ${r.nextMs.length}, max ${ms(Math.max(...r.nextMs))})` : "none"}, ` +
            `enqueue to start of the first jobs ${ms(mean(r.firstMs))} (mean of ${r.firstMs.length}); `) +
          `worker peak RSS ${r.workerPeakKb.map(mb).join(", ")}, with its commands, programs and plugins ${r.treePeakKb.map(mb).join(", ")}.`,
      );
      figures.push({
        name: `${name}: ${r.name}, wall time (baseline: the larger floor)`,
        measured: sec(r.wallMs),
        baseline: sec(Math.max(partnerFloorMs, cpuFloorMs)),
        ratio: `${(r.wallMs / Math.max(partnerFloorMs, cpuFloorMs)).toFixed(2)}×`,
        goal: "-",
        met: r.succeeded === customers ? undefined : false,
      });
      figures.push({
        name: `${name}: ${r.name}, partner-token requests a customer`,
        measured: perStack(r.partner.total),
        baseline: "-",
        ratio: "-",
        // The issue's goal is the no-change run's; the others are measured and shown.
        goal: r.name === "no-change up" ? "<= 0.1" : "-",
        met: r.name === "no-change up" ? r.partner.total / customers <= 0.1 : undefined,
      });
      figures.push({
        name: `${name}: ${r.name}, CPU a stack`,
        measured: sec(cpuPerStack),
        baseline: "-",
        ratio: "-",
        goal: "-",
        met: undefined,
      });
      figures.push({
        name: `${name}: ${r.name}, queue overhead a job`,
        measured: ms(overhead),
        baseline: "-",
        ratio: "-",
        goal: "< 100 ms",
        met: overhead < 100,
      });
    }
    const peakWorker = Math.max(...results.flatMap((r) => r.workerPeakKb));
    const peakTree = Math.max(...results.flatMap((r) => r.treePeakKb));
    figures.push({
      name: `${name}: a worker's peak RSS (the worker process; with what it runs)`,
      measured: mb(peakWorker),
      baseline: mb(peakTree),
      ratio: "-",
      goal: "-",
      met: undefined,
    });
    const total = Number(size.total);
    const perStackBytes = (total - emptyFleetBytes) / customers;
    figures.push({
      name: `${name}: PostgreSQL database after the four runs (baseline: before the first job)`,
      measured: mb(total / 1024),
      baseline: mb(emptyFleetBytes / 1024),
      ratio: "-",
      goal: "-",
      met: undefined,
    });
    notes.push(
      `F2 database after the four runs: ${mb(total / 1024)} (${mb(emptyFleetBytes / 1024)} with the ` +
        `fleet's, pg-boss's and Pulumi's tables made, before the first job): Pulumi's state ` +
        `${mb(Number(size.state) / 1024)} in ${size.state_rows} rows, pg-boss ` +
        `${mb(Number(size.boss) / 1024)}, nsp_fleet ${mb(Number(size.fleet) / 1024)}; ` +
        (`${(perStackBytes / 1024).toFixed(0)} kB a customer, so about ` +
          `${mb((emptyFleetBytes + perStackBytes * AT_SCALE) / 1024)} at 1,000 customers after the same four ` +
          `runs (computed). Each \`up\` adds to Pulumi's state: the DIY backend keeps every update's history ` +
          `and a checkpoint copy.`),
    );
    const table = rows.map((cells) => `| ${cells.join(" | ")} |`);
    table.splice(1, 0, `|${rows[0]!.map(() => "---").join("|")}|`);
    notes.push(
      `F2 table (${customers} customers measured on ${WORKERS} workers × ${CONCURRENCY}, ${cores} cores, ` +
        `quota ${QUOTA}/min a token; the last column is computed for 1,000 customers from the measured rates ` +
        `a stack, not measured: the larger floor plus the queue's overhead per slot):\n${table.join("\n")}`,
    );
    return { figures, notes };
  } finally {
    await client.end().catch(() => {});
    await emulator.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    pg.stop();
  }
}
