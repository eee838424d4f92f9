// Alerts: a JSON event POSTed to FLEET_WEBHOOK_URL (or --webhook) when a stack fails, drifts or
// recovers, and when a run finishes. Each body is signed with HMAC-SHA256 of FLEET_WEBHOOK_SECRET,
// the way GitHub signs its webhooks, so that a receiver can tell the fleet's events from anyone
// else's POSTs. Through the queue, a delivery is a pg-boss job of its own: retried with backoff by
// pg-boss, each attempt a row of nsp_fleet.deliveries. In one process (`run`), deliverWithRetries.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type PgBoss from "pg-boss";
import { InputError } from "./customers";
import type { FleetEvent, FleetEventBody } from "./events";
import { insecureTransport, shownAddress } from "./urls";

export const WEBHOOK_URL_ENV = "FLEET_WEBHOOK_URL";
export const WEBHOOK_SECRET_ENV = "FLEET_WEBHOOK_SECRET";
export const SIGNATURE_HEADER = "x-nsp-fleet-signature-256";
export const EVENT_HEADER = "x-nsp-fleet-event";
export const DELIVERY_HEADER = "x-nsp-fleet-delivery";
/** A receiver that has not answered by then is counted as a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An HMAC key much shorter than this can be found from one signed body by trying keys. */
const MIN_SECRET_LENGTH = 16;

// The events themselves (./events) are built by the worker and by `run` from what they record,
// and must never carry a token, a credential, the database's password or a secret output of a
// stack: `error` is text the caller has already scrubbed of those (report.ts's scrub, as for the
// stack's row and log), and nothing else in an event is free text. This module sends them as given.
export type { FleetEvent, FleetEventBody } from "./events";
export type FleetEventType = FleetEvent["type"];

/** An event with a fresh id (the same in every retry of its delivery) and the time it happened. */
export function fleetEvent(body: FleetEventBody, at: Date = new Date()): FleetEvent {
  return { ...body, id: randomUUID(), at: at.toISOString() };
}

/**
 * The webhook's address from `value`, as given by `source` (`--webhook`, FLEET_WEBHOOK_URL):
 * https, or http on loopback only. A user name or password in it is refused: fetch will not send
 * one, the URL is stored with each queued delivery in the database, and the signature is what
 * tells the receiver the event is the fleet's.
 */
export function webhookUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value is not repeated: a secret pasted into the wrong variable would land in a log.
    throw new InputError(
      `${source}: not a URL; expected https://host/path (plain http only on loopback: 127.0.0.0/8, [::1], localhost)`,
    );
  }
  const insecure = insecureTransport(url);
  if (insecure)
    throw new InputError(
      `${source}: ${shownAddress(url)} ${insecure}; use https (plain http is accepted on loopback only: 127.0.0.0/8, [::1], localhost)`,
    );
  if (url.username !== "" || url.password !== "") {
    throw new InputError(
      `${source}: ${shownAddress(url)} holds a user name or password; remove it: the receiver knows the ` +
        `fleet's events by their signature (${WEBHOOK_SECRET_ENV}), and the URL is stored with each queued delivery`,
    );
  }
  return url;
}

/**
 * The webhook the fleet is to call, from `--webhook` (given as `flag`) or FLEET_WEBHOOK_URL, with
 * its secret; undefined when neither is set. A URL without a secret is refused: an unsigned event
 * could be forged by anyone who can reach the receiver.
 */
export function webhookSettings(env: NodeJS.ProcessEnv, flag?: string): { url: URL; secret: string } | undefined {
  const value = flag ?? env[WEBHOOK_URL_ENV];
  if (value === undefined || value === "") return undefined;
  const url = webhookUrl(value, flag !== undefined ? "--webhook" : WEBHOOK_URL_ENV);
  return { url, secret: webhookSecret(env[WEBHOOK_SECRET_ENV]) };
}

function webhookSecret(secret: string | undefined): string {
  if (secret === undefined || secret === "") {
    throw new InputError(
      `${WEBHOOK_SECRET_ENV}: not set; a webhook's events are signed with it (HMAC-SHA256), so that its ` +
        `receiver can tell them from forgeries. Set it to a long random string, e.g. \`openssl rand -hex ` +
        `32\`, and give the receiver the same`,
    );
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new InputError(
      `${WEBHOOK_SECRET_ENV}: ${secret.length} characters, too short to sign with; use at least ` +
        `${MIN_SECRET_LENGTH} random characters, e.g. \`openssl rand -hex 32\``,
    );
  }
  return secret;
}

/** The signature header's value: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export function sign(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** Whether `header` is the signature of `body` with `secret`, compared in constant time. */
export function verify(body: string, header: string, secret: string): boolean {
  const expected = Buffer.from(sign(body, secret), "utf8");
  const given = Buffer.from(header, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface DeliveryResult {
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed; absent when it succeeded (a 2xx). */
  error?: string;
}

/** Why a fetch threw, in a line: the network's error code, or the timeout. */
function fetchError(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return `no answer in ${DELIVERY_TIMEOUT_MS / 1000} s`;
  const cause = err.cause;
  if (cause?.code)
    return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` ${cause.message}` : ""}`.trim();
  return cause?.message ?? err.message ?? String(e);
}

/** One POST of the event: 2xx is success. Never throws for the receiver's sake; see the result. */
export async function deliverOnce(
  url: URL,
  event: FleetEvent,
  secret: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryResult> {
  const key = webhookSecret(secret);
  const body = JSON.stringify(event);
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "nsp-fleet",
        [SIGNATURE_HEADER]: sign(body, key),
        [EVENT_HEADER]: event.type,
        [DELIVERY_HEADER]: event.id,
      },
      body,
      // A redirect is not followed: it could lead to plain http elsewhere, and a 301 or 302
      // turns the POST into a GET without the event.
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
  } catch (e) {
    return { error: fetchError(e) };
  }
  // The answer's body is not read, only released, so the connection can be reused.
  await res.body?.cancel().catch(() => {});
  if (res.status >= 200 && res.status < 300) return { status: res.status };
  const redirect =
    res.status >= 300 && res.status < 400 ? " (a redirect, not followed: give the webhook's final address)" : "";
  return {
    status: res.status,
    error: `the receiver answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${redirect}`,
  };
}

export interface RetryOptions {
  /** Attempts after the first (default 5). */
  retries?: number;
  /** The wait before the first retry; each next one doubles it, with jitter (default 1 s). */
  firstDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetchImpl?: typeof fetch;
  /** Told of each attempt, its number from 1, as it ends. */
  onAttempt?: (attempt: number, result: DeliveryResult) => void;
  /** Aborted: no further attempt (the one under way ends by itself, within its timeout). */
  signal?: AbortSignal;
  /** For the jitter; tests pass their own. */
  random?: () => number;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * For `run`, which has no queue: the event delivered, retried after a failure with exponential
 * backoff. Each wait is drawn between half and all of `firstDelayMs * 2^(n-1)`, so that the many
 * events of one run that failed together do not come back at the receiver together.
 */
export async function deliverWithRetries(
  url: URL,
  event: FleetEvent,
  secret: string | undefined,
  opts: RetryOptions = {},
): Promise<DeliveryResult & { attempts: number }> {
  const {
    retries = 5,
    firstDelayMs = 1000,
    sleep = sleepFor,
    fetchImpl = fetch,
    onAttempt,
    signal,
    random = Math.random,
  } = opts;
  let result: DeliveryResult = {};
  let attempt = 0;
  while (attempt <= retries) {
    if (attempt > 0) {
      const ceiling = firstDelayMs * 2 ** (attempt - 1);
      await sleep(ceiling / 2 + (ceiling / 2) * random(), signal);
      if (signal?.aborted) break;
    }
    attempt++;
    result = await deliverOnce(url, event, secret, fetchImpl);
    onAttempt?.(attempt, result);
    if (result.error === undefined) break;
  }
  return { ...result, attempts: attempt };
}

// ---- through the queue ------------------------------------------------------------------------

export const WEBHOOK_QUEUE = "nsp-fleet-webhook";

/**
 * Every attempt of every delivery, appended to the fleet's schema (FLEET_SCHEMA) and made with
 * it. `url` is shown without user, password or query, as messages show it.
 */
export const WEBHOOK_SCHEMA = `
CREATE SCHEMA IF NOT EXISTS nsp_fleet;
CREATE TABLE IF NOT EXISTS nsp_fleet.deliveries (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL,
  type text NOT NULL,
  run_id text NOT NULL,
  stack text,
  url text NOT NULL,
  attempt int NOT NULL,
  status int,
  error text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS deliveries_by_event ON nsp_fleet.deliveries (event_id);
CREATE INDEX IF NOT EXISTS deliveries_by_run ON nsp_fleet.deliveries (run_id);`;

/** A delivery job's data: where to and what. The secret stays with the workers. */
export interface DeliveryJob {
  url: string;
  event: FleetEvent;
}

/**
 * Queues the event's delivery (the queue must exist: the worker makes it among its side queues, with queue.ts's ensureQueues). pg-boss retries a failed
 * attempt `retries` times (default 8), the first after `retryDelaySeconds` (default 10) to twice
 * that, each next wait doubling: 43 to 85 minutes in all, to ride out a receiver's restart
 * or outage. `db` sends it in the caller's transaction (pg-boss's own option). Returns the job's id.
 */
export async function queueDelivery(
  boss: PgBoss,
  url: URL,
  event: FleetEvent,
  opts: { retries?: number; retryDelaySeconds?: number; db?: PgBoss.Db } = {},
): Promise<string | null> {
  const data: DeliveryJob = { url: url.href, event };
  return boss.send(WEBHOOK_QUEUE, data, {
    retryLimit: opts.retries ?? 8,
    retryDelay: opts.retryDelaySeconds ?? 10,
    retryBackoff: true,
    // An attempt lasts at most the timeout; a job still active a minute on lost its worker.
    expireInSeconds: 60,
    ...(opts.db ? { db: opts.db } : {}),
  });
}

/**
 * One attempt of a queued delivery, recorded as a row of nsp_fleet.deliveries. Throws when it
 * failed, so that pg-boss retries it with its backoff (or, after the last, marks it failed).
 */
export async function handleDelivery(
  job: { id: string; data: DeliveryJob; retryCount: number },
  db: { query(text: string, values: unknown[]): Promise<unknown> },
  secret: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryResult> {
  const { event } = job.data;
  // Checked again: the job's URL came out of the database, not from the command line.
  const url = webhookUrl(job.data.url, `the delivery job ${job.id}'s url`);
  const result = await deliverOnce(url, event, secret, fetchImpl);
  await db.query(
    "INSERT INTO nsp_fleet.deliveries (event_id, type, run_id, stack, url, attempt, status, error) VALUES " +
      "($1, $2, $3, $4, $5, $6, $7, $8)",
    [
      event.id,
      event.type,
      event.run,
      "stack" in event ? event.stack : null,
      shownAddress(url),
      job.retryCount + 1,
      result.status ?? null,
      result.error ?? null,
    ],
  );
  if (result.error !== undefined)
    throw new Error(
      `webhook ${event.type} ${event.id} to ${shownAddress(url)}, attempt ${job.retryCount + 1}: ${result.error}`,
    );
  return result;
}
