// The fleet's alerts and metrics on PostgreSQL with pg-boss, as the workers use them: webhook
// deliveries as jobs of their own queue, retried by pg-boss with backoff, every attempt a row of
// nsp_fleet.deliveries, the secret nowhere in the database; and the metrics' gauges read from the
// fleet's tables and pg-boss's. No stack runs here (the whole flow, with the workers' events, is in
// test/e2e/fleet.test.ts); test/fleet/webhooks.test.ts and metrics.test.ts cover the rest
// without a database.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, Pool } from "pg";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureSchema } from "../../fleet/src/database";
import { FleetMetrics, fleetSnapshot, serveMetrics } from "../../fleet/src/metrics";
import { ensureQueue, ensureQueues, QUEUE } from "../../fleet/src/queue";
import {
  fleetEvent,
  handleDelivery,
  queueDelivery,
  verify,
  SIGNATURE_HEADER,
  WEBHOOK_QUEUE,
  WEBHOOK_SCHEMA,
  type DeliveryJob,
} from "../../fleet/src/webhooks";
import { until } from "../helpers/until";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";

const SECRET = "whsec-e2e-0123456789abcdef0123";

let pg: TestPostgres;
let client: Client;
let databaseUrl: string;
let boss: PgBoss;
const servers: Server[] = [];

beforeAll(async () => {
  pg = await testPostgres();
  const url = (databaseUrl = await pg.database("fleet_alerts"));
  client = new Client({ connectionString: url });
  await client.connect();
  await ensureSchema(client);
  // Made twice: the fleet makes its schema at every enqueue and worker start.
  await client.query(WEBHOOK_SCHEMA);
  await client.query(WEBHOOK_SCHEMA);
  boss = new PgBoss({ connectionString: url, max: 3, schedule: false, supervise: true, maintenanceIntervalSeconds: 1 });
  boss.on("error", () => {});
  await boss.start();
  // Made twice, as every worker start makes it.
  await ensureQueues(client, boss, [{ name: WEBHOOK_QUEUE, policy: "standard" }]);
  await ensureQueues(client, boss, [{ name: WEBHOOK_QUEUE, policy: "standard" }]);
  await boss.work<DeliveryJob>(
    WEBHOOK_QUEUE,
    { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => handleDelivery(job!, client, SECRET),
  );
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: false, close: true });
  await client?.end();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  pg?.stop();
});

/** A receiver on 127.0.0.1 answering with each status of `statuses` in turn, the last one repeated. */
async function receiver(...statuses: number[]): Promise<{ url: URL; bodies: { body: string; signature: string }[] }> {
  const bodies: { body: string; signature: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      bodies.push({ body, signature: String(req.headers[SIGNATURE_HEADER]) });
      res.writeHead(statuses[Math.min(bodies.length - 1, statuses.length - 1)]!).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`), bodies };
}

async function jobState(id: string): Promise<string | undefined> {
  return (await boss.getJobById(WEBHOOK_QUEUE, id))?.state;
}

async function attempts(eventId: string) {
  const { rows } = await client.query<{
    attempt: number;
    status: number | null;
    error: string | null;
    url: string;
    type: string;
    stack: string | null;
  }>("SELECT attempt, status, error, url, type, stack FROM nsp_fleet.deliveries WHERE event_id = $1 ORDER BY id", [
    eventId,
  ]);
  return rows;
}

it(
  "a delivery the receiver refuses once is retried by pg-boss and delivered, each attempt recorded, the " +
    "secret nowhere in the database",
  async () => {
    const { url, bodies } = await receiver(500, 204);
    const event = fleetEvent({
      type: "stack.failed",
      run: "7a1f2c3d-0000-4000-8000-000000000001",
      operation: "up",
      stack: "acme",
      attempts: 3,
      error: "error: the zone acme.example is locked",
    });
    const id = (await queueDelivery(boss, url, event, { retries: 2, retryDelaySeconds: 1 }))!;
    await until(async () => (await jobState(id)) === "completed", 100);
    expect(bodies).toHaveLength(2);
    for (const b of bodies) {
      expect(JSON.parse(b.body)).toEqual(event);
      expect(verify(b.body, b.signature, SECRET)).toBe(true);
    }
    const shown = `http://127.0.0.1:${url.port}/events`;
    expect(await attempts(event.id)).toEqual([
      {
        attempt: 1,
        status: 500,
        error: "the receiver answered 500 Internal Server Error",
        url: shown,
        type: "stack.failed",
        stack: "acme",
      },
      { attempt: 2, status: 204, error: null, url: shown, type: "stack.failed", stack: "acme" },
    ]);
    const { rows } = await client.query<{ text: string }>(
      "SELECT data::text || coalesce(output::text, '') AS text FROM pgboss.job WHERE id = $1",
      [id],
    );
    expect(rows[0]!.text).toContain(event.id);
    expect(rows[0]!.text).not.toContain(SECRET);
  },
);

it("a receiver that never takes it: pg-boss gives up after the retries, every attempt recorded with its error", async () => {
  const { url, bodies } = await receiver(503);
  const event = fleetEvent({
    type: "run.finished",
    run: "7a1f2c3d-0000-4000-8000-000000000002",
    operation: "drift",
    summary: { stacks: 3, succeeded: 3, failed: 0, drifted: 1 },
  });
  const id = (await queueDelivery(boss, url, event, { retries: 1, retryDelaySeconds: 1 }))!;
  await until(async () => (await jobState(id)) === "failed", 100);
  expect(bodies).toHaveLength(2);
  expect((await attempts(event.id)).map((r) => [r.attempt, r.status, r.stack])).toEqual([
    [1, 503, null],
    [2, 503, null],
  ]);
});

it("the metrics' gauges: stack jobs queued or retrying (not running), stacks drifted now, the latest run's results", async () => {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const metrics = new FleetMetrics(() => fleetSnapshot(pool));
  const served = await serveMetrics(metrics, 0);
  try {
    expect(await fleetSnapshot(pool)).toEqual({ queueDepth: 0, driftedStacks: 0 });
    await ensureQueue(boss);
    const older = randomUUID();
    const latest = randomUUID();
    await client.query(
      "INSERT INTO nsp_fleet.runs (id, operation, created_at) VALUES ($1, 'up', now() - interval '1 hour'), " +
        "($2, 'drift', now())",
      [older, latest],
    );
    await client.query(
      "INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result) SELECT $1, p, s, " +
        "gen_random_uuid(), r FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(s, r, p)",
      [latest, ["acme", "globex", "initech", "umbrella"], ["succeeded", "succeeded", "failed", "running"]],
    );
    await client.query(
      "INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result) VALUES ($1, 1, 'acme', " +
        "gen_random_uuid(), 'failed')",
      [older],
    );
    await client.query(
      "INSERT INTO nsp_fleet.health (stack, state, run_id) VALUES ('acme', 'drifted', $1), ('globex', 'ok', " +
        "$1), ('initech', 'failed', $1)",
      [latest],
    );
    // Three stack jobs queued, one of them then taken by a worker (active): two in the queue.
    for (const ref of ["a", "b", "c"]) await boss.send(QUEUE, { ref }, { singletonKey: ref });
    expect(await boss.fetch(QUEUE, { batchSize: 1 })).toHaveLength(1);
    // A delivery waiting in its own queue is not a stack job.
    await boss.send(WEBHOOK_QUEUE, { url: "https://example.com/", event: {} }, { startAfter: 3600 });

    expect(await fleetSnapshot(pool)).toEqual({
      queueDepth: 2,
      driftedStacks: 1,
      latestRun: { id: latest, results: { succeeded: 2, failed: 1, running: 1 } },
    });
    const text = await (await fetch(served.url)).text();
    expect(text).toMatch(/^nsp_fleet_queue_depth 2$/m);
    expect(text).toMatch(/^nsp_fleet_drifted_stacks 1$/m);
    expect(text).toMatch(/^nsp_fleet_stacks\{run="latest",result="succeeded"\} 2$/m);
    expect(text).toMatch(/^nsp_fleet_stacks\{run="latest",result="running"\} 1$/m);
  } finally {
    await served.close();
    await pool.end();
  }
});
