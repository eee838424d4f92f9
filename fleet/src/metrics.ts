// A worker's Prometheus metrics (`worker --metrics-port N`), with prom-client: what this worker
// ran (counters and a histogram, since it started), and what the queue holds, read from the
// database when Prometheus scrapes (gauges), so that every worker reports the same queue.
import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { InputError } from "./customers";
import { QUEUE } from "./queue";

export interface FleetSnapshot {
  /** Jobs queued or waiting for a retry. */
  queueDepth: number;
  /** Stacks whose latest drift check found drift. */
  driftedStacks: number;
  /** The latest run: its stacks counted by result (succeeded, failed, queued, running, ...). */
  latestRun?: { id: string; results: Record<string, number> };
}

/**
 * A stack takes from about a second (nothing to change) to many minutes (a first up of a large
 * customer); the buckets cover 1 s to 30 min, closer together where most stacks fall.
 */
const DURATION_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1200, 1800];

export class FleetMetrics {
  /** Its own registry, not prom-client's global one: nothing else in the process adds to it. */
  readonly registry = new Registry();
  readonly #jobs: Counter<"operation" | "result">;
  readonly #durations: Histogram<"operation">;
  readonly #rateLimited: Counter;
  readonly #queueDepth: Gauge;
  readonly #drifted: Gauge;
  readonly #stacks: Gauge<"run" | "result">;
  readonly #collect: () => Promise<FleetSnapshot>;

  constructor(collect: () => Promise<FleetSnapshot>) {
    this.#collect = collect;
    const registers = [this.registry];
    this.#jobs = new Counter({
      name: "nsp_fleet_jobs_total",
      help: "Stack jobs (attempts) this worker finished, by operation and result.",
      labelNames: ["operation", "result"],
      registers,
    });
    this.#durations = new Histogram({
      name: "nsp_fleet_stack_duration_seconds",
      help: "How long each stack job of this worker took, by operation.",
      labelNames: ["operation"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#rateLimited = new Counter({
      name: "nsp_fleet_api_rate_limited_total",
      help: "HTTP 429 answers the API gave the stacks this worker ran (each was waited out and retried by the provider).",
      registers,
    });
    this.#queueDepth = new Gauge({
      name: "nsp_fleet_queue_depth",
      help: "Stack jobs queued or waiting for a retry, on every worker.",
      registers,
    });
    this.#drifted = new Gauge({
      name: "nsp_fleet_drifted_stacks",
      help: "Stacks whose latest drift check found drift.",
      registers,
    });
    this.#stacks = new Gauge({
      name: "nsp_fleet_stacks",
      help: "The stacks of the latest run, by result.",
      labelNames: ["run", "result"],
      registers,
    });
  }

  jobFinished(operation: string, result: string, durationSeconds: number): void {
    this.#jobs.inc({ operation, result });
    this.#durations.observe({ operation }, durationSeconds);
  }

  /** The 429s one stack's commands met (engine-events.ts requestsOf, from the plugin's request lines). */
  rateLimited(n: number): void {
    if (n > 0) this.#rateLimited.inc(n);
  }

  /**
   * The metrics as Prometheus text, the gauges read from the snapshot at this moment (one call of
   * the callback per scrape). Throws when the snapshot cannot be had: a scrape then fails, which
   * Prometheus shows (`up` 0), rather than reporting figures from before.
   */
  async text(): Promise<string> {
    const snapshot = await this.#collect();
    this.#queueDepth.set(snapshot.queueDepth);
    this.#drifted.set(snapshot.driftedStacks);
    // A result the latest run no longer has must not linger from an earlier scrape.
    this.#stacks.reset();
    for (const [result, n] of Object.entries(snapshot.latestRun?.results ?? {}))
      this.#stacks.set({ run: "latest", result }, n);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** A connection or pool of the fleet's database (pg's Client and Pool both are). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The gauges' figures from the fleet's database, for FleetMetrics's callback: the stack jobs
 * queued or waiting out a retry's backoff (pg-boss's `created` and `retry`; not those running),
 * the stacks drifted now (as `status --drifted` lists them), and the results of the latest run
 * (the one `status` shows by default).
 */
export async function fleetSnapshot(db: Queryable): Promise<FleetSnapshot> {
  const head = (
    await db.query(
      `SELECT (SELECT count(*)::int FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry')) AS queue_depth,
              (SELECT count(*)::int FROM nsp_fleet.health WHERE state = 'drifted') AS drifted,
              (SELECT id::text FROM nsp_fleet.runs ORDER BY created_at DESC LIMIT 1) AS latest`,
      [QUEUE],
    )
  ).rows[0] as { queue_depth: number; drifted: number; latest: string | null };
  const snapshot: FleetSnapshot = { queueDepth: head.queue_depth, driftedStacks: head.drifted };
  if (head.latest !== null) {
    const { rows } = await db.query(
      "SELECT result, count(*)::int AS n FROM nsp_fleet.stacks WHERE run_id = $1 GROUP BY result",
      [head.latest],
    );
    snapshot.latestRun = {
      id: head.latest,
      results: Object.fromEntries((rows as { result: string; n: number }[]).map((r) => [r.result, r.n])),
    };
  }
  return snapshot;
}

/** `--metrics-port`: a TCP port. */
export function parseMetricsPort(value: string, name = "--metrics-port"): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535)
    throw new InputError(`${name}: "${value}" must be a port number from 1 to 65535`);
  return n;
}

/**
 * Serves GET /metrics on host:port (port 0: a free one, for tests). Call it before the worker
 * takes a job: a port that cannot be had fails the command before anything runs.
 */
export async function serveMetrics(
  metrics: FleetMetrics,
  port: number,
  host = "127.0.0.1",
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end("not found: the metrics are at GET /metrics\n");
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { "content-type": metrics.contentType });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (e: unknown) => {
        res
          .writeHead(503, { "content-type": "text/plain; charset=utf-8" })
          .end(`nsp-fleet: cannot read the queue's figures: ${e instanceof Error ? e.message : String(e)}\n`);
      },
    );
  });
  // A scrape never holds the worker's exit: close() ends idle keep-alive connections too.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => {
      const why =
        e.code === "EADDRINUSE"
          ? `port ${port} on ${host} is in use (another worker or exporter listens there; give each worker on a machine its own port)`
          : e.code === "EACCES"
            ? `port ${port} on ${host} needs privileges this process lacks (use a port above 1023)`
            : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND"
              ? `${host} is not an address of this machine`
              : `cannot listen on ${host}:${port}: ${e.code ?? e.message}`;
      reject(new InputError(`--metrics-port ${port}: ${why}`));
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const address = server.address();
  const real = typeof address === "object" && address !== null ? address.port : port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${real}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
