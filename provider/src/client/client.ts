import { inspect } from "node:util";
import { Agent, fetch as undiciFetch } from "undici";
import type { ZodType } from "zod";
import {
  ApiError,
  ApiResponseError,
  NetworkError,
  NotFoundError,
  errorFromResponse,
  isNotFound,
  isRecord,
  networkErrorFrom,
} from "./errors";
import { DEFAULT_PAGE_SIZE, MAX_PAGES, readPage } from "./paging";
import { type QuotaPacing, RateLimiter, type WaitReason } from "./rate-limiter";
import { scrub, truncate } from "./redact";
import {
  MAX_SERVER_WAIT_MS,
  backoffDelay,
  defaultSleep,
  readRateLimitHeaders,
  type HeadersLike,
  type HttpMethod,
} from "./retry";

export type LogLevel = "debug" | "info" | "warn";

/** What the client passes to `fetch`. The Authorization header is only ever built here. */
export interface FetchInit {
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: "manual";
}

/** The part of a fetch Response the client uses; a WHATWG `Response` satisfies it. */
export interface FetchResponse {
  status: number;
  headers: HeadersLike;
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** Where a client gets the bearer credential of each request, when it is not one fixed token. */
export interface BearerSource {
  bearer(method: HttpMethod): Promise<string>;
  /**
   * A request sent with `bearer` was answered unauthorized: the next bearer() must not be it.
   * True when the credential had outlived its life by then (the request took longer than the
   * credential lives), so that a fresh one may still be taken; false when it was refused in its
   * lifetime (revoked), which no fresh credential changes.
   */
  refused(bearer: string): boolean;
}

export interface ApiClientOptions {
  /** Service address including the version prefix, e.g. `https://api.example.net/api/v1`. */
  baseUrl: string;
  token: string;
  /** Client-side request budget per minute (default 300, the documented per-token limit); 0 = none. */
  requestsPerMinute?: number;
  /** How the budget is paced when other processes spend the same token (default `shared`). */
  pacing?: QuotaPacing;
  /** Retries after the first attempt (default 5). */
  maxRetries?: number;
  /** Per attempt, including reading the body (default 30000). */
  timeoutMs?: number;
  userAgent?: string;
  fetch?: FetchLike;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  onLog?: (level: LogLevel, message: string) => void;
  /** Told of every write (non-GET), when it starts and when it ends, so caches can drop what it changed. */
  onWrite?: (method: HttpMethod, path: string) => void;
  /** Partner mode: each request carries a credential from here instead of `token`. */
  credentials?: BearerSource;
}

export type QueryScalar = string | number | boolean;
export type Query = Record<string, QueryScalar | readonly QueryScalar[] | null | undefined>;

/**
 * A zod schema validating a response. `z.object` drops unknown keys and `z.looseObject` keeps
 * them; both tolerate fields the API adds later. Do not use `z.strictObject` for responses.
 */
export type ResponseSchema<T> = ZodType<T>;

export interface RequestOptions<T> {
  query?: Query;
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
}

export interface ListOptions<T> {
  query?: Query;
  /** Validates each item; the list fails with ApiResponseError naming the first bad item. */
  itemSchema?: ResponseSchema<T>;
  /** `limit` sent with each page (default 500). */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface ClientStats {
  /** HTTP attempts sent, retries included. */
  requests: number;
  retries: number;
  /** 429 rate-limit answers seen. */
  rateLimited: number;
  /** Time spent waiting for the client-side quota or for server-requested pauses. */
  throttledMs: number;
}

const DEFAULTS = {
  requestsPerMinute: 300,
  maxRetries: 5,
  timeoutMs: 30_000,
  userAgent: "pulumi-nsp-provider",
};

/** A wait of at least this long is reported through onLog('info'), so a slow `up` explains itself. */
const LONG_WAIT_LOG_MS = 5_000;

/** Longest excerpt of an unusable 2xx body copied into an ApiResponseError. */
const BODY_EXCERPT_CHARS = 200;

/**
 * HTTP client for the Network Services Platform API: bearer auth, JSON, typed errors, retries
 * with backoff, a shared client-side rate limiter and limit/offset paging.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: FetchLike;
  readonly #agent: Agent | undefined;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #onLog: ((level: LogLevel, message: string) => void) | undefined;
  readonly #onWrite: ((method: HttpMethod, path: string) => void) | undefined;
  readonly #credentials: BearerSource | undefined;
  readonly #limiter: RateLimiter;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #userAgent: string;
  readonly #stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, throttledMs: 0 };
  #versionWarned = false;
  /** The one check per client that the base URL reaches the API; see #explainNotFound. */
  #baseProbe: Promise<BaseUrlVerdict> | undefined;

  constructor(options: ApiClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`baseUrl is not a valid URL: ${truncate(String(options.baseUrl), 100)}`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new TypeError(`baseUrl must use http or https, got ${url.protocol}`);
    }
    if (typeof options.token !== "string" || options.token === "") {
      throw new TypeError("token must be a non-empty string");
    }
    // Query and fragment on a base URL would be silently mangled by path joining.
    url.search = "";
    url.hash = "";
    this.baseUrl = url.toString().replace(/\/+$/, "");
    this.#token = options.token;
    this.#maxRetries = nonNegativeInt(options.maxRetries, DEFAULTS.maxRetries, "maxRetries");
    this.#timeoutMs = nonNegativeInt(options.timeoutMs, DEFAULTS.timeoutMs, "timeoutMs");
    this.#userAgent = options.userAgent ?? DEFAULTS.userAgent;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#onLog = options.onLog;
    this.#onWrite = options.onWrite;
    this.#credentials = options.credentials;
    this.#limiter = new RateLimiter({
      requestsPerMinute: options.requestsPerMinute ?? DEFAULTS.requestsPerMinute,
      pacing: options.pacing,
      now: this.#now,
      sleep: this.#sleep,
      random: this.#random,
    });
    if (options.fetch) {
      this.#fetch = options.fetch;
    } else {
      // One Agent per client keeps connections alive between calls of this client only, so two
      // provider instances (two accounts) never share sockets.
      const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000 });
      this.#agent = agent;
      this.#fetch = (url, init) => undiciFetch(url, { ...init, dispatcher: agent });
    }
  }

  get<T = unknown>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    return this.#call("GET", path, undefined, opts);
  }

  /** The object at `path`, or undefined when the API answers `not_found` (a Read of a deleted object). */
  async getOrUndefined<T = unknown>(path: string, opts: RequestOptions<T> = {}): Promise<T | undefined> {
    try {
      return await this.#call("GET", path, undefined, opts);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  post<T = unknown>(path: string, body?: unknown, opts: RequestOptions<T> = {}): Promise<T> {
    return this.#call("POST", path, body, opts);
  }

  put<T = unknown>(path: string, body?: unknown, opts: RequestOptions<T> = {}): Promise<T> {
    return this.#call("PUT", path, body, opts);
  }

  patch<T = unknown>(path: string, body?: unknown, opts: RequestOptions<T> = {}): Promise<T> {
    return this.#call("PATCH", path, body, opts);
  }

  delete<T = unknown>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    return this.#call("DELETE", path, undefined, opts);
  }

  /**
   * One page of a list endpoint from `offset`, and where the next one starts (null after the
   * last). An ApiResponseError when the server does not move forward (a repeated or smaller offset).
   */
  async listPage<T = unknown>(
    path: string,
    offset: number,
    opts: ListOptions<T> = {},
  ): Promise<{ items: T[]; nextOffset: number | null }> {
    const limit = opts.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`pageSize must be a positive integer, got ${limit}`);
    const body = await this.#request("GET", path, undefined, { ...opts.query, limit, offset }, opts.signal);
    const read = readPage(body.data, { limit, offset });
    if (!read.ok) throw this.#responseError("GET", path, body.status, `list page at offset ${offset}: ${read.problem}`);
    const items = opts.itemSchema
      ? this.#validateItems(path, body.status, offset, read.items, opts.itemSchema)
      : (read.items as T[]);
    if (read.nextOffset !== null && read.nextOffset <= offset) {
      throw this.#responseError(
        "GET",
        path,
        body.status,
        `list page at offset ${offset} gave next_offset ${read.nextOffset}, which does not move forward; stopping instead of looping`,
      );
    }
    return { items, nextOffset: read.nextOffset };
  }

  /** Yields the pages of a list endpoint in order, following `next_offset`. */
  async *paginate<T = unknown>(path: string, opts: ListOptions<T> = {}): AsyncGenerator<T[], void, undefined> {
    let offset = 0;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) {
        throw this.#responseError("GET", path, 200, `gave up after ${MAX_PAGES} pages; the list never ended`);
      }
      const { items, nextOffset } = await this.listPage(path, offset, opts);
      yield items;
      if (nextOffset === null) return;
      offset = nextOffset;
    }
  }

  /** All items of a list endpoint, every page fetched. */
  async listAll<T = unknown>(path: string, opts: ListOptions<T> = {}): Promise<T[]> {
    const all: T[] = [];
    for await (const page of this.paginate(path, opts)) all.push(...page);
    return all;
  }

  /**
   * All items of a list, or undefined when the API answers `not_found` because the list's parent
   * is gone (a Read of a child the API has no GET of one for).
   */
  async listAllOrUndefined<T = unknown>(path: string, opts: ListOptions<T> = {}): Promise<T[] | undefined> {
    try {
      return await this.listAll(path, opts);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  stats(): ClientStats {
    return { ...this.#stats };
  }

  /** The configured client-side budget (0: no pacing), for messages that say how long a run of requests takes. */
  get requestsPerMinute(): number {
    return this.#limiter.requestsPerMinute;
  }

  /** Closes this client's keep-alive connections. Calls made afterwards fail. */
  async close(): Promise<void> {
    await this.#agent?.close();
  }

  // util.inspect and JSON never see private fields, but an explicit view also keeps future
  // public fields from leaking by accident.
  [inspect.custom](): string {
    return `ApiClient { baseUrl: ${JSON.stringify(this.baseUrl)}, requestsPerMinute: ${this.#limiter.requestsPerMinute}, maxRetries: ${this.#maxRetries} }`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, requestsPerMinute: this.#limiter.requestsPerMinute, maxRetries: this.#maxRetries };
  }

  async #call<T>(method: HttpMethod, path: string, body: unknown, opts: RequestOptions<T>): Promise<T> {
    const write = method !== "GET";
    if (write) this.#onWrite?.(method, path);
    const res = await this.#request(method, path, body, opts.query, opts.signal).finally(() => {
      if (write) this.#onWrite?.(method, path);
    });
    if (!opts.schema) return res.data as T;
    const parsed = opts.schema.safeParse(res.data);
    if (parsed.success) return parsed.data;
    const what =
      res.data === undefined
        ? "the response body is empty but a value was expected"
        : `the response does not have the expected shape: ${formatIssues(parsed.error.issues)}`;
    throw this.#responseError(method, path, res.status, what);
  }

  #validateItems<T>(path: string, status: number, offset: number, items: unknown[], schema: ResponseSchema<T>): T[] {
    const out: T[] = [];
    for (let i = 0; i < items.length; i++) {
      const parsed = schema.safeParse(items[i]);
      if (!parsed.success) {
        throw this.#responseError(
          "GET",
          path,
          status,
          `list item ${offset + i} does not have the expected shape: ${formatIssues(parsed.error.issues)}`,
        );
      }
      out.push(parsed.data);
    }
    return out;
  }

  /** One logical request: rate limiting, attempts, retries. Returns the parsed JSON body (undefined when empty). */
  async #request(
    method: HttpMethod,
    path: string,
    body: unknown,
    query: Query | undefined,
    signal: AbortSignal | undefined,
    isProbe = false,
  ): Promise<{ status: number; data: unknown }> {
    const cleanPath = stripQuery(path);
    const url = this.#url(path, query);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const attempts = this.#maxRetries + 1;
    let renewedCredential = false;

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const turn = await this.#limiter.acquire(signal);
      if (turn.waitedMs > 0) {
        this.#stats.throttledMs += turn.waitedMs;
        if (turn.waitedMs >= LONG_WAIT_LOG_MS) this.#logLongWait(method, cleanPath, turn.waitedMs, turn.reason);
      }

      const bearer = this.#credentials ? await this.#credentials.bearer(method) : this.#token;
      this.#stats.requests++;
      const started = this.#now();
      let res: { status: number; headers: HeadersLike; text: string };
      try {
        res = await this.#attempt(method, url, cleanPath, payload, signal, bearer);
      } catch (e) {
        this.#limiter.observe({});
        if (!(e instanceof NetworkError)) throw e;
        if (!e.retryable || attempt + 1 >= attempts) throw e;
        const delay = backoffDelay(attempt, this.#random);
        this.#log(
          "debug",
          `${method} ${cleanPath}: ${e.code}${e.causeCode ? ` (${e.causeCode})` : ""}, retrying in ${seconds(delay)} (attempt ${attempt + 2} of ${attempts})`,
        );
        await this.#sleep(delay, signal);
        this.#stats.retries++;
        continue;
      }

      const now = this.#now();
      this.#log("debug", `${method} ${url.slice(this.baseUrl.length)} -> ${res.status} in ${now - started} ms`);
      this.#limiter.observe({ ...readRateLimitHeaders(res.headers, now), rejected: res.status === 429 });
      this.#checkApiVersion(res.headers);

      if (res.status >= 200 && res.status < 300) {
        return { status: res.status, data: this.#parseBody(method, cleanPath, res.status, res.text) };
      }

      const err = errorFromResponse({
        method,
        path: cleanPath,
        status: res.status,
        body: res.text,
        headers: res.headers,
        secrets: [this.#token],
        nowMs: now,
      });
      if (res.status === 404 && !isProbe) throw await this.#explainNotFound(err);
      // A minted credential may expire or be revoked between its check and its use: one fresh
      // credential, one more try, not counted as a retry. A fresh one refused too is the answer,
      // unless it had outlived its life on the way (a slow server, a loaded machine): then
      // another, counted as a retry.
      if (this.#credentials && (err.code === "unauthorized" || res.status === 401)) {
        const outlived = this.#credentials.refused(bearer);
        if (!renewedCredential || (outlived && attempt + 1 < attempts)) {
          this.#log(
            "debug",
            `${method} ${cleanPath}: the customer credential was refused${outlived ? " after its expiry" : ""}; minting a fresh one`,
          );
          if (renewedCredential) this.#stats.retries++;
          else attempt--;
          renewedCredential = true;
          continue;
        }
      }
      const rateLimited = err.code === "rate_limited" || err.code === "http_429";
      let delay = err.retryAfterMs ?? backoffDelay(attempt, this.#random);
      if (rateLimited) {
        this.#stats.rateLimited++;
        // Every other request of this client waits too: they share the token's server bucket.
        if (delay <= MAX_SERVER_WAIT_MS) this.#limiter.pauseUntil(now + delay);
      }
      if (!err.retryable || attempt + 1 >= attempts) throw err;
      if (delay > MAX_SERVER_WAIT_MS) {
        this.#log(
          "warn",
          `${method} ${cleanPath}: server asks to wait ${seconds(delay)}, longer than the ${seconds(MAX_SERVER_WAIT_MS)} the client waits; giving up`,
        );
        throw err;
      }
      delay = Math.max(0, delay);
      this.#log(
        "debug",
        `${method} ${cleanPath}: ${res.status} ${err.code}, retrying in ${seconds(delay)} (attempt ${attempt + 2} of ${attempts})`,
      );
      await this.#sleep(delay, signal);
      if (rateLimited) this.#stats.throttledMs += delay;
      this.#stats.retries++;
    }
  }

  /** One HTTP exchange with its own timeout. Throws NetworkError, or the caller's abort reason. */
  async #attempt(
    method: HttpMethod,
    url: string,
    path: string,
    payload: string | undefined,
    signal: AbortSignal | undefined,
    bearer: string,
  ): Promise<{ status: number; headers: HeadersLike; text: string }> {
    const ctrl = new AbortController();
    let timedOut = false;
    const timer =
      this.#timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            ctrl.abort(new Error(`timed out after ${this.#timeoutMs} ms`));
          }, this.#timeoutMs)
        : undefined;
    // Cancelling (Ctrl-C) stops waits and reads at once, but a write already on the wire is let
    // finish: aborting it would leave unknown whether the object was made, and the engine could
    // no longer record it. The per-attempt timeout still bounds it.
    const cancellable = method === "GET" ? signal : undefined;
    const onAbort = (): void => ctrl.abort(cancellable?.reason);
    cancellable?.addEventListener("abort", onAbort, { once: true });
    try {
      const headers: Record<string, string> = {
        accept: "application/json",
        "user-agent": this.#userAgent,
        authorization: `Bearer ${bearer}`,
      };
      if (payload !== undefined) headers["content-type"] = "application/json";
      const init: FetchInit = { method, headers, signal: ctrl.signal, redirect: "manual" };
      if (payload !== undefined) init.body = payload;
      const res = await this.#fetch(url, init);
      // Reading the body inside the same timeout/abort scope: a server that stalls mid-body
      // must fail the attempt, not hang it.
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (e) {
      if (cancellable?.aborted) throw cancellable.reason;
      throw networkErrorFrom(e, { method, path, timedOut, secrets: [this.#token] });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      cancellable?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * A 404 means "this object is gone" only when the base URL really is the API: a proxy in front
   * of it, or a base URL without its `/api/v1` prefix, answers 404 for every path, and taking
   * that at its word would drop every resource from state on refresh. So the first 404 of a
   * client checks `GET /me` once: when it answers, a 404 (with `not_found` or with no body at
   * all, as some deployments send) is a missing object; when it is itself a 404, every call
   * fails with an error that names `baseUrl`.
   */
  async #explainNotFound(err: ApiError): Promise<ApiError> {
    const verdict = await (this.#baseProbe ??= this.#probeBaseUrl());
    if (verdict === "unknown") {
      this.#baseProbe = undefined;
      return err;
    }
    if (verdict === "not_api") {
      const hint = /\/api\/v1$/.test(this.baseUrl) ? "" : ` (try ${this.baseUrl}/api/v1)`;
      return new ApiError({
        code: "base_url_not_api",
        status: err.status,
        method: err.method,
        path: err.path,
        serverMessage:
          `baseUrl ${this.baseUrl} does not reach the API: GET /me there answers 404 too. The base URL is ` +
          `probably missing its /api/v1 prefix${hint}; check the provider's baseUrl (nsp:baseUrl or NSP_BASE_URL).`,
        retryable: false,
      });
    }
    if (err.code !== `http_${err.status}`) return err;
    return new NotFoundError({
      code: "not_found",
      status: err.status,
      method: err.method,
      path: err.path,
      serverMessage:
        "404 without an error body; GET /me answers, so the base URL is right and the object does not exist",
      retryable: false,
    });
  }

  async #probeBaseUrl(): Promise<BaseUrlVerdict> {
    try {
      const me = await this.#request("GET", "/me", undefined, undefined, undefined, true);
      return isRecord(me.data) ? "api" : "unknown";
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return "not_api";
      this.#log(
        "debug",
        `GET /me, to check the base URL after a 404, failed: ${e instanceof Error ? e.message : String(e)}`,
      );
      return "unknown";
    }
  }

  #parseBody(method: HttpMethod, path: string, status: number, text: string): unknown {
    if (status === 204 || text.trim() === "") return undefined;
    try {
      return JSON.parse(text);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw this.#responseError(
        method,
        path,
        status,
        `the response body is not valid JSON (${truncate(why, 120)}); body (${text.length} characters) starts: ${truncate(text, BODY_EXCERPT_CHARS)}`,
      );
    }
  }

  #responseError(method: HttpMethod, path: string, status: number, what: string): ApiResponseError {
    return new ApiResponseError({
      code: "invalid_response",
      status,
      method,
      path: stripQuery(path),
      serverMessage: scrub(what, [this.#token]),
      retryable: false,
    });
  }

  #url(path: string, query: Query | undefined): string {
    const rel = path.startsWith("/") ? path : `/${path}`;
    let url = this.baseUrl + rel;
    const qs = encodeQuery(query);
    if (qs) url += (url.includes("?") ? "&" : "?") + qs;
    return url;
  }

  #checkApiVersion(headers: HeadersLike): void {
    if (this.#versionWarned) return;
    const v = headers.get("x-service-api-version");
    if (v !== null && v.trim() !== "1") {
      this.#versionWarned = true;
      this.#log("warn", `the server reports API version ${truncate(v, 20)}; this provider was written for version 1`);
    }
  }

  #logLongWait(method: string, path: string, waitedMs: number, reason: WaitReason | undefined): void {
    const why =
      reason === "server"
        ? "the server answered 429 rate_limited and every request of this client is paused until its Retry-After"
        : `the client-side request quota of ${this.#limiter.requestsPerMinute} requests per minute was used up`;
    this.#log("info", `${method} ${path} waited ${seconds(waitedMs)} before sending: ${why}`);
  }

  #log(level: LogLevel, message: string): void {
    if (!this.#onLog) return;
    try {
      this.#onLog(level, scrub(message, [this.#token]));
    } catch {
      // A failing log sink must not fail the API call.
    }
  }
}

/** What the `GET /me` probe says of the base URL: it is the API, it is not, or the probe failed. */
type BaseUrlVerdict = "api" | "not_api" | "unknown";

export function encodeQuery(query: Query | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value as readonly QueryScalar[]) params.append(key, String(v));
    else params.append(key, String(value));
  }
  return params.toString();
}

function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const shown = issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`);
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : "";
  return truncate(shown.join("; ") + more, 600);
}

function stripQuery(path: string): string {
  const q = path.indexOf("?");
  return q < 0 ? path : path.slice(0, q);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function nonNegativeInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}
