// The fleet's webhook deliveries through the queue, on PostgreSQL with pg-boss as the workers run
// them: a job per event, retried by pg-boss with backoff, every attempt a row of
// nsp_fleet.deliveries, the secret nowhere in the database. No stack runs here (the whole flow,
// with the workers' events, is in test/e2e/fleet.test.ts); test/fleet/webhooks.test.ts covers the
// rest without a database.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "pg";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureWebhookQueue, fleetEvent, handleDelivery, queueDelivery, verify, SIGNATURE_HEADER, WEBHOOK_QUEUE, WEBHOOK_SCHEMA, type DeliveryJob } from "../../fleet/src/webhooks";
import { until } from "../helpers/until";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";

const SECRET = "whsec-e2e-0123456789abcdef0123";

let pg: TestPostgres;
let client: Client;
let boss: PgBoss;
const servers: Server[] = [];

beforeAll(async () => {
  pg = await testPostgres();
  const url = await pg.database("fleet_webhooks");
  client = new Client({ connectionString: url });
  await client.connect();
  // Made twice: the fleet makes its schema at every enqueue and worker start.
  await client.query(WEBHOOK_SCHEMA);
  await client.query(WEBHOOK_SCHEMA);
  boss = new PgBoss({ connectionString: url, max: 3, schedule: false, supervise: true, maintenanceIntervalSeconds: 1 });
  boss.on("error", () => {});
  await boss.start();
  await ensureWebhookQueue(boss);
  await ensureWebhookQueue(boss);
  await boss.work<DeliveryJob>(WEBHOOK_QUEUE, { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => handleDelivery(job!, client, SECRET));
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
  const { rows } = await client.query<{ attempt: number; status: number | null; error: string | null; url: string; type: string; stack: string | null }>(
    "SELECT attempt, status, error, url, type, stack FROM nsp_fleet.deliveries WHERE event_id = $1 ORDER BY id",
    [eventId],
  );
  return rows;
}

it("a delivery the receiver refuses once is retried by pg-boss and delivered, each attempt recorded, the secret nowhere in the database", async () => {
  const { url, bodies } = await receiver(500, 204);
  const event = fleetEvent({ type: "stack.failed", run: "7a1f2c3d-0000-4000-8000-000000000001", operation: "up", stack: "acme", attempts: 3, error: "error: the zone acme.example is locked" });
  const id = (await queueDelivery(boss, url, event, { retries: 2, retryDelaySeconds: 1 }))!;
  await until(async () => (await jobState(id)) === "completed", 100);
  expect(bodies).toHaveLength(2);
  for (const b of bodies) {
    expect(JSON.parse(b.body)).toEqual(event);
    expect(verify(b.body, b.signature, SECRET)).toBe(true);
  }
  const shown = `http://127.0.0.1:${url.port}/events`;
  expect(await attempts(event.id)).toEqual([
    { attempt: 1, status: 500, error: "the receiver answered 500 Internal Server Error", url: shown, type: "stack.failed", stack: "acme" },
    { attempt: 2, status: 204, error: null, url: shown, type: "stack.failed", stack: "acme" },
  ]);
  const { rows } = await client.query<{ text: string }>("SELECT data::text || coalesce(output::text, '') AS text FROM pgboss.job WHERE id = $1", [id]);
  expect(rows[0]!.text).toContain(event.id);
  expect(rows[0]!.text).not.toContain(SECRET);
});

it("a receiver that never takes it: pg-boss gives up after the retries, every attempt recorded with its error", async () => {
  const { url, bodies } = await receiver(503);
  const event = fleetEvent({ type: "run.finished", run: "7a1f2c3d-0000-4000-8000-000000000002", operation: "drift", summary: { stacks: 3, succeeded: 3, failed: 0, drifted: 1 } });
  const id = (await queueDelivery(boss, url, event, { retries: 1, retryDelaySeconds: 1 }))!;
  await until(async () => (await jobState(id)) === "failed", 100);
  expect(bodies).toHaveLength(2);
  expect((await attempts(event.id)).map((r) => [r.attempt, r.status, r.stack])).toEqual([
    [1, 503, null],
    [2, 503, null],
  ]);
});
