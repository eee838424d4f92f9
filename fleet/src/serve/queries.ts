// What the fleet's page reads from the fleet's database, and nothing else: every statement is a
// SELECT on connections whose transactions are read-only by default, so a mistake here can not
// write to the fleet's record (the server refuses it). Each page is one statement, so what it
// shows is one snapshot of the database, never half of a worker's update.
import { createHash } from "node:crypto";
import { Pool } from "pg";
import { connectionError, DATABASE_ENV, shownUrl } from "../database";
import { InputError } from "../customers";
import type { Drift, Plan } from "../engine-events";

/** A stack's (a customer's) reference, as customers.ts accepts it: also safe as a file name. */
export const REF = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const FILTERS = ["all", "failed", "drifted", "running"] as const;
export type Filter = (typeof FILTERS)[number];
export const SORTS = [
  "attention",
  "stack",
  "result",
  "operation",
  "when",
  "duration",
  "attempts",
  "changes",
  "drift",
] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZES = [25, 50, 100, 200] as const;

export interface OverviewQuery {
  filter: Filter;
  q: string;
  sort: Sort;
  dir: "asc" | "desc";
  page: number;
  per: number;
}

export interface Counts {
  stacks: number;
  ok: number;
  failed: number;
  drifted: number;
  running: number;
}

/** One customer's row: its stack's row in the latest run that holds it, with its health. */
export interface OverviewRow {
  stack: string;
  zone: string | null;
  run: string;
  operation: string;
  result: string;
  changes: Record<string, number>;
  changed: number;
  attempts: number;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationSeconds: number | null;
  health: string | null;
  healthSince: string | null;
  /** The resources the drift check behind a drifted health found different. */
  driftedResources: number | null;
  hasError: boolean;
}

export interface RunSummary {
  id: string;
  operation: string;
  remediate: boolean;
  schedule: string | null;
  createdAt: string;
  finishedAt: string | null;
  stacks: number;
  succeeded: number;
  failed: number;
  pending: number;
}

export interface Overview {
  counts: Counts;
  /** Stacks that match the filter and the search, over every page. */
  matching: number;
  rows: OverviewRow[];
  /** The latest runs, newest first, with how far each has got. */
  runs: RunSummary[];
}

export interface StackRun {
  run: string;
  operation: string;
  remediate: boolean;
  schedule: string | null;
  createdAt: string;
  result: string;
  changes: Record<string, number>;
  attempts: number;
  worker: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationSeconds: number | null;
  error: string | null;
  plan: Plan | null;
  drift: Drift | null;
  remediation: Plan | null;
  requests: number | null;
  rateLimited: number | null;
}

export interface CustomerPage {
  stack: string;
  zone: string | null;
  /** Whether the fleet still has the customer (a destroy that succeeded removes it). */
  current: boolean;
  health: { state: string; since: string; run: string | null } | null;
  /** Every run of the stack, newest first (the latest RUNS_SHOWN). */
  runs: StackRun[];
  /** How many runs the stack has been in, all told. */
  runCount: number;
  /** The latest drift check's finding (with its run), whatever it found. */
  drift: { run: string; at: string; drift: Drift; remediation: Plan | null } | null;
  /** The latest error any run of the stack recorded, in full. */
  lastError: { run: string; at: string | null; error: string; operation: string } | null;
}

export interface ChartData {
  /** Stack results per hour over the last 48 hours of activity, or since the first run (UTC hour starts). */
  perHour: { hours: string[]; results: Record<string, number[]> };
  /** How long the latest stacks took: counts per bucket of seconds [from, to). */
  durations: { buckets: Bucket[]; stacks: number };
  /** The latest runs' API requests and 429s, oldest first. */
  requests: { runs: { id: string; at: string; operation: string; requests: number; rateLimited: number }[] };
  /** The drift checks' findings, oldest first: stacks checked and found drifted. */
  drifted: { runs: { id: string; at: string; checked: number; drifted: number }[] };
}

export const RUNS_SHOWN = 50;
const RESULTS = ["succeeded", "failed", "retrying", "running", "queued"];

/** The columns this page reads beyond the first release's tables, by table. */
const NEEDED: Record<string, string[]> = {
  runs: ["id", "operation", "created_at", "remediate", "schedule", "finished_at"],
  stacks: [
    "run_id",
    "stack",
    "result",
    "changes",
    "attempts",
    "worker",
    "enqueued_at",
    "started_at",
    "finished_at",
    "error",
    "plan",
    "drift",
    "remediation",
    "requests",
    "rate_limited",
  ],
  customers: ["ref", "customer"],
  health: ["stack", "state", "since", "run_id"],
};

/** The filter as SQL over the `latest` rows. */
const FILTER_SQL: Record<Filter, string> = {
  all: "true",
  // Failed now: its last run failed, or it has not come back from a failure since (a preview leaves health as it was).
  failed: "(l.result = 'failed' OR l.health = 'failed')",
  drifted: "l.health = 'drifted'",
  running: "l.result IN ('queued', 'running', 'retrying')",
};

/** Each sort as SQL; the stack's name breaks ties, so a page's rows never move between pages. */
const SORT_SQL: Record<Sort, string> = {
  // What needs a look first: failed, drifted, then going, then the rest.
  attention:
    "CASE WHEN l.result = 'failed' OR l.health = 'failed' THEN 0 WHEN l.health = 'drifted' THEN 1 WHEN " +
    "l.result IN ('running', 'retrying', 'queued') THEN 2 ELSE 3 END",
  stack: "l.stack",
  result: "l.result",
  operation: "l.operation",
  when: "coalesce(l.finished_at, l.started_at, l.enqueued_at)",
  duration: "l.duration_seconds",
  attempts: "l.attempts",
  changes: "l.changed",
  drift: "coalesce(l.drifted_resources, 0)",
};

/** The LIKE pattern of a search: the words as typed, wildcards in them taken literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The latest row of every stack, with its health and the customer's zone. The stacks' names come
 * from the index on stacks(stack) by a skip scan (one index probe per stack), and each stack's
 * latest row from the index on stacks(stack, enqueued_at DESC) (one probe): the cost grows with
 * the number of stacks, not with the history. (Without that index, each stack's rows are all read.)
 */
const LATEST = `
WITH RECURSIVE names(stack) AS (
  (SELECT stack FROM nsp_fleet.stacks ORDER BY stack LIMIT 1)
  UNION ALL
  SELECT (SELECT s.stack FROM nsp_fleet.stacks s WHERE s.stack > n.stack ORDER BY s.stack LIMIT 1) FROM names n WHERE n.stack IS NOT NULL
),
latest AS MATERIALIZED (
  SELECT x.*, r.operation, h.state AS health, h.since AS health_since, c.customer->>'zone' AS zone,
    CASE WHEN h.state = 'drifted' THEN jsonb_array_length(coalesce(d.drift->'resources', '[]'::jsonb)) END AS drifted_resources,
    (SELECT coalesce(sum(v.n::numeric), 0)::int FROM jsonb_each_text(x.changes) AS v(op, n) WHERE v.op <> 'same' AND v.n ~ '^[0-9]+$') AS changed,
    extract(epoch FROM (coalesce(x.finished_at, CASE WHEN x.result IN ('running', 'retrying') THEN now() END) - x.started_at))::float8 AS duration_seconds
  FROM names n
  -- A run's rows are enqueued in the transaction that makes the run: enqueued_at is the run's time.
  CROSS JOIN LATERAL (
    SELECT s.stack, s.run_id, s.result, s.changes, s.attempts, s.enqueued_at, s.started_at, s.finished_at, s.error IS NOT NULL AS has_error
    FROM nsp_fleet.stacks s WHERE s.stack = n.stack ORDER BY s.enqueued_at DESC LIMIT 1
  ) x
  JOIN nsp_fleet.runs r ON r.id = x.run_id
  LEFT JOIN nsp_fleet.health h ON h.stack = x.stack
  -- What the drift check that found a drifted stack found: its latest drift, for health.run_id
  -- names the stack's last job, which may be an up that left it drifted.
  LEFT JOIN LATERAL (
    SELECT d.drift FROM nsp_fleet.stacks d WHERE h.state = 'drifted' AND d.stack = x.stack AND d.drift IS NOT NULL ORDER BY d.enqueued_at DESC LIMIT 1
  ) d ON true
  LEFT JOIN nsp_fleet.customers c ON c.ref = x.stack
  WHERE n.stack IS NOT NULL
)`;

/** timestamptz as ISO 8601 in UTC, as every time the page renders is given (the browser shows it in the viewer's zone). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A run and how far it has got, its rows read once (by the primary key's run_id). */
const RUN_SUMMARY = `(SELECT json_build_object('id', r.id, 'operation', r.operation, 'remediate', r.remediate, 'schedule', r.schedule, 'createdAt', ${iso("r.created_at")}, 'finishedAt', ${iso("r.finished_at")},
  'stacks', count(*), 'succeeded', count(*) FILTER (WHERE s.result = 'succeeded'), 'failed', count(*) FILTER (WHERE s.result = 'failed'),
  'pending', count(*) FILTER (WHERE s.result IN ('queued', 'running', 'retrying'))) FROM nsp_fleet.stacks s WHERE s.run_id = r.id)`;

export interface FleetReaderOptions {
  url: string;
  /** Connections at most; the page's statements are short. */
  max?: number;
}

/** The fleet's database, read-only. */
export class FleetReader {
  private constructor(readonly pool: Pool) {}

  /** Connects (checking the URL at once), and checks that the database holds the fleet's tables as this release reads them. */
  static async open(opts: FleetReaderOptions): Promise<FleetReader> {
    const pool = new Pool({
      connectionString: opts.url,
      max: opts.max ?? 4,
      connectionTimeoutMillis: 10_000,
      application_name: "nsp-fleet serve",
    });
    pool.on("error", () => {});
    // Every transaction on these connections is read-only unless it says otherwise, and none
    // does: PostgreSQL refuses any write, whatever a query here would do. A statement that takes
    // more than 10 s is cut, so a page never holds a connection for long. Set by a statement (not
    // a startup option, which a connection pooler such as PgBouncer may refuse), the first on each
    // new connection: node-postgres runs a connection's queries in order.
    pool.on("connect", (client) => {
      client.query("SET default_transaction_read_only = on; SET statement_timeout = 10000").catch(() => {});
    });
    try {
      (await pool.connect()).release();
    } catch (e) {
      await pool.end().catch(() => {});
      throw connectionError(e, opts.url);
    }
    const reader = new FleetReader(pool);
    try {
      await reader.checkSchema(opts.url);
    } catch (e) {
      await pool.end().catch(() => {});
      throw e;
    }
    return reader;
  }

  /**
   * The page never makes nor alters the fleet's tables (it writes nothing): a database without
   * them, or one an earlier release made, is told as what to do.
   */
  private async checkSchema(url: string): Promise<void> {
    const guard = await this.pool.query<{ default_transaction_read_only: string }>(
      "SHOW default_transaction_read_only",
    );
    if (guard.rows[0]?.default_transaction_read_only !== "on")
      throw new Error(
        "the page's database connections could not be made read-only (SET default_transaction_read_only = " +
          "on); it serves nothing without that",
      );
    const { rows } = await this.pool.query<{ table_name: string; column_name: string }>(
      "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = 'nsp_fleet'",
    );
    const where = `${DATABASE_ENV}=${shownUrl(url)}`;
    if (!rows.some((r) => r.table_name === "stacks")) {
      throw new InputError(
        `the database holds no fleet tables (nsp_fleet.stacks) (${where}): nothing was enqueued there; run ` +
          `\`nsp-fleet enqueue\` against it first, or correct the URL`,
      );
    }
    const missing = Object.entries(NEEDED).flatMap(([table, columns]) =>
      columns
        .filter((c) => !rows.some((r) => r.table_name === table && r.column_name === c))
        .map((c) => `nsp_fleet.${table}.${c}`),
    );
    if (missing.length > 0) {
      throw new InputError(
        `the fleet's tables are those of an earlier release (no ${missing.join(", ")}) (${where}): ` +
          `\`nsp-fleet status\` brings them up to date; run it once, then start the page again (the page ` +
          `itself writes nothing)`,
      );
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** The overview's one page: counts, the matching rows of the page asked for, the latest runs. One statement. */
  async overview(query: OverviewQuery): Promise<Overview> {
    const where = `${FILTER_SQL[query.filter]}${query.q ? " AND (l.stack ILIKE $1 OR l.zone ILIKE $1)" : ""}`;
    const order = `${SORT_SQL[query.sort]} ${query.dir === "desc" ? "DESC NULLS LAST" : "ASC NULLS LAST"}, l.stack`;
    const params: unknown[] = query.q ? [likePattern(query.q)] : [];
    params.push(query.per, (query.page - 1) * query.per);
    const limit = `$${params.length - 1}`;
    const offset = `$${params.length}`;
    const sql = `${LATEST}
SELECT
  (SELECT json_build_object('stacks', count(*),
     'ok', count(*) FILTER (WHERE coalesce(l.health, 'ok') = 'ok' AND l.result = 'succeeded'),
     'failed', count(*) FILTER (WHERE ${FILTER_SQL.failed}),
     'drifted', count(*) FILTER (WHERE ${FILTER_SQL.drifted}),
     'running', count(*) FILTER (WHERE ${FILTER_SQL.running})) FROM latest l) AS counts,
  (SELECT count(*)::int FROM latest l WHERE ${where}) AS matching,
  (SELECT coalesce(json_agg(json_build_object(
      'stack', p.stack, 'zone', p.zone, 'run', p.run_id, 'operation', p.operation, 'result', p.result, 'changes', p.changes, 'changed', p.changed,
      'attempts', p.attempts, 'enqueuedAt', ${iso("p.enqueued_at")}, 'startedAt', ${iso("p.started_at")}, 'finishedAt', ${iso("p.finished_at")},
      'durationSeconds', p.duration_seconds, 'health', p.health, 'healthSince', ${iso("p.health_since")}, 'driftedResources', p.drifted_resources, 'hasError', p.has_error
    ) ORDER BY p.ord), '[]'::json)
   FROM (SELECT l.*, row_number() OVER (ORDER BY ${order}) AS ord FROM latest l WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) p) AS rows,
  (SELECT coalesce(json_agg(${RUN_SUMMARY} ORDER BY r.created_at DESC), '[]'::json)
   FROM (SELECT * FROM nsp_fleet.runs ORDER BY created_at DESC LIMIT 5) r) AS runs`;
    const { rows } = await this.pool.query<{
      counts: Counts;
      matching: number;
      rows: OverviewRow[];
      runs: RunSummary[];
    }>(sql, params);
    const row = rows[0]!;
    return { counts: row.counts, matching: row.matching, rows: row.rows, runs: row.runs };
  }

  /** A customer's page, or undefined for a stack no run ever held. One statement. */
  async customer(stack: string): Promise<CustomerPage | undefined> {
    const stackRun = (
      s: string,
      r: string,
    ) => `json_build_object('run', ${s}.run_id, 'operation', ${r}.operation, 'remediate', ${r}.remediate, 'schedule', ${r}.schedule, 'createdAt', ${iso(`${r}.created_at`)},
      'result', ${s}.result, 'changes', ${s}.changes, 'attempts', ${s}.attempts, 'worker', ${s}.worker, 'startedAt', ${iso(`${s}.started_at`)}, 'finishedAt', ${iso(`${s}.finished_at`)},
      'durationSeconds', extract(epoch FROM (coalesce(${s}.finished_at, CASE WHEN ${s}.result IN ('running', 'retrying') THEN now() END) - ${s}.started_at))::float8,
      'error', ${s}.error, 'plan', ${s}.plan, 'drift', ${s}.drift, 'remediation', ${s}.remediation, 'requests', ${s}.requests, 'rateLimited', ${s}.rate_limited)`;
    const sql = `SELECT
  (SELECT count(*)::int FROM nsp_fleet.stacks WHERE stack = $1) AS run_count,
  (SELECT coalesce(json_agg(${stackRun("s", "r")} ORDER BY s.enqueued_at DESC, r.created_at DESC), '[]'::json)
     FROM (SELECT * FROM nsp_fleet.stacks WHERE stack = $1 ORDER BY enqueued_at DESC LIMIT ${RUNS_SHOWN}) s JOIN nsp_fleet.runs r ON r.id = s.run_id) AS runs,
  (SELECT json_build_object('state', state, 'since', ${iso("since")}, 'run', run_id) FROM nsp_fleet.health WHERE stack = $1) AS health,
  (SELECT customer->>'zone' FROM nsp_fleet.customers WHERE ref = $1) AS zone,
  EXISTS (SELECT 1 FROM nsp_fleet.customers WHERE ref = $1) AS current,
  (SELECT json_build_object('run', s.run_id, 'at', ${iso("coalesce(s.finished_at, s.enqueued_at)")}, 'drift', s.drift, 'remediation', s.remediation)
     FROM nsp_fleet.stacks s WHERE s.stack = $1 AND s.drift IS NOT NULL ORDER BY s.enqueued_at DESC LIMIT 1) AS drift,
  (SELECT json_build_object('run', s.run_id, 'at', ${iso("s.finished_at")}, 'error', s.error, 'operation', r.operation)
     FROM nsp_fleet.stacks s JOIN nsp_fleet.runs r ON r.id = s.run_id WHERE s.stack = $1 AND s.error IS NOT NULL ORDER BY s.enqueued_at DESC LIMIT 1) AS last_error`;
    const { rows } = await this.pool.query<{
      run_count: number;
      runs: StackRun[];
      health: CustomerPage["health"];
      zone: string | null;
      current: boolean;
      drift: CustomerPage["drift"];
      last_error: CustomerPage["lastError"];
    }>(sql, [stack]);
    const row = rows[0]!;
    if (row.run_count === 0) return undefined;
    return {
      stack,
      zone: row.zone,
      current: row.current,
      health: row.health,
      runs: row.runs,
      runCount: row.run_count,
      drift: row.drift,
      lastError: row.last_error,
    };
  }

  /** The charts' data, one statement. */
  async charts(): Promise<ChartData> {
    const sql = `
WITH edge AS (SELECT date_trunc('hour', coalesce(max(created_at), now())) AS t, date_trunc('hour', coalesce(min(created_at), now())) AS first FROM nsp_fleet.runs),
-- The last 48 hours of activity, from the first run when the fleet is younger.
hours AS (SELECT generate_series(greatest((SELECT t FROM edge) - interval '47 hours', (SELECT first FROM edge)), (SELECT t FROM edge), interval '1 hour') AS hour),
per_hour AS (
  SELECT date_trunc('hour', coalesce(s.finished_at, s.started_at, s.enqueued_at)) AS hour, s.result, count(*)::int AS n
  FROM nsp_fleet.stacks s
  WHERE coalesce(s.finished_at, s.started_at, s.enqueued_at) >= (SELECT t FROM edge) - interval '47 hours'
  GROUP BY 1, 2
)
SELECT
  (SELECT json_agg(${iso("hour")} ORDER BY hour) FROM hours) AS hours,
  (SELECT coalesce(json_agg(json_build_object('hour', ${iso("hour")}, 'result', result, 'n', n)), '[]'::json) FROM per_hour) AS per_hour,
  (SELECT coalesce(json_agg(d), '[]'::json) FROM (
     SELECT extract(epoch FROM (finished_at - started_at))::float8 AS d FROM nsp_fleet.stacks
     WHERE finished_at IS NOT NULL AND started_at IS NOT NULL ORDER BY finished_at DESC LIMIT 2000) x) AS durations,
  (SELECT coalesce(json_agg(json_build_object('id', id, 'at', ${iso("created_at")}, 'operation', operation, 'requests', requests, 'rateLimited', rate_limited) ORDER BY created_at), '[]'::json) FROM (
     SELECT r.id, r.created_at, r.operation, sum(s.requests)::int AS requests, coalesce(sum(s.rate_limited), 0)::int AS rate_limited
     FROM (SELECT * FROM nsp_fleet.runs ORDER BY created_at DESC LIMIT 30) r JOIN nsp_fleet.stacks s ON s.run_id = r.id
     GROUP BY r.id, r.created_at, r.operation HAVING count(s.requests) > 0) x) AS requests,
  (SELECT coalesce(json_agg(json_build_object('id', id, 'at', ${iso("created_at")}, 'checked', checked, 'drifted', drifted) ORDER BY created_at), '[]'::json) FROM (
     SELECT r.id, r.created_at, count(s.drift)::int AS checked,
       count(*) FILTER (WHERE jsonb_array_length(coalesce(s.drift->'resources', '[]'::jsonb)) > 0)::int AS drifted
     FROM (SELECT * FROM nsp_fleet.runs WHERE operation = 'drift' ORDER BY created_at DESC LIMIT 60) r JOIN nsp_fleet.stacks s ON s.run_id = r.id
     GROUP BY r.id, r.created_at) x) AS drifted`;
    const { rows } = await this.pool.query<{
      hours: string[];
      per_hour: { hour: string; result: string; n: number }[];
      durations: number[];
      requests: ChartData["requests"]["runs"];
      drifted: ChartData["drifted"]["runs"];
    }>(sql);
    const row = rows[0]!;
    const index = new Map(row.hours.map((h, i) => [h, i]));
    const results: Record<string, number[]> = {};
    for (const result of [...RESULTS, ...new Set(row.per_hour.map((p) => p.result))]) {
      if (results[result] || !row.per_hour.some((p) => p.result === result)) continue;
      results[result] = row.hours.map(() => 0);
    }
    for (const p of row.per_hour) {
      const i = index.get(p.hour);
      if (i !== undefined) results[p.result]![i] = p.n;
    }
    return {
      perHour: { hours: row.hours, results },
      durations: { buckets: histogram(row.durations), stacks: row.durations.length },
      requests: { runs: row.requests },
      drifted: { runs: row.drifted },
    };
  }

  /**
   * What changes whenever anything the pages show changes: the runs, and the rows of the runs
   * still going (a finished run's rows no longer change). Cheap: the runs table, and the stacks of
   * unfinished runs by their primary key.
   */
  async version(): Promise<{ version: string; running: number }> {
    const { rows } = await this.pool.query<{ v: string; running: number }>(`SELECT concat_ws('/',
      (SELECT count(*) FROM nsp_fleet.runs), (SELECT max(created_at) FROM nsp_fleet.runs), (SELECT max(finished_at) FROM nsp_fleet.runs),
      (SELECT string_agg(concat_ws(':', s.run_id, s.result, s.attempts, s.started_at, s.finished_at), ',' ORDER BY s.run_id, s.stack)
         FROM nsp_fleet.runs r JOIN nsp_fleet.stacks s ON s.run_id = r.id WHERE r.finished_at IS NULL),
      (SELECT max(since) FROM nsp_fleet.health)) AS v,
      (SELECT count(*)::int FROM nsp_fleet.runs r JOIN nsp_fleet.stacks s ON s.run_id = r.id WHERE r.finished_at IS NULL AND s.result IN ('queued', 'running', 'retrying')) AS running`);
    return { version: createHash("sha256").update(rows[0]!.v).digest("hex").slice(0, 16), running: rows[0]!.running };
  }
}

/** Bucket edges in seconds, in steps people read: 1, 2, 5, 10, 15, 20, 30 s, then minutes. */
const EDGES = [0, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600];

/** Seconds [from, to); the last bucket has no end (null). */
export interface Bucket {
  from: number;
  to: number | null;
  count: number;
}

/** The durations as counts per bucket, from the first bucket any falls in to the last. */
export function histogram(durations: number[]): Bucket[] {
  if (durations.length === 0) return [];
  const buckets = EDGES.map((from, i) => ({ from, to: EDGES[i + 1] ?? Infinity, count: 0 }));
  for (const d of durations) {
    const b = buckets.find((x) => d >= x.from && d < x.to) ?? buckets[0]!;
    b.count++;
  }
  const first = buckets.findIndex((b) => b.count > 0);
  const last = buckets.length - 1 - [...buckets].reverse().findIndex((b) => b.count > 0);
  // JSON has no Infinity: the last bucket's end is null.
  return buckets.slice(first, last + 1).map((b) => ({ ...b, to: Number.isFinite(b.to) ? b.to : null }));
}
