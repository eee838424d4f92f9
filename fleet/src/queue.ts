// The fleet on a shared PostgreSQL queue (pg-boss): `enqueue` puts one job per customer, any
// number of `worker`s on any number of machines take them, `status` reads every stack's result.
//
// Why these guarantees hold:
// - A job is held under a lease: pg-boss fails an active job whose `started_on + expire_in` has
//   passed (its supervisor, run by any worker) and queues it again while it has retries left. A
//   worker sets `expire_in` to its --lease when it takes a job and renews it while the stack runs,
//   so a job comes back one lease after its worker died, and never while a live worker holds it.
// - The queue's `singleton` policy with the customer's ref as singleton key: pg-boss's unique
//   index on (queue, singleton key) among active jobs lets one job per stack be active at a time,
//   whichever run it belongs to.
// - Retries: pg-boss's retry limit and exponential backoff, per job.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import PgBoss from "pg-boss";
import { InputError, type Customer } from "./customers";
import { connect, connectPool, connectionError, ensureSchema, requireSchema, shownUrl, DATABASE_ENV } from "./database";
import { changedCount, scrub, type StackReport } from "./report";
import { runStack, type Operation } from "./stack-run";

export const QUEUE = "nsp-fleet";
/** Wakes idle workers at once when jobs are enqueued; they also look every POLL_MS. */
const CHANNEL = "nsp_fleet_jobs";
const POLL_MS = 2_000;

export interface JobData {
  runId: string;
  operation: Operation;
  customer: Customer;
}

/**
 * A pg-boss that reports a connection problem as what to do, at start, instead of retrying.
 * Its own pool: `max` connections.
 */
async function startBoss(url: string, max: number, supervision?: { maintenanceSeconds: number; say: (message: string) => void }): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, max, schedule: false, supervise: supervision !== undefined, ...(supervision ? { maintenanceIntervalSeconds: supervision.maintenanceSeconds } : {}), application_name: "nsp-fleet" });
  let started = false;
  let failure: unknown;
  boss.on("error", (e) => (started ? supervision?.say(`the queue: ${(e as Error).message}`) : (failure ??= e)));
  try {
    await boss.start();
    started = true;
  } catch (e) {
    await boss.stop({ graceful: false, wait: false }).catch(() => {});
    throw connectionError(failure ?? e, url);
  }
  return boss;
}

async function ensureQueue(boss: PgBoss): Promise<void> {
  if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE, { name: QUEUE, policy: "singleton" });
}

export interface EnqueueOptions {
  url: string;
  customers: Customer[];
  operation: Operation;
  retries: number;
  /** The first retry's delay, doubled at each next one. */
  retryDelaySeconds: number;
}

/** One job per customer, and the run's rows, in one transaction: all or nothing. Returns the run's id. */
export async function enqueue(opts: EnqueueOptions): Promise<string> {
  const client = await connect(opts.url);
  const boss = await startBoss(opts.url, 2).catch(async (e) => {
    await client.end();
    throw e;
  });
  try {
    await ensureSchema(client);
    await ensureQueue(boss);
    const runId = randomUUID();
    const jobs = opts.customers.map((customer) => ({
      id: randomUUID(),
      name: QUEUE,
      data: { runId, operation: opts.operation, customer } satisfies JobData,
      singletonKey: customer.ref,
      retryLimit: opts.retries,
      retryDelay: opts.retryDelaySeconds,
      retryBackoff: true,
      // Until a worker takes the job and sets its own lease.
      expireInSeconds: 3600,
    }));
    await client.query("BEGIN");
    try {
      await client.query("INSERT INTO nsp_fleet.runs (id, operation) VALUES ($1, $2)", [runId, opts.operation]);
      await client.query(
        "INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result) SELECT $1, p, s, j, 'queued' FROM unnest($2::text[], $3::uuid[]) WITH ORDINALITY AS t(s, j, p)",
        [runId, opts.customers.map((c) => c.ref), jobs.map((j) => j.id)],
      );
      await boss.insert(jobs, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } });
      await client.query(`NOTIFY ${CHANNEL}`);
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK");
      throw e;
    }
    return runId;
  } finally {
    await boss.stop({ graceful: false, wait: false, close: true });
    await client.end();
  }
}

export interface WorkerOptions {
  url: string;
  concurrency: number;
  untilIdle: boolean;
  leaseSeconds: number;
  projectDir: string;
  logDir: string;
  say: (message: string) => void;
  /** The tokens a customer's stack may use, blanked in whatever the worker writes. */
  secretsOf: (customer: Customer) => string[];
  /** Aborted (SIGTERM): take no new job, finish the running stacks, release them, return. */
  drain: AbortSignal;
}

type FetchedJob = PgBoss.JobWithMetadata<JobData>;

/**
 * Runs jobs until drained (or, with untilIdle, until no job is queued, retrying or active on any
 * worker). Returns the number of stacks this worker ran that failed for good.
 */
export async function work(opts: WorkerOptions): Promise<number> {
  const me = `${hostname()}:${process.pid}`;
  const boss = await startBoss(opts.url, opts.concurrency + 2, { maintenanceSeconds: Math.max(1, Math.floor(opts.leaseSeconds / 4)), say: opts.say });
  const client = await connectPool(opts.url, 2);
  const listener = await connect(opts.url);
  let failedForGood = 0;
  const running = new Map<string, Promise<void>>();
  let wake = () => {};
  const woken = () => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, POLL_MS);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const onDrain = () => wake();
  opts.drain.addEventListener("abort", onDrain);
  // The database gone (stopped, restarted, the connection cut): a worker that polled on would
  // neither record its stacks' results nor hold their leases. It stops its running stacks at a
  // safe point, as Ctrl-C stops `pulumi up`, and ends with an error, for its supervisor to
  // restart it; their jobs come back to the queue when their lease runs out.
  const lost = new AbortController();
  let closing = false;
  const loseDatabase = (e: Error) => {
    if (closing || lost.signal.aborted) return;
    lost.abort(new Error(`lost the connection to the database (${DATABASE_ENV}=${shownUrl(opts.url)}): ${e.message}; the worker stops its running stacks and exits for its supervisor to restart it once the database is back; their jobs return to the queue after the lease (${opts.leaseSeconds} s)`));
    wake();
  };
  listener.on("error", loseDatabase);
  try {
    await ensureSchema(client);
    await ensureQueue(boss);
    await listener.query(`LISTEN ${CHANNEL}`);
    listener.on("notification", () => wake());
    opts.say(`worker ${me}: up to ${opts.concurrency} stack(s) at a time, lease ${opts.leaseSeconds} s`);

    // pg-boss 10 has no lease renewal of its own: the worker moves the job's expiry forward, on
    // pg-boss's job table (the version is pinned), for as long as it holds the job.
    const renew = async (job: FetchedJob): Promise<boolean> => {
      const { rowCount } = await client.query(
        "UPDATE pgboss.job SET expire_in = (now() - started_on) + make_interval(secs => $3) WHERE name = $1 AND id = $2 AND state = 'active'",
        [QUEUE, job.id, opts.leaseSeconds],
      );
      return rowCount === 1;
    };

    const handle = async (job: FetchedJob): Promise<void> => {
      const { customer, operation, runId } = job.data;
      const attempt = job.retryCount + 1;
      await renew(job);
      const lease = setInterval(() => {
        renew(job).then(
          (held) => held || opts.say(`${customer.ref}: lost the lease of its job (the database did not hear from this worker in time)`),
          (e) => opts.say(`${customer.ref}: could not renew the lease: ${(e as Error).message}`),
        );
      }, (opts.leaseSeconds * 1000) / 3);
      try {
        await client.query("UPDATE nsp_fleet.stacks SET result = 'running', worker = $3, attempts = $4, started_at = now(), finished_at = NULL WHERE run_id = $1 AND stack = $2", [runId, customer.ref, me, attempt]);
        opts.say(`${customer.ref}: ${operation}, attempt ${attempt} (run ${runId})`);
        const seen = await client.query("SELECT 1 FROM nsp_fleet.stacks WHERE stack = $1 AND result = 'succeeded' LIMIT 1", [customer.ref]);
        const outcome = await runStack({ customer, operation, projectDir: opts.projectDir, recover: job.retryCount > 0, seenBefore: seen.rowCount === 1, interrupt: lost.signal });
        // Nothing can be recorded: the job comes back after its lease, and the next attempt recovers the stack.
        if (lost.signal.aborted) return;
        const secrets = opts.secretsOf(customer);
        const runDir = join(opts.logDir, runId);
        mkdirSync(runDir, { recursive: true });
        // One file per stack and run, each attempt on this worker appended.
        appendFileSync(join(runDir, `${customer.ref}.log`), `# attempt ${attempt} on ${me}\n${scrub(outcome.output, secrets)}\n`);
        if ("changes" in outcome) {
          await client.query("UPDATE nsp_fleet.stacks SET result = 'succeeded', changes = $3, error = NULL, finished_at = now() WHERE run_id = $1 AND stack = $2", [runId, customer.ref, outcome.changes]);
          await boss.complete(QUEUE, job.id, { changes: outcome.changes });
          opts.say(`${customer.ref}: succeeded, ${changedCount(outcome.changes)} changed`);
        } else {
          const error = scrub(outcome.error, secrets);
          const last = job.retryCount >= job.retryLimit;
          if (last) failedForGood++;
          await client.query("UPDATE nsp_fleet.stacks SET result = $3, error = $4, finished_at = now() WHERE run_id = $1 AND stack = $2", [runId, customer.ref, last ? "failed" : "retrying", error]);
          await boss.fail(QUEUE, job.id, { error });
          opts.say(`${customer.ref}: failed (attempt ${attempt} of ${job.retryLimit + 1}): ${error}`);
        }
      } finally {
        clearInterval(lease);
      }
    };

    try {
      while (!opts.drain.aborted && !lost.signal.aborted) {
        const free = opts.concurrency - running.size;
        if (free > 0) {
          const jobs = await boss.fetch<JobData>(QUEUE, { batchSize: free, includeMetadata: true });
          for (const job of jobs) {
            const done = handle(job)
              .catch((e) => opts.say(`${job.data.customer.ref}: ${(e as Error).message}`))
              .finally(() => {
                running.delete(job.id);
                wake();
              });
            running.set(job.id, done);
          }
          if (jobs.length > 0) continue;
          // Queued, retrying (waiting out its backoff) or active anywhere: a job still to come.
          if (opts.untilIdle && running.size === 0 && (await boss.getQueueSize(QUEUE, { before: "completed" })) === 0) break;
        }
        await woken();
      }
    } catch (e) {
      // A query of the loop failed as the connection went: the same end as the listener's.
      loseDatabase(e as Error);
      if (!lost.signal.aborted) throw e;
    }
    if (opts.drain.aborted && running.size > 0) opts.say(`draining: ${running.size} running stack(s) finish, no new job is taken`);
    await Promise.all(running.values());
    if (lost.signal.aborted) throw lost.signal.reason;
    return failedForGood;
  } finally {
    closing = true;
    opts.drain.removeEventListener("abort", onDrain);
    await boss.stop({ graceful: false, wait: false, close: true });
    await Promise.all([client.end(), listener.end()]);
  }
}

export interface RunStatus {
  run: string;
  operation: Operation;
  createdAt: string;
  succeeded: number;
  failed: number;
  /** Queued, running or waiting for a retry. */
  pending: number;
  stacks: (Omit<StackReport, "result"> & { result: StackReport["result"] | "queued" | "running" | "retrying"; attempts: number; worker?: string })[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rows of one run (the latest without `runId`), as every worker left them in the database. */
export async function status(url: string, runId: string | undefined): Promise<RunStatus> {
  if (runId !== undefined && !UUID.test(runId)) throw new InputError(`--run: "${runId}" is not a run id (a UUID, as \`nsp-fleet enqueue\` prints it)`);
  const client = await connect(url);
  try {
    await requireSchema(client, url);
    const runs = await client.query<{ id: string; operation: Operation; created_at: Date }>(
      runId === undefined ? "SELECT id, operation, created_at FROM nsp_fleet.runs ORDER BY created_at DESC LIMIT 1" : "SELECT id, operation, created_at FROM nsp_fleet.runs WHERE id = $1",
      runId === undefined ? [] : [runId],
    );
    const run = runs.rows[0];
    if (!run) throw new InputError(runId === undefined ? `no run in the database (${DATABASE_ENV}=${shownUrl(url)}): enqueue one first` : `--run: no run ${runId} in the database (${DATABASE_ENV}=${shownUrl(url)}); \`nsp-fleet status\` shows the latest`);
    const { rows } = await client.query<{ stack: string; result: RunStatus["stacks"][number]["result"]; changes: Record<string, number>; attempts: number; worker: string | null; started_at: Date | null; finished_at: Date | null; error: string | null }>(
      "SELECT stack, result, changes, attempts, worker, started_at, finished_at, error FROM nsp_fleet.stacks WHERE run_id = $1 ORDER BY position",
      [run.id],
    );
    const stacks = rows.map((r) => ({
      stack: r.stack,
      result: r.result,
      changes: r.changes,
      changed: changedCount(r.changes),
      attempts: r.attempts,
      ...(r.worker ? { worker: r.worker } : {}),
      startedAt: r.started_at?.toISOString() ?? "",
      finishedAt: r.finished_at?.toISOString() ?? "",
      durationMs: r.started_at && r.finished_at ? r.finished_at.getTime() - r.started_at.getTime() : 0,
      ...(r.error ? { error: r.error } : {}),
    }));
    const count = (result: string) => stacks.filter((s) => s.result === result).length;
    return {
      run: run.id,
      operation: run.operation,
      createdAt: run.created_at.toISOString(),
      succeeded: count("succeeded"),
      failed: count("failed"),
      pending: stacks.length - count("succeeded") - count("failed"),
      stacks,
    };
  } finally {
    await client.end();
  }
}
