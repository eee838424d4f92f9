// A fleet's database filled with rows as the workers leave them, without running a stack: the
// page's tests and its bench (bench/u1-fleet-page.ts) read a fleet of any size in seconds. The
// rows follow fleet/src/queue.ts: a run's row and one row per stack, each stack's result, changes,
// attempts, worker and times, a preview's plan, a drift check's drift (a secret only as changed),
// the API requests and 429s, each stack's health and since when. Seeded: the same call makes
// the same fleet.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { ensureSchema } from "../../../fleet/src/database";
import { seededRandom } from "../../../emulator/src/util/random";

export interface FleetRowsOptions {
  stacks: number;
  /** Hours of history: an up every 6 hours, a drift check every hour, a preview now and then. */
  hours: number;
  /** Stacks whose latest up failed for good (their health: failed). */
  failed: string[];
  /** A stack the latest drift check found drifted, on this property. */
  drifted: { stack: string; property: string; recorded: unknown; actual: unknown };
  /** Where to write the workers' logs of the latest runs, as `<dir>/<run>/<stack>.log`. */
  logDir?: string;
  seed?: number;
}

export interface FleetRows {
  refs: string[];
  runs: number;
  rows: number;
  /** A new up of every stack, queued now (the first few already running), as `enqueue` makes one; its id. */
  startRun(): Promise<string>;
}

export const refOf = (i: number, width: number) => `c${String(i + 1).padStart(width, "0")}`;

const urn = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::nsp-fleet::${type}::${name}`;

/** The columns of the release the page reads, on a database this branch's schema made (idempotent). */
const LATER_COLUMNS =
  "ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS requests int; ALTER TABLE nsp_fleet.stacks ADD " +
  "COLUMN IF NOT EXISTS rate_limited int;";

export async function fillFleet(url: string, opts: FleetRowsOptions): Promise<FleetRows> {
  const rnd = seededRandom(opts.seed ?? 45);
  const width = Math.max(3, String(opts.stacks).length);
  const refs = Array.from({ length: opts.stacks }, (_, i) => refOf(i, width));
  const client = new Client({ connectionString: url });
  await client.connect();
  let runCount = 0;
  let rowCount = 0;
  try {
    await ensureSchema(client);
    await client.query(LATER_COLUMNS);
    const now = Date.now();
    const hour = 3600_000;
    const start = now - opts.hours * hour;
    type Run = { id: string; operation: "up" | "drift" | "preview"; at: number; schedule: string | null };
    const runs: Run[] = [];
    const hex = (digits: number) => Array.from({ length: digits }, () => Math.floor(rnd() * 16).toString(16)).join("");
    const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
    for (let t = start; t <= now - 10 * 60_000; t += hour) {
      const i = Math.round((t - start) / hour);
      const operation = i % 6 === 0 ? "up" : i % 5 === 3 ? "preview" : "drift";
      runs.push({ id: uuid(), operation, at: t, schedule: operation === "drift" ? "drift" : null });
    }
    // The latest up comes after the latest drift check, so a stack it failed is failed now.
    runs.push({ id: uuid(), operation: "drift", at: now - 8 * 60_000, schedule: "drift" });
    runs.push({ id: uuid(), operation: "up", at: now - 5 * 60_000, schedule: null });
    const lastUp = runs.at(-1)!;
    const lastDrift = runs.at(-2)!;
    const health = new Map<string, { state: string; since: number; run: string }>();
    const setHealth = (stack: string, state: string, at: number, run: string) => {
      const before = health.get(stack);
      health.set(stack, { state, since: before && before.state === state ? before.since : at, run });
    };

    const rows: unknown[][] = [];
    for (const run of runs) {
      // A stack drifts now and then between checks and is found by the next one (then repaired by an up).
      const driftNow = new Set(refs.filter(() => rnd() < 0.04));
      refs.forEach((stack, position) => {
        const enqueued = run.at;
        const started = enqueued + Math.floor(rnd() * 60_000 * Math.max(1, refs.length / 200));
        const seconds = run.operation === "up" ? 4 + rnd() * 20 + (rnd() < 0.05 ? 60 : 0) : 2 + rnd() * 6;
        const finished = started + Math.round(seconds * 1000);
        const requests = Math.round((run.operation === "up" ? 30 : 12) + rnd() * 20);
        const rateLimited = rnd() < 0.1 ? 1 + Math.floor(rnd() * 4) : 0;
        let result = "succeeded";
        let changes: Record<string, number> = { same: 5 };
        let error: string | null = null;
        let plan: unknown = null;
        let drift: unknown = null;
        let attempts = 1;
        if (run === runs[0] && run.operation === "up") changes = { create: 5 };
        if (run.operation === "preview") {
          const change = rnd() < 0.2;
          plan = {
            changes: change ? { update: 1, same: 4 } : { same: 5 },
            steps: change
              ? [
                  {
                    urn: urn(stack, "nsp:dns:Record", "a-www"),
                    type: "nsp:dns:Record",
                    op: "update",
                    properties: ["ttl"],
                  },
                ]
              : [],
          };
          changes = (plan as { changes: Record<string, number> }).changes;
        }
        if (run.operation === "drift") {
          const resources =
            run === lastDrift && stack === opts.drifted.stack
              ? [
                  {
                    urn: urn(stack, "nsp:dns:Record", "a-www"),
                    type: "nsp:dns:Record",
                    properties: [
                      { name: opts.drifted.property, recorded: opts.drifted.recorded, actual: opts.drifted.actual },
                    ],
                  },
                  {
                    urn: urn(stack, "nsp:mail:Domain", "mail"),
                    type: "nsp:mail:Domain",
                    properties: [{ name: "dkimPrivateKey", secret: true }],
                  },
                ]
              : run !== lastDrift && driftNow.has(stack)
                ? [
                    {
                      urn: urn(stack, "nsp:dns:Record", "a-www"),
                      type: "nsp:dns:Record",
                      properties: [{ name: "ttl", recorded: 300, actual: 60 }],
                    },
                  ]
                : [];
          drift = { resources };
          changes = {};
        }
        if (run === lastUp && opts.failed.includes(stack)) {
          result = "failed";
          attempts = 3;
          changes = {};
          error =
            `error: nsp:dns:Record a-www: the API answered 409 conflict: a record www of type CNAME exists in ` +
            `${stack}.example\n    at create (nsp:dns:Record)\nerror: update failed`;
        }
        if (result === "failed") setHealth(stack, "failed", finished, run.id);
        else if (run.operation === "drift")
          setHealth(
            stack,
            (drift as { resources: unknown[] }).resources.length > 0 ? "drifted" : "ok",
            finished,
            run.id,
          );
        // As the workers decide it: an up that does not refresh leaves a drifted stack drifted; a preview changes nothing.
        else if (run.operation === "up")
          setHealth(stack, health.get(stack)?.state === "drifted" ? "drifted" : "ok", finished, run.id);
        rows.push([
          run.id,
          position + 1,
          stack,
          uuid(),
          result,
          JSON.stringify(changes),
          attempts,
          `runner-${1 + (position % 3)}:${4100 + (position % 3)}`,
          new Date(enqueued),
          new Date(started),
          new Date(finished),
          error,
          plan === null ? null : JSON.stringify(plan),
          drift === null ? null : JSON.stringify(drift),
          requests,
          rateLimited,
        ]);
      });
    }

    await client.query("BEGIN");
    await client.query(
      "INSERT INTO nsp_fleet.runs (id, operation, created_at, remediate, schedule, finished_at) SELECT * " +
        "FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::boolean[], $5::text[], $6::timestamptz[])",
      [
        runs.map((r) => r.id),
        runs.map((r) => r.operation),
        runs.map((r) => new Date(r.at)),
        runs.map(() => false),
        runs.map((r) => r.schedule),
        runs.map((r) => new Date(Math.min(r.at + 10 * 60_000, now))),
      ],
    );
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      const col = (k: number) => chunk.map((r) => r[k]);
      await client.query(
        `INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result, changes, attempts, worker, enqueued_at, started_at, finished_at, error, plan, drift, requests, rate_limited)
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::text[], $13::jsonb[], $14::jsonb[], $15::int[], $16::int[])`,
        Array.from({ length: 16 }, (_, k) => col(k)),
      );
    }
    await client.query(
      "INSERT INTO nsp_fleet.customers (ref, customer) SELECT r, jsonb_build_object('ref', r, 'zone', r || " +
        "'.example', 'records', '[]'::jsonb) FROM unnest($1::text[]) AS r",
      [refs],
    );
    const h = [...health.entries()];
    await client.query(
      "INSERT INTO nsp_fleet.health (stack, state, since, run_id) SELECT * FROM unnest($1::text[], " +
        "$2::text[], $3::timestamptz[], $4::uuid[])",
      [h.map(([s]) => s), h.map(([, v]) => v.state), h.map(([, v]) => new Date(v.since)), h.map(([, v]) => v.run)],
    );
    await client.query("COMMIT");
    runCount = runs.length;
    rowCount = rows.length;

    if (opts.logDir) {
      for (const stack of refs) {
        for (const run of [lastUp, lastDrift]) {
          const dir = join(opts.logDir, run.id);
          mkdirSync(dir, { recursive: true });
          const failed = run === lastUp && opts.failed.includes(stack);
          writeFileSync(
            join(dir, `${stack}.log`),
            [
              `# attempt 1 on runner-1:4100`,
              `Updating (${stack})`,
              `     Type                    Name          Status`,
              `     pulumi:pulumi:Stack     nsp-fleet-${stack}`,
              `     nsp:dns:Record          a-www         ${failed ? "**failed**" : ""}`,
              `Outputs:`,
              `    nameServers: [secret]`,
              failed ? `error: update failed` : `Resources: 5 unchanged`,
              "",
            ].join("\n"),
          );
        }
      }
    }
  } finally {
    await client.end();
  }

  return {
    refs,
    runs: runCount,
    rows: rowCount,
    async startRun() {
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        const { rows } = await c.query<{ id: string }>("SELECT gen_random_uuid() AS id");
        const id = rows[0]!.id;
        await c.query("BEGIN");
        await c.query("INSERT INTO nsp_fleet.runs (id, operation) VALUES ($1, 'up')", [id]);
        await c.query(
          "INSERT INTO nsp_fleet.stacks (run_id, position, stack, job_id, result, started_at, attempts, worker) " +
            "SELECT $1, p, s, gen_random_uuid(), CASE WHEN p <= 2 THEN 'running' ELSE 'queued' END, CASE WHEN p " +
            "<= 2 THEN now() END, CASE WHEN p <= 2 THEN 1 ELSE 0 END, CASE WHEN p <= 2 THEN 'runner-1:4100' END " +
            "FROM unnest($2::text[]) WITH ORDINALITY AS t(s, p)",
          [id, refs],
        );
        await c.query("COMMIT");
        return id;
      } finally {
        await c.end();
      }
    },
  };
}
