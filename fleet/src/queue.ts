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
import { changedCount, describeOutcome, scrub, type StackReport } from "./report";
import { runStack, type Operation, type StackOutcome } from "./stack-run";
import { driftSummary, type FleetEvent, type FleetEventBody } from "./events";
import type { PartnerToken } from "./partner-token";
import type { Drift, Plan } from "./engine-events";
import type { Client } from "pg";

export const QUEUE = "nsp-fleet";
/** Wakes idle workers at once when jobs are enqueued; they also look every POLL_MS. */
const CHANNEL = "nsp_fleet_jobs";
const POLL_MS = 2_000;

export interface JobData {
  runId: string;
  operation: Operation;
  customer: Customer;
  /** A drift check that brings a drifted stack back to its program. */
  remediate?: boolean;
}

/**
 * A pg-boss that reports a connection problem as what to do, at start, instead of retrying.
 * Its own pool: `max` connections.
 */
export async function startBoss(
  url: string,
  max: number,
  supervision?: { maintenanceSeconds: number; say: (message: string) => void; schedules?: boolean },
): Promise<PgBoss> {
  // With `schedule`, pg-boss's timekeeper runs in this process: every instance looks at the
  // schedules, one at a time under its own lock, and a firing is one job per minute at most
  // (a singleton key per schedule and minute), however many workers look.
  // Each worker looks at the schedules every 10 s (pg-boss's default is 30): a firing starts
  // within seconds of its minute, for one small query a worker every 10 s.
  const boss = new PgBoss({
    connectionString: url,
    max,
    schedule: supervision?.schedules === true,
    cronMonitorIntervalSeconds: 10,
    cronWorkerIntervalSeconds: 2,
    supervise: supervision !== undefined,
    ...(supervision ? { maintenanceIntervalSeconds: supervision.maintenanceSeconds } : {}),
    application_name: "nsp-fleet",
  });
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

export async function ensureQueue(
  boss: PgBoss,
  name = QUEUE,
  policy: "singleton" | "standard" = "singleton",
): Promise<void> {
  if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, policy });
}

/**
 * Makes the queues, one process at a time: pg-boss makes a queue's table partition, and workers
 * starting together on a new database deadlocked there ("deadlock detected"). A session lock
 * on `sql`'s connection (pg-boss makes them on its own) keeps the others waiting meanwhile.
 */
export async function ensureQueues(
  sql: Pick<Client, "query">,
  boss: PgBoss,
  queues: { name: string; policy: "singleton" | "standard" }[],
): Promise<void> {
  await sql.query("SELECT pg_advisory_lock(hashtext('nsp_fleet queues'))");
  try {
    for (const q of queues) await ensureQueue(boss, q.name, q.policy);
  } finally {
    await sql.query("SELECT pg_advisory_unlock(hashtext('nsp_fleet queues'))");
  }
}

/** What the fleet runs on a schedule, on every customer it has brought up. */
export const SCHEDULE_KINDS = ["drift", "up"] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
/** pg-boss keeps one schedule per queue: one queue per kind. */
export const scheduleQueue = (kind: ScheduleKind) => `nsp-fleet-scheduled-${kind}`;

export interface ScheduleData {
  kind: ScheduleKind;
  remediate?: boolean;
  retries: number;
  retryDelaySeconds: number;
}

export interface EnqueueOptions {
  url: string;
  /** Unset: every customer the fleet has brought up and not destroyed (a preview or drift check). */
  customers?: Customer[];
  operation: Operation;
  remediate?: boolean;
  retries: number;
  /** The first retry's delay, doubled at each next one. */
  retryDelaySeconds: number;
}

export type RunSpec = Omit<EnqueueOptions, "url">;

/** What runs SQL: a client, or a client in the middle of its transaction. */
type Sql = Pick<Client, "query">;

/** The customers a run without a customers file covers: those brought up and not destroyed since. */
async function knownCustomers(client: Sql): Promise<Customer[]> {
  const { rows } = await client.query<{ customer: Customer }>("SELECT customer FROM nsp_fleet.customers ORDER BY ref");
  return rows.map((r) => r.customer);
}

/**
 * One job per customer and the run's rows, on `client` inside the caller's transaction: all or
 * nothing. Returns the run's id and how many stacks it holds.
 */
async function insertRun(
  client: Sql,
  boss: PgBoss,
  spec: RunSpec,
  schedule?: string,
): Promise<{ runId: string; stacks: number }> {
  const customers = spec.customers ?? (await knownCustomers(client));
  if (customers.length === 0)
    throw new InputError(`no customer to ${spec.operation}: the fleet has brought none up; give --customers FILE`);
  const runId = randomUUID();
  const jobs = customers.map((customer) => ({
    id: randomUUID(),
    name: QUEUE,
    data: {
      runId,
      operation: spec.operation,
      customer,
      ...(spec.remediate ? { remediate: true } : {}),
    } satisfies JobData,
    singletonKey: customer.ref,
    retryLimit: spec.retries,
    retryDelay: spec.retryDelaySeconds,
    retryBackoff: true,
    // Until a worker takes the job and sets its own lease.
    expireInSeconds: 3600,
  }));
  await client.query("INSERT INTO nsp_fleet.runs (id, operation, remediate, schedule) VALUES ($1, $2, $3, $4)", [
    runId,
    spec.operation,
    spec.remediate === true,
    schedule ?? null,
  ]);
  await client.query(
    "INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result) SELECT $1, p, s, j, 'queued' " +
      "FROM unnest($2::text[], $3::uuid[]) WITH ORDINALITY AS t(s, j, p)",
    [runId, customers.map((c) => c.ref), jobs.map((j) => j.id)],
  );
  // The customers a later preview or drift check covers by default; a destroy removes them when it succeeds.
  if (spec.operation === "up") {
    await client.query(
      "INSERT INTO nsp_fleet.customers (ref, customer) SELECT c->>'ref', c FROM " +
        "jsonb_array_elements($1::jsonb) AS c ON CONFLICT (ref) DO UPDATE SET customer = EXCLUDED.customer, " +
        "updated_at = now()",
      [JSON.stringify(customers)],
    );
  }
  await boss.insert(jobs, { db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) } });
  await client.query(`NOTIFY ${CHANNEL}`);
  return { runId, stacks: customers.length };
}

/** Runs `body` in a transaction on `client`. */
async function inTransaction<T>(client: Sql, body: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await body();
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK");
    throw e;
  }
}

/** One job per customer, and the run's rows, in one transaction: all or nothing. */
export async function enqueue(opts: EnqueueOptions): Promise<{ runId: string; stacks: number }> {
  const client = await connect(opts.url);
  const boss = await startBoss(opts.url, 2).catch(async (e) => {
    await client.end();
    throw e;
  });
  try {
    await ensureSchema(client);
    await ensureQueues(client, boss, [{ name: QUEUE, policy: "singleton" }]);
    return await inTransaction(client, () => insertRun(client, boss, opts));
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
  /** Sends (or queues, on `boss`) an event: a stack failed, drifted or recovered, a run ended. */
  notify?: (event: FleetEvent, boss: PgBoss) => Promise<void>;
  /** Counts the jobs this worker ran, for its metrics. */
  observer?: JobObserver;
  /** Whether this worker fires the schedules (pg-boss's cron) too. */
  schedules?: boolean;
  /** The partner token, checked once for all the stacks this worker runs. */
  partnerToken?: PartnerToken;
  /** Other queues this worker serves beside the stacks' (the webhook deliveries). */
  sideQueues?: { queue: string; handle: (job: PgBoss.Job<unknown>, boss: PgBoss) => Promise<void> }[];
}

export interface JobObserver {
  jobFinished(operation: string, result: string, durationSeconds: number): void;
  /** The 429s the stack's provider met. */
  rateLimited(n: number): void;
}

type FetchedJob = PgBoss.JobWithMetadata<JobData>;

/**
 * Runs jobs until drained (or, with untilIdle, until no job is queued, retrying or active on any
 * worker). Returns the number of stacks this worker ran that failed for good.
 */
export async function work(opts: WorkerOptions): Promise<number> {
  const me = `${hostname()}:${process.pid}`;
  const boss = await startBoss(opts.url, opts.concurrency + 3, {
    maintenanceSeconds: Math.max(1, Math.floor(opts.leaseSeconds / 4)),
    say: opts.say,
    schedules: opts.schedules !== false,
  });
  const client = await connectPool(opts.url, 2);
  const listener = await connect(opts.url);
  let failedForGood = 0;
  const running = new Map<string, Promise<void>>();
  const stackJobs = new Set<string>();
  /** Stack jobs and side jobs still to come (queued, retrying, or active on any worker). */
  const queuedAnywhere = async () => {
    let n = await boss.getQueueSize(QUEUE, { before: "completed" });
    for (const side of opts.sideQueues ?? []) n += await boss.getQueueSize(side.queue, { before: "completed" });
    return n;
  };
  let wake = () => {};
  const woken = () =>
    new Promise<void>((resolve) => {
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
    lost.abort(
      new Error(
        `lost the connection to the database (${DATABASE_ENV}=${shownUrl(opts.url)}): ${e.message}; the ` +
          `worker stops its running stacks and exits for its supervisor to restart it once the database is ` +
          `back; their jobs return to the queue after the lease (${opts.leaseSeconds} s)`,
      ),
    );
    wake();
  };
  listener.on("error", loseDatabase);
  try {
    await ensureSchema(client);
    const connection = await client.connect();
    try {
      await ensureQueues(connection, boss, [
        { name: QUEUE, policy: "singleton" },
        ...SCHEDULE_KINDS.map((kind) => ({ name: scheduleQueue(kind), policy: "standard" as const })),
        ...(opts.sideQueues ?? []).map((side) => ({ name: side.queue, policy: "standard" as const })),
      ]);
    } finally {
      connection.release();
    }
    await listener.query(`LISTEN ${CHANNEL}`);
    listener.on("notification", () => wake());
    opts.say(`worker ${me}: up to ${opts.concurrency} stack(s) at a time, lease ${opts.leaseSeconds} s`);

    // pg-boss 10 has no lease renewal of its own: the worker moves the job's expiry forward, on
    // pg-boss's job table (the version is pinned), for as long as it holds the job.
    const renew = async (job: FetchedJob): Promise<boolean> => {
      const { rowCount } = await client.query(
        "UPDATE pgboss.job SET expire_in = (now() - started_on) + make_interval(secs => $3) WHERE name = $1 " +
          "AND id = $2 AND state = 'active'",
        [QUEUE, job.id, opts.leaseSeconds],
      );
      return rowCount === 1;
    };

    /**
     * A stack's health after a job that ended for good: failed, drifted (a drift check found a
     * difference it did not repair) or ok, and since when. A change of health is an event: a
     * stack that fails, drifts, or comes back from either. A preview changes nothing, and an
     * `up` that does not refresh leaves a drifted stack drifted.
     */
    const healthAfter = async (done: {
      runId: string;
      operation: Operation;
      customer: Customer;
      attempt: number;
      outcome: StackOutcome;
    }): Promise<void> => {
      const { outcome, customer } = done;
      const before = (
        await client.query<{ state: string }>("SELECT state FROM nsp_fleet.health WHERE stack = $1", [customer.ref])
      ).rows[0]?.state;
      let state: string | undefined;
      if ("error" in outcome) state = "failed";
      else if (done.operation === "drift")
        state = (outcome.drift?.resources.length ?? 0) > 0 && !outcome.remediation ? "drifted" : "ok";
      else if (done.operation !== "preview") state = before === "drifted" ? "drifted" : "ok";
      if (state === undefined) return;
      await client.query(
        "INSERT INTO nsp_fleet.health (stack, state, run_id) VALUES ($1, $2, $3) ON CONFLICT (stack) DO " +
          "UPDATE SET since = CASE WHEN nsp_fleet.health.state = EXCLUDED.state THEN nsp_fleet.health.since " +
          "ELSE now() END, state = EXCLUDED.state, run_id = EXCLUDED.run_id",
        [customer.ref, state, done.runId],
      );
      const common = { run: done.runId, operation: done.operation, stack: customer.ref, attempts: done.attempt };
      const found = outcome.drift && outcome.drift.resources.length > 0 ? driftSummary(outcome.drift) : undefined;
      // A drift is told when it is found, even when the same job repairs it at once: that is then told as a recovery.
      if (found) await notify({ type: "stack.drifted", ...common, drift: found });
      if ("error" in outcome) await notify({ type: "stack.failed", ...common, error: outcome.error });
      else if (state === "ok" && (before === "failed" || before === "drifted" || found)) {
        await notify({
          type: "stack.recovered",
          ...common,
          changes: outcome.remediation?.changes ?? outcome.changes,
          ...(found ? { drift: found } : {}),
        });
      }
    };

    /** The run's end, told once whichever worker records its last stack. */
    const runFinished = async (runId: string, operation: Operation): Promise<void> => {
      const ended = await client.query(
        "UPDATE nsp_fleet.runs SET finished_at = now() WHERE id = $1 AND finished_at IS NULL AND NOT EXISTS " +
          "(SELECT 1 FROM nsp_fleet.stacks WHERE run_id = $1 AND result IN ('queued', 'running', 'retrying')) " +
          "RETURNING id",
        [runId],
      );
      if (ended.rowCount !== 1) return;
      const { rows } = await client.query<{
        stacks: number;
        succeeded: number;
        failed: number;
        changed: number;
        drifted: number;
      }>(
        `SELECT count(*)::int AS stacks, count(*) FILTER (WHERE result = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE result = 'failed')::int AS failed,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_each_text(changes) AS c(op, n) WHERE op <> 'same' AND n::int > 0))::int AS changed,
           count(*) FILTER (WHERE jsonb_array_length(coalesce(drift->'resources', '[]'::jsonb)) > 0)::int AS drifted
         FROM nsp_fleet.stacks WHERE run_id = $1`,
        [runId],
      );
      const summary = rows[0]!;
      opts.say(`run ${runId} (${operation}) finished: ${summary.succeeded} succeeded, ${summary.failed} failed`);
      await notify({
        type: "run.finished",
        run: runId,
        operation,
        summary:
          operation === "drift"
            ? summary
            : {
                stacks: summary.stacks,
                succeeded: summary.succeeded,
                failed: summary.failed,
                changed: summary.changed,
              },
      });
    };

    const notify = async (event: FleetEventBody): Promise<void> => {
      if (!opts.notify) return;
      try {
        await opts.notify({ ...event, id: randomUUID(), at: new Date().toISOString() } as FleetEvent, boss);
      } catch (e) {
        opts.say(`the webhook event ${event.type} could not be queued: ${(e as Error).message}`);
      }
    };

    /**
     * A schedule's firing: a run of every known customer, unless the run of its last firing is
     * still going, in which case the firing is recorded as skipped. Under a lock per schedule, and
     * once per firing job (a firing taken again after its worker died finds its row).
     */
    const fire = async (kind: ScheduleKind, job: PgBoss.Job<ScheduleData>): Promise<void> => {
      const connection = await client.connect();
      try {
        const outcome = await inTransaction(connection, async () => {
          await connection.query("SELECT pg_advisory_xact_lock(hashtext('nsp_fleet schedule ' || $1))", [kind]);
          if ((await connection.query("SELECT 1 FROM nsp_fleet.firings WHERE job_id = $1", [job.id])).rowCount === 1)
            return "already recorded";
          const last = (
            await connection.query<{ id: string; pending: boolean }>(
              "SELECT r.id, EXISTS (SELECT 1 FROM nsp_fleet.stacks s WHERE s.run_id = r.id AND s.result IN " +
                "('queued', 'running', 'retrying')) AS pending FROM nsp_fleet.runs r WHERE r.schedule = $1 ORDER BY " +
                "r.created_at DESC LIMIT 1",
              [kind],
            )
          ).rows[0];
          if (last?.pending) {
            await connection.query("INSERT INTO nsp_fleet.firings (schedule, job_id, skipped) VALUES ($1, $2, $3)", [
              kind,
              job.id,
              `the run of its last firing, ${last.id}, is still going`,
            ]);
            return `skipped: run ${last.id} is still going`;
          }
          const known = await knownCustomers(connection);
          if (known.length === 0) {
            await connection.query("INSERT INTO nsp_fleet.firings (schedule, job_id, skipped) VALUES ($1, $2, $3)", [
              kind,
              job.id,
              "no customer: the fleet has brought none up",
            ]);
            return "skipped: no customer";
          }
          const { runId, stacks } = await insertRun(
            connection,
            boss,
            {
              operation: kind,
              customers: known,
              remediate: job.data.remediate,
              retries: job.data.retries,
              retryDelaySeconds: job.data.retryDelaySeconds,
            },
            kind,
          );
          await connection.query("INSERT INTO nsp_fleet.firings (schedule, job_id, run_id) VALUES ($1, $2, $3)", [
            kind,
            job.id,
            runId,
          ]);
          return `run ${runId} of ${stacks} stack(s)`;
        });
        await boss.complete(scheduleQueue(kind), job.id);
        opts.say(`schedule ${kind} fired: ${outcome}`);
      } finally {
        connection.release();
      }
    };
    const sideQueues = [
      ...SCHEDULE_KINDS.map((kind) => ({
        queue: scheduleQueue(kind),
        handle: (job: PgBoss.Job<unknown>) => fire(kind, job as PgBoss.Job<ScheduleData>),
      })),
      ...(opts.sideQueues ?? []).map((side) => ({
        queue: side.queue,
        handle: (job: PgBoss.Job<unknown>) => side.handle(job, boss),
      })),
    ];
    /** Side jobs (firings, webhook deliveries) take no stack slot; a drain waits for them too. */
    const takeSideJobs = async () => {
      for (const side of sideQueues) {
        for (const job of await boss.fetch<unknown>(side.queue, { batchSize: 4, includeMetadata: true })) {
          const done = side
            .handle(job)
            .catch(async (e) => {
              opts.say(`${side.queue}: ${(e as Error).message}`);
              await boss.fail(side.queue, job.id, { error: (e as Error).message }).catch(() => {});
            })
            .finally(() => running.delete(job.id));
          running.set(job.id, done);
        }
      }
    };

    const handle = async (job: FetchedJob): Promise<void> => {
      const { customer, operation, runId } = job.data;
      const startedAt = Date.now();
      const attempt = job.retryCount + 1;
      await renew(job);
      const lease = setInterval(
        () => {
          renew(job).then(
            (held) =>
              held ||
              opts.say(
                `${customer.ref}: lost the lease of its job (the database did not hear from this worker in time)`,
              ),
            (e) => opts.say(`${customer.ref}: could not renew the lease: ${(e as Error).message}`),
          );
        },
        (opts.leaseSeconds * 1000) / 3,
      );
      try {
        await client.query(
          "UPDATE nsp_fleet.stacks SET result = 'running', worker = $3, attempts = $4, started_at = now(), " +
            "finished_at = NULL WHERE run_id = $1 AND stack = $2",
          [runId, customer.ref, me, attempt],
        );
        opts.say(`${customer.ref}: ${operation}, attempt ${attempt} (run ${runId})`);
        const seen = await client.query(
          "SELECT 1 FROM nsp_fleet.stacks WHERE stack = $1 AND result = 'succeeded' LIMIT 1",
          [customer.ref],
        );
        const partner = !customer.tokenEnv && opts.partnerToken ? await opts.partnerToken.status() : { env: {} };
        const outcome: StackOutcome =
          "refused" in partner
            ? { output: `${partner.refused}\n`, error: partner.refused }
            : await runStack({
                customer,
                operation,
                projectDir: opts.projectDir,
                recover: job.retryCount > 0,
                seenBefore: seen.rowCount === 1,
                interrupt: lost.signal,
                remediate: job.data.remediate === true,
                env: partner.env,
              });
        // Nothing can be recorded: the job comes back after its lease, and the next attempt recovers the stack.
        if (lost.signal.aborted) return;
        const secrets = opts.secretsOf(customer);
        const runDir = join(opts.logDir, runId);
        mkdirSync(runDir, { recursive: true });
        // One file per stack and run, each attempt on this worker appended.
        appendFileSync(
          join(runDir, `${customer.ref}.log`),
          `# attempt ${attempt} on ${me}\n${scrub(outcome.output, secrets)}\n`,
        );
        // What the engine reported holds no secret value (it masks them), nor should it hold a token that leaked into a message.
        const recorded = (value: unknown) =>
          value === undefined ? null : JSON.parse(scrub(JSON.stringify(value), secrets));
        const durationSeconds = (Date.now() - startedAt) / 1000;
        if ("changes" in outcome) {
          await client.query(
            "UPDATE nsp_fleet.stacks SET result = 'succeeded', changes = $3, plan = $4, drift = $5, remediation = " +
              "$6, requests = $7, rate_limited = $8, error = NULL, finished_at = now() WHERE run_id = $1 AND stack " +
              "= $2",
            [
              runId,
              customer.ref,
              outcome.changes,
              recorded(outcome.plan),
              recorded(outcome.drift),
              recorded(outcome.remediation),
              outcome.requests?.requests ?? null,
              outcome.requests?.rateLimited ?? null,
            ],
          );
          if (operation === "destroy")
            await client.query("DELETE FROM nsp_fleet.customers WHERE ref = $1", [customer.ref]);
          await boss.complete(QUEUE, job.id, { changes: outcome.changes });
          opts.say(`${customer.ref}: succeeded, ${describeOutcome(operation, outcome)}`);
          opts.observer?.jobFinished(operation, "succeeded", durationSeconds);
          await healthAfter({ runId, operation, customer, attempt, outcome });
        } else {
          const error = scrub(outcome.error, secrets);
          const last = job.retryCount >= job.retryLimit;
          if (last) failedForGood++;
          await client.query(
            "UPDATE nsp_fleet.stacks SET result = $3, error = $4, drift = $5, requests = $6, rate_limited = $7, " +
              "finished_at = now() WHERE run_id = $1 AND stack = $2",
            [
              runId,
              customer.ref,
              last ? "failed" : "retrying",
              error,
              recorded(outcome.drift),
              outcome.requests?.requests ?? null,
              outcome.requests?.rateLimited ?? null,
            ],
          );
          await boss.fail(QUEUE, job.id, { error });
          opts.say(`${customer.ref}: failed (attempt ${attempt} of ${job.retryLimit + 1}): ${error}`);
          opts.observer?.jobFinished(operation, last ? "failed" : "retrying", durationSeconds);
          if (last) await healthAfter({ runId, operation, customer, attempt, outcome: { ...outcome, error } });
        }
        if (outcome.requests) opts.observer?.rateLimited(outcome.requests.rateLimited);
        await runFinished(runId, operation);
      } finally {
        clearInterval(lease);
      }
    };

    try {
      while (!opts.drain.aborted && !lost.signal.aborted) {
        await takeSideJobs();
        const free = opts.concurrency - [...running.keys()].filter((id) => stackJobs.has(id)).length;
        if (free > 0) {
          const jobs = await boss.fetch<JobData>(QUEUE, { batchSize: free, includeMetadata: true });
          for (const job of jobs) {
            const done = handle(job)
              .catch((e) => opts.say(`${job.data.customer.ref}: ${(e as Error).message}`))
              .finally(() => {
                running.delete(job.id);
                stackJobs.delete(job.id);
                wake();
              });
            running.set(job.id, done);
            stackJobs.add(job.id);
          }
          if (jobs.length > 0) continue;
          // Queued, retrying (waiting out its backoff) or active anywhere: a job still to come.
          if (opts.untilIdle && running.size === 0 && (await queuedAnywhere()) === 0) break;
        }
        await woken();
      }
    } catch (e) {
      // A query of the loop failed as the connection went: the same end as the listener's.
      loseDatabase(e as Error);
      if (!lost.signal.aborted) throw e;
    }
    if (opts.drain.aborted && running.size > 0)
      opts.say(`draining: ${running.size} running stack(s) finish, no new job is taken`);
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

export type StackStatus = Omit<StackReport, "result"> & {
  result: StackReport["result"] | "queued" | "running" | "retrying";
  attempts: number;
  worker?: string;
  /** A preview's plan: each resource it would change. */
  plan?: Plan;
  /** A drift check's finding. */
  drift?: Drift;
  /** What a drift check's remediation changed. */
  remediation?: Plan;
  /** The stack's health now, whichever run set it: ok, failed or drifted, and since when. */
  health?: { state: string; since: string };
  /** The API requests its commands made, and the 429s among them. */
  requests?: { requests: number; rateLimited: number };
};

export interface RunStatus {
  run: string;
  operation: Operation;
  remediate: boolean;
  /** The schedule whose firing made the run, if one did. */
  schedule?: string;
  createdAt: string;
  finishedAt?: string;
  succeeded: number;
  failed: number;
  /** Queued, running or waiting for a retry. */
  pending: number;
  /** A preview's stacks that would change; a drift check's stacks that drifted. */
  changed: number;
  stacks: StackStatus[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface StackRow {
  stack: string;
  result: StackStatus["result"];
  changes: Record<string, number>;
  attempts: number;
  worker: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
  plan: Plan | null;
  drift: Drift | null;
  remediation: Plan | null;
  health: string | null;
  health_since: Date | null;
  requests: number | null;
  rate_limited: number | null;
}

function stackStatus(r: StackRow): StackStatus {
  return {
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
    ...(r.plan ? { plan: r.plan } : {}),
    ...(r.drift ? { drift: r.drift } : {}),
    ...(r.remediation ? { remediation: r.remediation } : {}),
    ...(r.health && r.health_since ? { health: { state: r.health, since: r.health_since.toISOString() } } : {}),
    ...(r.requests !== null ? { requests: { requests: r.requests, rateLimited: r.rate_limited ?? 0 } } : {}),
  };
}

const STACK_COLUMNS =
  "s.stack, s.result, s.changes, s.attempts, s.worker, s.started_at, s.finished_at, s.error, s.plan, " +
  "s.drift, s.remediation, s.requests, s.rate_limited, h.state AS health, h.since AS health_since";

/** Whether a stack of a run changes (a preview) or drifted (a drift check). */
export function stackChanged(operation: Operation, s: Pick<StackStatus, "changes" | "drift">): boolean {
  return operation === "drift" ? (s.drift?.resources.length ?? 0) > 0 : changedCount(s.changes) > 0;
}

/** The database, for a command that only reads; made current first if an earlier release made it. */
async function reading(url: string): Promise<Client> {
  const client = await connect(url);
  try {
    await requireSchema(client, url);
    await ensureSchema(client);
  } catch (e) {
    await client.end();
    throw e;
  }
  return client;
}

/** The rows of one run (the latest without `runId`), as every worker left them in the database. */
export async function status(url: string, runId: string | undefined): Promise<RunStatus> {
  if (runId !== undefined && !UUID.test(runId))
    throw new InputError(`--run: "${runId}" is not a run id (a UUID, as \`nsp-fleet enqueue\` prints it)`);
  const client = await reading(url);
  try {
    const runs = await client.query<{
      id: string;
      operation: Operation;
      remediate: boolean;
      schedule: string | null;
      created_at: Date;
      finished_at: Date | null;
    }>(
      `SELECT id, operation, remediate, schedule, created_at, finished_at FROM nsp_fleet.runs ${runId === undefined ? "ORDER BY created_at DESC LIMIT 1" : "WHERE id = $1"}`,
      runId === undefined ? [] : [runId],
    );
    const run = runs.rows[0];
    if (!run)
      throw new InputError(
        runId === undefined
          ? `no run in the database (${DATABASE_ENV}=${shownUrl(url)}): enqueue one first`
          : `--run: no run ${runId} in the database (${DATABASE_ENV}=${shownUrl(url)}); \`nsp-fleet status\` shows the latest`,
      );
    const { rows } = await client.query<StackRow>(
      `SELECT ${STACK_COLUMNS} FROM nsp_fleet.stacks s LEFT JOIN nsp_fleet.health h ON h.stack = s.stack WHERE s.run_id = $1 ORDER BY s.position`,
      [run.id],
    );
    const stacks = rows.map(stackStatus);
    const count = (result: string) => stacks.filter((s) => s.result === result).length;
    return {
      run: run.id,
      operation: run.operation,
      remediate: run.remediate,
      ...(run.schedule ? { schedule: run.schedule } : {}),
      createdAt: run.created_at.toISOString(),
      ...(run.finished_at ? { finishedAt: run.finished_at.toISOString() } : {}),
      succeeded: count("succeeded"),
      failed: count("failed"),
      pending: stacks.length - count("succeeded") - count("failed"),
      changed: stacks.filter((s) => s.result === "succeeded" && stackChanged(run.operation, s)).length,
      stacks,
    };
  } finally {
    await client.end();
  }
}

/** The stacks drifted now (their last drift check found a difference, and nothing repaired it since), with that check's finding. */
export async function driftedStacks(url: string): Promise<StackStatus[]> {
  const client = await reading(url);
  try {
    // The health row names the stack's last job, which may be an `up` since (one that does not
    // refresh leaves a stack drifted): the finding shown is that of its latest drift check.
    const { rows } = await client.query<StackRow>(
      `SELECT ${STACK_COLUMNS} FROM nsp_fleet.health h
       JOIN LATERAL (SELECT * FROM nsp_fleet.stacks d WHERE d.stack = h.stack AND d.drift IS NOT NULL ORDER BY d.finished_at DESC NULLS LAST LIMIT 1) s ON true
       WHERE h.state = 'drifted' ORDER BY h.stack`,
    );
    return rows.map(stackStatus);
  } finally {
    await client.end();
  }
}
