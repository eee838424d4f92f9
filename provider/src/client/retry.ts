// Backoff and server wait-hint parsing. Pure functions, so the retry policy can be tested
// without a client.

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 30_000;

/**
 * A server wait hint (Retry-After, X-RateLimit-Reset) above this is not waited out: blocking a
 * `pulumi up` for longer than this is worse than failing with a clear RateLimitedError.
 */
export const MAX_SERVER_WAIT_MS = 5 * 60_000;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * Methods that may be repeated after a failure whose outcome is unknown. PATCH is included
 * because every PATCH in this API sets fields to given values (repeating it is harmless);
 * POST creates things, so repeating it could create a duplicate.
 */
export function isRepeatable(method: string): boolean {
  return method !== "POST";
}

/**
 * Exponential backoff with full jitter: a uniformly random delay in
 * [0, min(cap, base * 2^attempt)). `attempt` counts from 0 (the first retry).
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs: number = BACKOFF_BASE_MS,
  capMs: number = BACKOFF_CAP_MS,
): number {
  // Clamping the exponent keeps 2 ** attempt finite for absurd maxRetries values.
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt, 0), 40));
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0.5;
  return Math.floor(unit * ceiling);
}

/** Retry-After as delta-seconds (integer or decimal) or as an HTTP date; milliseconds from `nowMs`. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  // Date.parse accepts bare numbers like "-1" as years; an HTTP date always has a weekday or month name.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * X-RateLimit-Reset in milliseconds from `nowMs`. The API documents only the header prefix, so
 * both conventions seen in the wild are read: seconds until the reset (small numbers) and a Unix
 * epoch time in seconds (values past 2001-09-09 cannot be a plausible delta).
 */
export function parseRateLimitReset(value: string | null | undefined, nowMs: number): number | undefined {
  const n = parseLeadingNumber(value);
  if (n === undefined) return undefined;
  if (n > 1e9) return Math.max(0, Math.ceil(n * 1000 - nowMs));
  return Math.ceil(n * 1000);
}

/** First non-negative number in a header value ("12", "12.5", "12, 12;w=60"); undefined when absent or garbled. */
function parseLeadingNumber(value: string | null | undefined): number | undefined {
  if (value == null) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)/.exec(value);
  if (!m || m[1] === undefined) return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : undefined;
}

/** Rate-limit headers of one response; each field is undefined when absent or unreadable. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  resetMs?: number;
}

export function readRateLimitHeaders(headers: HeadersLike, nowMs: number): RateLimitInfo {
  // The draft IETF names (no X- prefix) are read as a fallback; cheap and harmless.
  const get = (name: string): string | null => headers.get(`x-ratelimit-${name}`) ?? headers.get(`ratelimit-${name}`);
  const info: RateLimitInfo = {};
  const limit = parseLeadingNumber(get("limit"));
  if (limit !== undefined) info.limit = limit;
  const remaining = parseLeadingNumber(get("remaining"));
  if (remaining !== undefined) info.remaining = Math.floor(remaining);
  const resetMs = parseRateLimitReset(get("reset"), nowMs);
  if (resetMs !== undefined) info.resetMs = resetMs;
  return info;
}

/** setTimeout-based sleep that rejects with the signal's reason when aborted. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
