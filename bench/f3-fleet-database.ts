// F3: 1,000 stacks in one database. No stack runs: the fleet's tables are filled as a month of a
// fleet of 1,000 customers would leave them, and its read paths are timed at that size.
//
// - The queue: `nsp-fleet enqueue` of a 1,000-customer file (it only inserts: 1,000 pg-boss
//   jobs and the run's rows), timed as a process.
// - The fleet's record: HISTORY runs of 1,000 stacks each (ups, drift checks, a preview), with the
//   plan and drift documents the workers write (a preview's plan on 1 stack in 10, a drift on 1
//   in 20 of each drift check), and each stack's health (the drifted ones pointing at the last
//   drift check), inserted with SQL.
// - `nsp-fleet status --run ID` (table and --json) of a run of 1,000, `status --drifted` (and
//   --json), and `status` (the latest run): each as a process, the median of 5, beside the same
//   command on a run of 1 stack (the process's start and connection, which do not grow).
// - The queries under them and the workers' per-job queries, EXPLAIN ANALYZE'd at that size: the
//   database's own time, apart from Node.js's start.
// - Pulumi's PostgreSQL state backend at 1,000 stacks: the rows of Pulumi's table a pulumi
//   command reads (pg_stat_user_tables) and its wall time, with 1 stack and with 1,001 in the
//   backend, for a command of one stack (`pulumi up` of an empty YAML program): whether any
//   command lists every stack.
import { benchCustomers } from "./f1-fleet";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import PgBoss from "pg-boss";
import { pulumiAvailable, pulumiEnv, pulumiHome } from "../test/e2e/harness/pulumi-cli";
import { pulumiBackendUrl, testPostgres } from "../test/e2e/harness/postgres-backend";
import { reapedChildrenCpuMs } from "./f1-fleet";
import { type Figure, type PartResult, ROOT, median, ms, notAvailable } from "./lib";

const STACKS = 1000;
/** Runs of history before the timed reads: a month of a daily drift check and an `up` every third day. */
const HISTORY = 30;
const REPEATS = 5;

/**
 * The median wall time of each `node dist/fleet.js <args>`, each run REPEATS times as a process,
 * taken in turns (one of each, then again) so that the machine's load falls on all alike; and the
 * size of its output.
 */
function timedFleet(commands: string[][], env: NodeJS.ProcessEnv): { ms: number; cpuMs: number; bytes: number }[] {
  const times = commands.map(() => [] as number[]);
  const cpu = commands.map(() => [] as number[]);
  const bytes = commands.map(() => 0);
  for (let i = 0; i < REPEATS; i++) {
    commands.forEach((args, c) => {
      const t0 = performance.now();
      const c0 = reapedChildrenCpuMs();
      const r = spawnSync(process.execPath, [join(ROOT, "dist", "fleet.js"), ...args], {
        env,
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      times[c]!.push(performance.now() - t0);
      cpu[c]!.push(reapedChildrenCpuMs() - c0);
      if (r.status !== 0 && r.status !== 1)
        throw new Error(`nsp-fleet ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
      bytes[c] = r.stdout.length;
    });
  }
  return times.map((t, c) => ({ ms: median(t), cpuMs: median(cpu[c]!), bytes: bytes[c]! }));
}

/** The database's own time of a query, from EXPLAIN ANALYZE (planning and execution). */
async function explained(client: Client, sql: string, values: unknown[] = []): Promise<{ ms: number; plan: string }> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
  const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
  const planning = Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
  const execution = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
  return { ms: planning + execution, plan };
}

/** A stack's keys in Pulumi's table, counted by kind: ".pulumi/stacks 2, .pulumi/history 8, ...". */
function kinds(keys: string[]): string {
  const count = new Map<string, number>();
  for (const k of keys) {
    const kind = /\/(\.pulumi\/[^/]+)\//.exec(k)?.[1] ?? k;
    count.set(kind, (count.get(kind) ?? 0) + 1);
  }
  return [...count].map(([k, n]) => `${k} ${n}`).join(", ");
}

/** Rows of Pulumi's state table read so far (sequential scans and index fetches), as the statistics collector has them. */
async function stateRowsRead(client: Client): Promise<number> {
  // The statistics of other sessions reach the view when they end or within a second.
  await new Promise((r) => setTimeout(r, 1200));
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<{ n: string }>(
    "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE " +
      "relname = 'pulumi_state'",
  );
  return Number(rows[0]?.n ?? 0);
}

export async function f3(): Promise<PartResult> {
  const name = `F3 ${STACKS.toLocaleString("en")} stacks in one database`;
  const pg = await testPostgres();
  const db = await pg.database("f3_fleet");
  const scratch = mkdtempSync(join(tmpdir(), "nsp-bench-f3-"));
  const client = new Client(db);
  await client.connect();
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FLEET_DATABASE_URL: db };
    const customers = benchCustomers(STACKS, "c");
    const file = join(scratch, "customers.json");
    writeFileSync(file, JSON.stringify(customers));
    const one = join(scratch, "one.json");
    writeFileSync(one, JSON.stringify(customers.slice(0, 1)));

    // The queue: 1,000 jobs, as a user enqueues them (the first enqueue also makes the tables).
    const runOfOne = execFileSync(process.execPath, [join(ROOT, "dist", "fleet.js"), "enqueue", "--customers", one], {
      env,
      encoding: "utf8",
    }).trim();
    const t0 = performance.now();
    const queuedRun = execFileSync(process.execPath, [join(ROOT, "dist", "fleet.js"), "enqueue", "--customers", file], {
      env,
      encoding: "utf8",
    }).trim();
    const enqueueMs = performance.now() - t0;

    // A month of history: HISTORY runs of 1,000 finished stacks, older than the two runs above.
    await client.query(
      `INSERT INTO nsp_fleet.runs (id, operation, created_at, finished_at)
       SELECT gen_random_uuid(), CASE WHEN h = ${HISTORY - 1} THEN 'preview' WHEN h % 3 = 0 THEN 'up' ELSE 'drift' END, now() - make_interval(days => ${HISTORY} - h), now() - make_interval(days => ${HISTORY} - h) + interval '20 minutes'
       FROM generate_series(0, ${HISTORY - 1}) AS h`,
    );
    const urn = (resource: string) => `'urn:pulumi:c' || i || '::nsp-fleet::${resource}'`;
    await client.query(
      `INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result, changes, attempts, worker, enqueued_at, started_at, finished_at, plan, drift, requests, rate_limited)
       SELECT r.id, i, 'c' || i, gen_random_uuid(), 'succeeded',
         CASE WHEN r.operation = 'preview' AND i % 10 = 0 THEN '{"same": 5, "update": 1}'::jsonb ELSE '{"same": 6}'::jsonb END,
         1, 'runner-' || (i % 3) || ':4242', r.created_at, r.created_at + make_interval(secs => i), r.created_at + make_interval(secs => i + 4),
         CASE WHEN r.operation = 'preview' THEN jsonb_build_object('changes', CASE WHEN i % 10 = 0 THEN '{"same": 5, "update": 1}'::jsonb ELSE '{"same": 6}'::jsonb END,
           'steps', CASE WHEN i % 10 = 0 THEN jsonb_build_array(jsonb_build_object('urn', ${urn("nsp:dns/record:Record::a-www")}, 'type', 'nsp:dns/record:Record', 'op', 'update', 'properties', jsonb_build_array('content'))) ELSE '[]'::jsonb END) END,
         CASE WHEN r.operation = 'drift' THEN jsonb_build_object('resources', CASE WHEN i % 20 = 0 THEN jsonb_build_array(
           jsonb_build_object('urn', ${urn("nsp:dns/record:Record::a-www")}, 'type', 'nsp:dns/record:Record', 'properties', jsonb_build_array(jsonb_build_object('name', 'content', 'recorded', '192.0.2.10', 'actual', '192.0.2.99'), jsonb_build_object('name', 'ttl', 'recorded', 300, 'actual', 60))),
           jsonb_build_object('urn', ${urn("nsp:mail/domain:Domain::mail")}, 'type', 'nsp:mail/domain:Domain', 'properties', jsonb_build_array(jsonb_build_object('name', 'dkimSelector', 'secret', true)))) ELSE '[]'::jsonb END) END,
         CASE WHEN r.operation = 'drift' THEN 5 ELSE 0 END, 0
       FROM nsp_fleet.runs r, generate_series(1, ${STACKS}) AS i
       WHERE r.id NOT IN ($1, $2)`,
      [runOfOne, queuedRun],
    );
    const lastDrift = (
      await client.query<{ id: string }>(
        "SELECT id FROM nsp_fleet.runs WHERE operation = 'drift' ORDER BY created_at DESC LIMIT 1",
      )
    ).rows[0]!.id;
    const lastUp = (
      await client.query<{ id: string }>(
        "SELECT id FROM nsp_fleet.runs WHERE operation = 'up' AND id NOT IN ($1, $2) ORDER BY created_at DESC LIMIT 1",
        [runOfOne, queuedRun],
      )
    ).rows[0]!.id;
    await client.query(
      `INSERT INTO nsp_fleet.health (stack, state, since, run_id) SELECT 'c' || i, CASE WHEN i % 20 = 0 THEN 'drifted' ELSE 'ok' END, now() - interval '1 day', $1::uuid FROM generate_series(1, ${STACKS}) AS i
       ON CONFLICT (stack) DO UPDATE SET state = EXCLUDED.state, run_id = EXCLUDED.run_id`,
      [lastDrift],
    );
    await client.query("ANALYZE");
    const counts = (
      await client.query<{ stacks: string; jobs: string; runs: string }>(
        "SELECT (SELECT count(*) FROM nsp_fleet.stacks) AS stacks, (SELECT count(*) FROM pgboss.job) AS jobs, " +
          "(SELECT count(*) FROM nsp_fleet.runs) AS runs",
      )
    ).rows[0]!;
    notes.push(
      `F3 database: ${counts.runs} runs, ${counts.stacks} stack rows in nsp_fleet.stacks, ${counts.jobs} ` +
        `pg-boss jobs; enqueue of ${STACKS} customers (a process, its start included): ${ms(enqueueMs)}.`,
    );
    figures.push({
      name: `${name}: enqueue of ${STACKS} customers, a process`,
      measured: ms(enqueueMs),
      baseline: "-",
      ratio: "-",
      goal: "-",
      met: undefined,
    });

    // The commands, as processes, beside the same command on a run of 1 stack.
    const commands: { what: string; args: string[] }[] = [
      { what: `status --run (a drift check of ${STACKS})`, args: ["status", "--run", lastDrift] },
      { what: `status --run --json (a drift check of ${STACKS})`, args: ["status", "--run", lastDrift, "--json"] },
      { what: `status --run (an up of ${STACKS})`, args: ["status", "--run", lastUp] },
      { what: `status (the latest run: ${STACKS} queued)`, args: ["status"] },
      { what: "status --drifted", args: ["status", "--drifted"] },
      { what: "status --drifted --json", args: ["status", "--drifted", "--json"] },
    ];
    const [base, ...timed] = timedFleet([["status", "--run", runOfOne], ...commands.map((c) => c.args)], env);
    for (const [i, c] of commands.entries()) {
      const t = timed[i]!;
      figures.push({
        name: `${name}: ${c.what}, a process (baseline: status of a run of 1)`,
        measured: ms(t.ms),
        baseline: ms(base!.ms),
        ratio: `${(t.ms / base!.ms).toFixed(2)}×`,
        goal: c.what.startsWith("status --drifted") ? "-" : "< 1 s",
        met: c.what.startsWith("status --drifted") ? undefined : t.ms < 1000,
        notes: [
          `F3 ${c.what}: median ${ms(t.ms)} of ${REPEATS} (CPU ${ms(t.cpuMs)}), ` +
            `${(t.bytes / 1024).toFixed(0)} kB printed; status of a run of 1: ${ms(base!.ms)} (CPU ${ms(base!.cpuMs)}).`,
        ],
      });
    }

    // The queries under them, and each worker's per-job queries, in the database alone.
    const STACK_COLUMNS =
      "s.stack, s.result, s.changes, s.attempts, s.worker, s.started_at, s.finished_at, s.error, s.plan, " +
      "s.drift, s.remediation, s.requests, s.rate_limited, h.state AS health, h.since AS health_since";
    const queries: { what: string; sql: string; values?: unknown[] }[] = [
      {
        what: "status: the latest run",
        sql:
          "SELECT id, operation, remediate, schedule, created_at, finished_at FROM nsp_fleet.runs ORDER BY " +
          "created_at DESC LIMIT 1",
      },
      {
        what: "status: a run's stacks",
        sql: `SELECT ${STACK_COLUMNS} FROM nsp_fleet.stacks s LEFT JOIN nsp_fleet.health h ON h.stack = s.stack WHERE s.run_id = $1 ORDER BY s.position`,
        values: [lastDrift],
      },
      {
        what: "status --drifted",
        sql:
          `SELECT ${STACK_COLUMNS} FROM nsp_fleet.health h JOIN nsp_fleet.stacks s ON s.run_id = h.run_id AND ` +
          `s.stack = h.stack WHERE h.state = 'drifted' ORDER BY h.stack`,
      },
      {
        what: "worker, each job: whether the stack ever succeeded",
        sql: "SELECT 1 FROM nsp_fleet.stacks WHERE stack = $1 AND result = 'succeeded' LIMIT 1",
        values: ["c500"],
      },
      {
        what: "worker, each job: the run finished?",
        sql:
          "SELECT 1 FROM nsp_fleet.runs WHERE id = $1 AND finished_at IS NULL AND NOT EXISTS (SELECT 1 FROM " +
          "nsp_fleet.stacks WHERE run_id = $1 AND result IN ('queued', 'running', 'retrying'))",
        values: [queuedRun],
      },
      {
        what: "worker, a run's end: its summary",
        sql: `SELECT count(*)::int AS stacks, count(*) FILTER (WHERE result = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE result = 'failed')::int AS failed,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_each_text(changes) AS c(op, n) WHERE op <> 'same' AND n::int > 0))::int AS changed,
           count(*) FILTER (WHERE jsonb_array_length(coalesce(drift->'resources', '[]'::jsonb)) > 0)::int AS drifted FROM nsp_fleet.stacks WHERE run_id = $1`,
        values: [lastDrift],
      },
      {
        what: "enqueue --preview/--drift, schedules: the known customers",
        sql: "SELECT customer FROM nsp_fleet.customers ORDER BY ref",
      },
      {
        what: "metrics, each scrape: queue depth, drifted, latest run",
        sql:
          `SELECT (SELECT count(*)::int FROM pgboss.job WHERE name = 'nsp-fleet' AND state IN ('created', ` +
          `'retry')) AS queue_depth, (SELECT count(*)::int FROM nsp_fleet.health WHERE state = 'drifted') AS ` +
          `drifted, (SELECT id::text FROM nsp_fleet.runs ORDER BY created_at DESC LIMIT 1) AS latest`,
      },
      {
        what: "metrics, each scrape: the latest run by result",
        sql: "SELECT result, count(*)::int AS n FROM nsp_fleet.stacks WHERE run_id = $1 GROUP BY result",
        values: [queuedRun],
      },
    ];
    const slow: string[] = [];
    for (const q of queries) {
      const times: number[] = [];
      let plan = "";
      for (let i = 0; i < REPEATS; i++) {
        const e = await explained(client, q.sql, q.values);
        times.push(e.ms);
        plan = e.plan;
      }
      const t = median(times);
      const scans = [...plan.matchAll(/Seq Scan on (\S+)/g)].map((m) => m[1]);
      notes.push(
        `F3 query, ${q.what}: ${t.toFixed(2)} ms in the database (median of ${REPEATS})${scans.length ? `; sequential scan of ${[...new Set(scans)].join(", ")}` : ""}.`,
      );
      if (t > 50) slow.push(`${q.what} (${t.toFixed(1)} ms):\n${plan}`);
    }
    for (const s of slow) notes.push(`F3 a slow query: ${s}`);

    // pg-boss with 1,000 jobs queued: a worker's fetch of its next job.
    const boss = new PgBoss({ connectionString: db, max: 2, supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
    try {
      const times: number[] = [];
      for (let i = 0; i < REPEATS; i++) {
        const t = performance.now();
        const jobs = await boss.fetch("nsp-fleet", { batchSize: 2, includeMetadata: true });
        times.push(performance.now() - t);
        if (jobs.length !== 2) throw new Error(`pg-boss fetched ${jobs.length} jobs of the ${STACKS} queued`);
      }
      figures.push({
        name: `${name}: pg-boss, a worker's fetch of 2 jobs from ${STACKS} queued`,
        measured: ms(median(times)),
        baseline: "-",
        ratio: "-",
        goal: "< 100 ms",
        met: median(times) < 100,
      });
    } finally {
      await boss.stop({ graceful: false, wait: false, close: true });
    }

    // Pulumi's PostgreSQL driver lists keys with LIKE '<prefix>%', and the prefix begins with the
    // database's name: a name without LIKE's wildcards (`_`, `%`) lets its index serve the listing.
    const named = async (dbName: string) => {
      const admin = new Client(pg.url);
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${dbName}`);
      } finally {
        await admin.end();
      }
      const u = new URL(pg.url);
      u.pathname = `/${dbName}`;
      return u.toString();
    };
    const suffix = Math.random().toString(16).slice(2, 10);
    figures.push(
      ...(await stateBackend(
        await named(`f3state${suffix}`),
        "a database named without `_`",
        join(scratch, "plain"),
        notes,
      )),
    );
    figures.push(
      ...(await stateBackend(
        await named(`f3_state_${suffix}`),
        "a database named with `_`",
        join(scratch, "underscore"),
        notes,
      )),
    );
    return { figures, notes };
  } finally {
    await client.end().catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
    pg.stop();
  }
}

/**
 * Pulumi's PostgreSQL backend with 1 stack, then with 1,000 more: a stack's `pulumi up` (an empty
 * YAML program of the fleet's project name: the backend's work, no plugin), its wall time and the
 * rows of Pulumi's table it reads; then the same with PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true.
 */
async function stateBackend(db: string, what: string, scratch: string, notes: string[]): Promise<Figure[]> {
  const name = `F3 Pulumi's PostgreSQL state backend, ${what}`;
  if (!process.env.PATH?.includes(".cache/nsp")) {
    process.env.PATH = `${execFileSync("bash", ["scripts/install-pulumi.sh"], { cwd: ROOT, encoding: "utf8" }).trim()}:${process.env.PATH}`;
  }
  if (!pulumiAvailable())
    return [notAvailable(name, "the pulumi CLI v3.259.0 is not available (scripts/install-pulumi.sh)")];
  const dir = join(scratch, "project");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), "name: nsp-fleet\nruntime: yaml\nresources: {}\noutputs:\n  ok: true\n");
  const env = { ...pulumiEnv(pulumiHome(join(scratch, "home")), ""), PULUMI_BACKEND_URL: pulumiBackendUrl(db) };
  const client = new Client(db);
  await client.connect();
  try {
    const pulumi = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const t = performance.now();
      const r = spawnSync("pulumi", [...args, "--non-interactive"], {
        cwd: dir,
        env: { ...env, ...extra },
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`pulumi ${args.join(" ")}: ${r.stderr}${r.stdout}`);
      return performance.now() - t;
    };
    pulumi(["stack", "init", "s0"]);
    pulumi(["up", "--yes", "--skip-preview", "--stack", "s0"]);
    const measure = async (extra: NodeJS.ProcessEnv = {}) => {
      const times: number[] = [];
      const rows: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = await stateRowsRead(client);
        times.push(pulumi(["up", "--yes", "--skip-preview", "--stack", "s0"], extra));
        rows.push((await stateRowsRead(client)) - before);
      }
      return { ms: median(times), rows: median(rows) };
    };
    const alone = await measure();
    const keys = (
      await client.query<{ key: string }>("SELECT key FROM pulumi_state WHERE key LIKE '%/s0%' ORDER BY key")
    ).rows.map((r) => r.key);
    // 1,000 more stacks of the project, each a copy of s0's files (its stack file, backup and history).
    await client.query(
      `INSERT INTO pulumi_state (key, data) SELECT replace(replace(p.key, '/s0.', '/s' || i || '.'), ` +
        `'/s0/', '/s' || i || '/'), p.data FROM pulumi_state p, generate_series(1, ${STACKS}) AS i WHERE ` +
        `p.key LIKE '%/s0%'`,
    );
    await client.query("ANALYZE pulumi_state");
    const total = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM pulumi_state")).rows[0]!.n);
    const many = await measure();
    const quiet = await measure({ PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true" });
    const plan = (
      await client.query<{ "QUERY PLAN": string }>(
        "EXPLAIN SELECT key FROM pulumi_state WHERE key LIKE $1 ORDER BY key",
        [`${keys[0]!.split("/.pulumi/")[0]}/.pulumi/stacks/nsp-fleet/s5.json%`],
      )
    ).rows
      .map((r) => r["QUERY PLAN"])
      .join(" ");
    notes.push(
      `F3 Pulumi's PostgreSQL backend, ${what}: a listing (the driver's LIKE '<database>/.pulumi/...%') ` +
        `is ${/Index/.test(plan) ? "an index scan" : "a sequential scan of the whole table"}. After 4 ups a ` +
        `stack's files are ${keys.length} rows (${kinds(keys)}); with ${STACKS + 1} stacks the table holds ` +
        `${total} rows. ` +
        (`A stack's \`pulumi up\` (an empty YAML program) reads ${alone.rows} rows of it with 1 stack in the ` +
          `backend and ${many.rows} with ${STACKS + 1}, ${quiet.rows} with ` +
          `PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true `) +
        (`(each command that opens the backend lists every key under .pulumi/stacks/ to warn of stacks in ` +
          `the old layout, unless that variable is set); wall ${ms(alone.ms)}, ${ms(many.ms)} and ` +
          `${ms(quiet.ms)} (medians of 3).`),
    );
    return [
      {
        name: `${name}: a stack's up with ${STACKS + 1} stacks, rows of pulumi_state read (baseline: with 1 stack)`,
        measured: String(many.rows),
        baseline: String(alone.rows),
        ratio: `${(many.rows / Math.max(1, alone.rows)).toFixed(1)}×`,
        goal: "-",
        met: undefined,
      },
      {
        name: `${name}: the same with PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true`,
        measured: String(quiet.rows),
        baseline: String(alone.rows),
        ratio: `${(quiet.rows / Math.max(1, alone.rows)).toFixed(1)}×`,
        goal: "-",
        met: undefined,
      },
      {
        name: `${name}: a stack's up with ${STACKS + 1} stacks, wall (baseline: with 1 stack)`,
        measured: ms(many.ms),
        baseline: ms(alone.ms),
        ratio: `${(many.ms / alone.ms).toFixed(2)}×`,
        goal: "-",
        met: undefined,
      },
    ];
  } finally {
    await client.end().catch(() => {});
  }
}
