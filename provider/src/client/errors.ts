import { scrub, truncate } from "./redact";
import { isRepeatable, parseRateLimitReset, parseRetryAfter, type HeadersLike } from "./retry";

/** The `error.code` values the API documents. */
export type KnownErrorCode =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "validation_error"
  | "limit_exceeded"
  | "conflict"
  | "upstream_error"
  | "rate_limited"
  | "method_not_allowed";

export interface ApiErrorInit {
  code: string;
  status: number;
  method: string;
  path: string;
  /** What the server said (already scrubbed of secrets and truncated), or our own description. */
  serverMessage: string;
  retryable: boolean;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Any failure of an API call. `code` is the API's `error.code` when the server sent one,
 * `http_<status>` when the body carried none, or one of the client's own codes
 * (`invalid_response`, `network_error`, `timeout`).
 *
 * `retryable` is true when repeating this same request is safe and may succeed (the client
 * already did so up to `maxRetries`); it is false for a POST that may have been processed.
 */
export class ApiError extends Error {
  readonly code: string;
  /** HTTP status; 0 when no response arrived (NetworkError). */
  readonly status: number;
  readonly method: string;
  /** Path relative to the base URL, without the query string. */
  readonly path: string;
  readonly retryable: boolean;
  readonly serverMessage: string;
  /** Server wait hint (Retry-After, or X-RateLimit-Reset on a 429), when one was sent. */
  readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(
      `${init.method} ${init.path}: ${init.code}${init.serverMessage ? `: ${init.serverMessage}` : ""}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = init.code;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.retryable = init.retryable;
    this.serverMessage = init.serverMessage;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      status: this.status,
      method: this.method,
      path: this.path,
      retryable: this.retryable,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

export class UnauthorizedError extends ApiError {}
export class ForbiddenError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ValidationError extends ApiError {}
export class LimitExceededError extends ApiError {}
export class ConflictError extends ApiError {}
export class UpstreamError extends ApiError {}
export class RateLimitedError extends ApiError {}
export class MethodNotAllowedError extends ApiError {}

/** A 2xx response the client could not use: not JSON, or not the shape the caller's schema expects. */
export class ApiResponseError extends ApiError {}

/**
 * No HTTP response arrived: connection refused or reset, DNS failure, TLS failure, timeout.
 * `notSent` is true only when the request surely never reached the server (the connection was
 * never established), which is what makes retrying a POST safe.
 */
export class NetworkError extends ApiError {
  readonly notSent: boolean;
  /** The system or undici error code (ECONNREFUSED, UND_ERR_SOCKET, ...), when known. */
  readonly causeCode?: string;

  constructor(init: ApiErrorInit & { notSent: boolean; causeCode?: string }) {
    super(init);
    this.notSent = init.notSent;
    if (init.causeCode !== undefined) this.causeCode = init.causeCode;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), notSent: this.notSent, ...(this.causeCode ? { causeCode: this.causeCode } : {}) };
  }
}

// Names live on the prototypes (not as own fields) so they stay out of JSON/inspect property
// lists and survive a minifying bundler.
for (const [cls, name] of [
  [ApiError, "ApiError"],
  [UnauthorizedError, "UnauthorizedError"],
  [ForbiddenError, "ForbiddenError"],
  [NotFoundError, "NotFoundError"],
  [ValidationError, "ValidationError"],
  [LimitExceededError, "LimitExceededError"],
  [ConflictError, "ConflictError"],
  [UpstreamError, "UpstreamError"],
  [RateLimitedError, "RateLimitedError"],
  [MethodNotAllowedError, "MethodNotAllowedError"],
  [ApiResponseError, "ApiResponseError"],
  [NetworkError, "NetworkError"],
] as const) {
  Object.defineProperty(cls.prototype, "name", { value: name, writable: true, configurable: true });
}

const CLASS_BY_CODE: Record<KnownErrorCode, new (init: ApiErrorInit) => ApiError> = {
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  validation_error: ValidationError,
  limit_exceeded: LimitExceededError,
  conflict: ConflictError,
  upstream_error: UpstreamError,
  rate_limited: RateLimitedError,
  method_not_allowed: MethodNotAllowedError,
};

function isKnownCode(code: string): code is KnownErrorCode {
  return Object.hasOwn(CLASS_BY_CODE, code);
}

export interface ErrorResponse {
  method: string;
  /** Path relative to the base URL (no query string). */
  path: string;
  status: number;
  /** The raw response body text. */
  body: string;
  headers?: HeadersLike;
  /** Values to scrub from any server text copied into the error (the API token). */
  secrets?: readonly string[];
  /** Clock for HTTP-date Retry-After values; defaults to Date.now(). */
  nowMs?: number;
}

/**
 * Builds the typed error for a non-2xx response. The class follows the body's `error.code`;
 * the status is used only when the body carries no code (then the code is `http_<status>` and
 * the class is the base ApiError, so a bare 404 from a proxy is never mistaken for a missing
 * object), and to decide retryability for such code-less answers.
 */
export function errorFromResponse(res: ErrorResponse): ApiError {
  const { method, path, status } = res;
  const secrets = res.secrets ?? [];
  const nowMs = res.nowMs ?? Date.now();

  let code: string | undefined;
  let serverMessage = "";
  const parsed = tryParseJson(res.body);
  if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.code === "string" && parsed.error.code !== "") {
    code = parsed.error.code;
    if (typeof parsed.error.message === "string") serverMessage = parsed.error.message;
  }

  if (code === undefined) {
    code = `http_${status}`;
    serverMessage = describeCodelessBody(res, parsed);
  }
  serverMessage = truncate(scrub(serverMessage, secrets));

  const rateLimited = code === "rate_limited" || code === "http_429";
  let retryAfterMs = parseRetryAfter(res.headers?.get("retry-after"), nowMs);
  if (retryAfterMs === undefined && rateLimited) {
    retryAfterMs = parseRateLimitReset(res.headers?.get("x-ratelimit-reset"), nowMs);
  }

  const init: ApiErrorInit = {
    code,
    status,
    method,
    path,
    serverMessage,
    retryable: isRetryable(code, status, method),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  const Cls = isKnownCode(code) ? CLASS_BY_CODE[code] : ApiError;
  return new Cls(init);
}

/**
 * A rate-limit refusal happens before the request is processed, so it is retryable for every
 * method. A transient server failure is retryable only for repeatable methods. Known codes decide
 * on their own: a `conflict` that arrives with a 5xx status is still a conflict.
 */
function isRetryable(code: string, status: number, method: string): boolean {
  if (code === "rate_limited" || code === "http_429") return true;
  const transient = code === "upstream_error" || (!isKnownCode(code) && status >= 500);
  return transient && isRepeatable(method);
}

function describeCodelessBody(res: ErrorResponse, parsed: unknown): string {
  if (res.status >= 300 && res.status < 400) {
    const location = res.headers?.get("location");
    return `unexpected redirect${location ? ` to ${location}` : ""} (check the base URL)`;
  }
  if (isRecord(parsed) && typeof parsed.message === "string") return parsed.message;
  if (res.body.trim() === "") return "empty response body";
  return res.body;
}

/** True for an API answer with `error.code` `not_found` (never for a code-less 404). */
export function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.code === "not_found";
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

// Connection-phase failures: the TCP/TLS connection never came up, so no byte of the request
// left this process.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NODATA",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

// Certificate problems do not heal by retrying; failing fast gives a clearer error sooner.
function isPermanentTlsCode(code: string): boolean {
  return (
    code.startsWith("CERT_") ||
    code.startsWith("ERR_TLS_CERT") ||
    code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" ||
    code === "DEPTH_ZERO_SELF_SIGNED_CERT" ||
    code === "SELF_SIGNED_CERT_IN_CHAIN" ||
    code === "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"
  );
}

/**
 * Turns whatever fetch threw into a NetworkError. undici wraps the socket error as
 * `TypeError('fetch failed', { cause })`, sometimes with an AggregateError (IPv4 + IPv6 attempts)
 * in between, so the cause chain is searched for a system error code.
 */
export function networkErrorFrom(
  err: unknown,
  ctx: { method: string; path: string; timedOut?: boolean; secrets?: readonly string[] },
): NetworkError {
  const secrets = ctx.secrets ?? [];
  const causeCode = findErrorCode(err);
  const detail = truncate(scrub(describeThrown(err), secrets));
  const base = { status: 0, method: ctx.method, path: ctx.path, cause: sanitizedCause(err, secrets) };
  if (ctx.timedOut) {
    return new NetworkError({
      ...base,
      code: "timeout",
      serverMessage: "no response before the per-attempt timeout",
      notSent: false,
      retryable: isRepeatable(ctx.method),
    });
  }
  const notSent = causeCode !== undefined && NOT_SENT_CODES.has(causeCode);
  const permanent = causeCode !== undefined && isPermanentTlsCode(causeCode);
  return new NetworkError({
    ...base,
    code: "network_error",
    serverMessage: `${detail}${notSent ? " (request not sent)" : ""}`,
    notSent,
    retryable: !permanent && (notSent || isRepeatable(ctx.method)),
    ...(causeCode === undefined ? {} : { causeCode }),
  });
}

function findErrorCode(err: unknown, depth = 0): string | undefined {
  if (!isRecord(err) || depth > 6) return undefined;
  if (typeof err.code === "string" && /^[A-Z][A-Z0-9_]+$/.test(err.code)) return err.code;
  if (Array.isArray(err.errors)) {
    for (const inner of err.errors) {
      const c = findErrorCode(inner, depth + 1);
      if (c) return c;
    }
  }
  return findErrorCode(err.cause, depth + 1);
}

function describeThrown(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur !== undefined && cur !== null; i++) {
    if (cur instanceof Error) {
      if (cur.message && !parts.includes(cur.message)) parts.push(cur.message);
      cur = cur.cause;
    } else {
      parts.push(String(cur));
      break;
    }
  }
  return parts.join(": ") || "request failed";
}

// The raw error from fetch can hold anything the transport chose to attach (for a mock, even the
// request init with its headers), so only a scrubbed name/code/message copy is kept as `cause`.
function sanitizedCause(err: unknown, secrets: readonly string[]): Error | undefined {
  if (err === undefined || err === null) return undefined;
  const e = new Error(scrub(describeThrown(err), secrets));
  e.name = err instanceof Error ? err.name : "Error";
  const code = findErrorCode(err);
  if (code) (e as Error & { code?: string }).code = code;
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
