// The fleet's database (FLEET_DATABASE_URL): the queue (pg-boss's tables, in its `pgboss` schema)
// and the fleet's own record of each run and each stack's result (the `nsp_fleet` schema), which
// `status` reads. Every connection problem is told as what to do, with the URL's password blanked.
import { Client, Pool } from "pg";
import { InputError } from "./customers";
import { WEBHOOK_SCHEMA } from "./webhooks";

export const DATABASE_ENV = "FLEET_DATABASE_URL";

/** The URL with its password blanked, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

export function databaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env[DATABASE_ENV];
  if (!url)
    throw new InputError(
      `${DATABASE_ENV}: not set; set it to the fleet's PostgreSQL database, e.g. postgres://user:password@host:5432/fleet`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(`${DATABASE_ENV}: not a URL; expected postgres://user:password@host:5432/database`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new InputError(`${DATABASE_ENV}: ${shownUrl(url)} is not a postgres:// URL`);
  return url;
}

/** A connection problem as what to do about it. */
export function connectionError(e: unknown, url: string): InputError {
  const err = e as { code?: string; message?: string };
  const where = `${DATABASE_ENV}=${shownUrl(url)}`;
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.slice(1)) || u.username;
  switch (err.code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EHOSTUNREACH":
    case "ETIMEDOUT":
    case "EAI_AGAIN":
      return new InputError(
        `cannot reach the database (${where}): ${err.code}; start PostgreSQL there or correct the host and port`,
      );
    case "28P01":
    case "28000":
      return new InputError(
        `the database refused user "${decodeURIComponent(u.username)}" (${where}): ${err.message}; correct the user or password in the URL`,
      );
    case "3D000":
      return new InputError(
        `database "${database}" does not exist (${where}); create it (createdb ${database}) or name another`,
      );
    default:
      return new InputError(
        `cannot use the database (${where}): ${/timeout/i.test(err.message ?? "") ? "no answer in 10 s; check the host and port" : (err.message ?? String(e))}`,
      );
  }
}

export async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: "nsp-fleet" });
  // A server that goes away later is told by the query that fails, not as an unhandled event.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw connectionError(e, url);
  }
  return client;
}

/** A pool of `max` connections, its first one opened to check the URL. */
export async function connectPool(url: string, max: number): Promise<Pool> {
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000, application_name: "nsp-fleet" });
  pool.on("error", () => {});
  try {
    (await pool.connect()).release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw connectionError(e, url);
  }
  return pool;
}

/**
 * The fleet's own tables; made by `enqueue` and `worker`, idempotently. A database an earlier
 * release made gains the later columns and tables here (ADD COLUMN IF NOT EXISTS), so every
 * release reads every database an earlier one wrote.
 */
export const FLEET_SCHEMA = `
CREATE SCHEMA IF NOT EXISTS nsp_fleet;
CREATE TABLE IF NOT EXISTS nsp_fleet.runs (
  id uuid PRIMARY KEY,
  operation text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE nsp_fleet.runs ADD COLUMN IF NOT EXISTS remediate boolean NOT NULL DEFAULT false;
ALTER TABLE nsp_fleet.runs ADD COLUMN IF NOT EXISTS schedule text;
ALTER TABLE nsp_fleet.runs ADD COLUMN IF NOT EXISTS finished_at timestamptz;
CREATE TABLE IF NOT EXISTS nsp_fleet.stacks (
  run_id uuid NOT NULL REFERENCES nsp_fleet.runs (id),
  position int NOT NULL,
  stack text NOT NULL,
  job_id uuid NOT NULL,
  result text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}',
  attempts int NOT NULL DEFAULT 0,
  worker text,
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  error text,
  PRIMARY KEY (run_id, stack)
);
ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS plan jsonb;
ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS drift jsonb;
ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS remediation jsonb;
ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS requests int;
ALTER TABLE nsp_fleet.stacks ADD COLUMN IF NOT EXISTS rate_limited int;
CREATE INDEX IF NOT EXISTS stacks_by_stack ON nsp_fleet.stacks (stack);
CREATE INDEX IF NOT EXISTS stacks_latest ON nsp_fleet.stacks (stack, enqueued_at DESC);
CREATE INDEX IF NOT EXISTS stacks_pending ON nsp_fleet.stacks (run_id) WHERE result IN ('queued', 'running', 'retrying');
CREATE TABLE IF NOT EXISTS nsp_fleet.customers (
  ref text PRIMARY KEY,
  customer jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS nsp_fleet.health (
  stack text PRIMARY KEY,
  state text NOT NULL,
  since timestamptz NOT NULL DEFAULT now(),
  run_id uuid
);
CREATE TABLE IF NOT EXISTS nsp_fleet.firings (
  schedule text NOT NULL,
  fired_at timestamptz NOT NULL DEFAULT now(),
  job_id uuid PRIMARY KEY,
  run_id uuid,
  skipped text
);`;

/**
 * The schema's shape, written on it once made: a command finds it current and runs no DDL (an
 * ALTER TABLE, even one that changes nothing, locks its table against every reader meanwhile).
 * Raise it with every change to FLEET_SCHEMA or WEBHOOK_SCHEMA.
 */
const SCHEMA_MARK = "nsp-fleet schema 2";

export async function ensureSchema(client: Client | Pool): Promise<void> {
  const { rows } = await client.query<{ mark: string | null }>(
    "SELECT obj_description(to_regnamespace('nsp_fleet'), 'pg_namespace') AS mark",
  );
  if (rows[0]?.mark === SCHEMA_MARK) return;
  // One text, so one connection: two workers starting at once would race on CREATE ... IF NOT EXISTS.
  await client.query(
    `BEGIN; SELECT pg_advisory_xact_lock(hashtext('nsp_fleet schema')); ${FLEET_SCHEMA} ` +
      `${WEBHOOK_SCHEMA} COMMENT ON SCHEMA nsp_fleet IS '${SCHEMA_MARK}'; COMMIT;`,
  );
}

/** For the commands that only read: no fleet tables means nothing was ever enqueued there. */
export async function requireSchema(client: Client, url: string): Promise<void> {
  const { rows } = await client.query<{ t: string | null }>("SELECT to_regclass('nsp_fleet.stacks')::text AS t");
  if (rows[0]?.t === null)
    throw new InputError(
      `the database holds no fleet tables (nsp_fleet.stacks) (${DATABASE_ENV}=${shownUrl(url)}): nothing ` +
        `was enqueued there; run \`nsp-fleet enqueue\` against it first, or correct the URL`,
    );
}
