// The emulator as an app object: a request handler plus its state, built without listening so
// tests can drive it in-process and server.ts can put it on a socket.
//
// Order of the pipeline for /api/v1 (each step may answer and stop):
//   count -> fault -> read body -> auth -> rate limit -> route match (404/405) -> scope
//   -> body size -> JSON -> query/body validation -> handler.
// Auth comes before routing so that an unauthenticated caller learns nothing about paths, and
// so that every /api/v1 answer can carry the caller's rate-limit headers.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { type Alternative, AlternativeSet, shapeOutcome } from "./alternatives";
import { handleControl } from "./control";
import { recheckActiveZones } from "./dns/delegation";
import { ACCOUNT_NAME_RE, type AccountCredentials, type AccountSpec, type EmulatorApp } from "./emulator-app";
import { ApiError, notFound } from "./errors";
import { FaultInjector } from "./faults";
import { API_PREFIX, MAX_BODY_BYTES, type Outcome, errorOutcome, parseJsonBody, readBody, send } from "./http";
import { PublicDns } from "./public-dns";
import { RateLimiter } from "./rate-limit";
import { type Ctx, type Env, type MatchResult, type Route, Router } from "./router";
import { allRoutes } from "./routes";
import { NO_TOKEN, Stats, UNKNOWN_TOKEN } from "./stats";
import { Store, type TokenRecord } from "./store";
import { TOKEN_RE, newToken } from "./util/random";
import { isoTime } from "./util/time";
import { DEFAULT_PARTNER_TOKEN_TTL_SECONDS, noteRevoked, setPartnerTokenTtl } from "./partner/state";
import { parseOrThrow } from "./validation";

export interface BuildOptions {
  /** Default: one account `demo` with a random write token. */
  accounts?: AccountSpec[];
  /** Requests per minute per token; default 300; 0 disables the limit and its headers. */
  rateLimitPerMinute?: number;
  now?: () => number;
  /** The largest request body (default 1 MiB); it also caps a route's own larger limit (the zone-file import's). */
  maxBodyBytes?: number;
  /** Replaces the API routes (tests of the router itself). */
  routes?: Route[];
  /** Other answers to points the API leaves "not shown" (see alternatives.ts); default none. */
  alternatives?: Alternative[];
  /** Lifetime of the credentials a partner mints for a customer; default 900 s. */
  partnerTokenTtlSeconds?: number;
}

const EMPTY_QUERY = z.strictObject({});

export function buildApp(options: BuildOptions = {}): EmulatorApp {
  const now = options.now ?? Date.now;
  const store = new Store(now);
  const publicDns = new PublicDns();
  const faults = new FaultInjector();
  const counters = new Stats();
  const rateLimiter = new RateLimiter(options.rateLimitPerMinute ?? 300, now);
  const router = new Router(options.routes ?? allRoutes);
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const alternatives = new AlternativeSet(options.alternatives);
  const env: Env = { store, publicDns, now, alternatives };
  const timers = new Set<NodeJS.Timeout>();
  const held = new Set<IncomingMessage>();
  setPartnerTokenTtl(store, options.partnerTokenTtlSeconds ?? DEFAULT_PARTNER_TOKEN_TTL_SECONDS);

  const addAccount = (spec: AccountSpec): AccountCredentials => {
    if (!ACCOUNT_NAME_RE.test(spec.name)) {
      throw new ApiError("validation_error", "name: must be letters, digits, hyphens or underscores (max 63)");
    }
    const token = spec.token ?? newToken();
    if (!TOKEN_RE.test(token))
      throw new ApiError("validation_error", "token: must be svc_ followed by 32 lowercase hex characters");
    const existing = store.tokens.get(token);
    if (existing && existing.account !== spec.name)
      throw new ApiError("conflict", "token: already belongs to another account");
    const scope = spec.scope ?? "write";
    store.addToken(spec.name, token, scope);
    return { name: spec.name, token, scope };
  };

  const accounts = (options.accounts ?? [{ name: "demo" }]).map(addAccount);

  const later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };
  /** Latency waits still running; releasing one ends it now. */
  const delayed = new Set<() => void>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const go = () => {
        delayed.delete(go);
        clearTimeout(t);
        timers.delete(t);
        resolve();
      };
      const t = later(ms, go);
      delayed.add(go);
    });

  function bearerOf(req: IncomingMessage): string | null {
    const h = req.headers.authorization;
    if (!h) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    return m ? (m[1] ?? "") : null;
  }

  function authenticate(req: IncomingMessage): TokenRecord | null {
    const bearer = bearerOf(req);
    return bearer === null ? null : (store.tokens.get(bearer) ?? null);
  }

  /** Whose request this is for the statistics, known before any step may refuse it: an expired or revoked token keeps its name. */
  function tokenLabel(req: IncomingMessage): string {
    if (!req.headers.authorization) return NO_TOKEN;
    const bearer = bearerOf(req);
    return (bearer !== null && store.tokenLabels.get(bearer)) || UNKNOWN_TOKEN;
  }

  /** A route may take larger bodies than the rest (zone files), up to an explicit `maxBodyBytes` option. */
  const bodyLimit = (match: MatchResult): number => {
    const own = match.kind === "found" ? match.route.maxBodyBytes : undefined;
    if (own === undefined) return maxBody;
    return options.maxBodyBytes === undefined ? own : Math.min(own, options.maxBodyBytes);
  };

  async function runApi(
    req: IncomingMessage,
    url: URL,
    match: MatchResult,
    body: Buffer,
    oversize: boolean,
  ): Promise<Outcome> {
    const found = authenticate(req);
    const expiredAt = found?.expires_at !== undefined && now() >= found.expires_at ? found.expires_at : undefined;
    const token = expiredAt === undefined ? found : null;
    if (!token) {
      // Without a valid token the bucket is the client address, so floods of bad tokens are throttled too.
      const d = rateLimiter.take(`addr:${req.socket.remoteAddress ?? "?"}`);
      if (!d.allowed) return errorOutcome(new ApiError("rate_limited", "too many requests; retry later"), d.headers);
      const msg =
        expiredAt !== undefined
          ? `the credential expired at ${isoTime(expiredAt)}; mint a new one`
          : req.headers.authorization
            ? "invalid or unknown bearer token"
            : "missing bearer token";
      return errorOutcome(new ApiError("unauthorized", msg), d.headers);
    }
    // Every credential minted for one customer draws on one bucket: renewing buys no fresh quota,
    // and a client that reads with one credential and writes with another sees one Remaining.
    const bucket = token.acting_for
      ? `customer:${token.acting_for.partner}/${token.acting_for.subject}`
      : `token:${token.token}`;
    const rl = rateLimiter.take(bucket);
    if (!rl.allowed) {
      return errorOutcome(
        new ApiError("rate_limited", `rate limit of ${rateLimiter.perMinute} requests per minute exceeded`),
        rl.headers,
      );
    }
    const headers = rl.headers;
    try {
      if (match.kind === "not_found") throw notFound("path");
      if (match.kind === "method_not_allowed") {
        throw new ApiError(
          "method_not_allowed",
          `method ${req.method ?? ""} not allowed; use ${match.allow.join(", ")}`,
          {
            headers: { Allow: match.allow.join(", ") },
          },
        );
      }
      const r = match.route;
      const canWrite = token.scope === "write" || (token.scope === "link" && r.linkWrite === true);
      if (r.scope === "write" && !canWrite) {
        throw new ApiError("forbidden", `this endpoint needs a write-scope token; this token has scope ${token.scope}`);
      }
      if (oversize) {
        throw new ApiError("validation_error", `body: must be at most ${bodyLimit(match)} bytes`, { status: 413 });
      }
      const query = parseOrThrow(r.query ?? EMPTY_QUERY, Object.fromEntries(url.searchParams), "query");
      const parsedBody = r.body ? parseOrThrow(r.body, parseJsonBody(body), "body") : undefined;
      const account = store.accounts.get(token.account);
      if (!account) throw new ApiError("unauthorized", "the token's account no longer exists");
      let status: number | null = null;
      const extra: Record<string, string> = {};
      const ctx: Ctx<string, unknown, unknown> = {
        ...env,
        params: match.params as Ctx<string, unknown, unknown>["params"],
        body: parsedBody,
        query,
        account,
        token,
        status: (code) => {
          status = code;
        },
        header: (k, v) => {
          extra[k] = v;
        },
      };
      const result = await r.handler(ctx);
      return { status: status ?? (result === undefined ? 204 : 200), headers: { ...headers, ...extra }, body: result };
    } catch (e) {
      if (e instanceof ApiError) return errorOutcome(e, headers);
      process.stderr.write(
        `nsp-emulator: internal error on ${req.method} ${url.pathname}: ${(e as Error).stack ?? String(e)}\n`,
      );
      return errorOutcome(new ApiError("upstream_error", "internal emulator error", { status: 500 }), headers);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("X-Service-Api-Version", "1");
    const method = (req.method ?? "GET").toUpperCase();
    // Concatenated, not resolved against a base, so "//x" stays a path instead of becoming a host.
    const raw = req.url ?? "/";
    const url = new URL(`http://emulator.invalid${raw.startsWith("/") ? raw : `/${raw}`}`);
    const path = url.pathname;
    if (path === "/_emulator" || path.startsWith("/_emulator/")) {
      await handleControl(app, req, res, url, maxBody);
      return;
    }
    const inApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    const rel = inApi ? path.slice(API_PREFIX.length).replace(/(.)\/$/, "$1") || "/" : null;
    const match: MatchResult = rel !== null ? router.match(method, rel) : { kind: "not_found" };
    const caller = tokenLabel(req);
    counters.request(method, match.kind === "found" ? match.key : `${method} (no route)`, caller);

    const fault = inApi ? faults.decide(method, path) : null;
    if (fault) counters.fault(fault.kind);
    if (fault?.kind === "reset_before") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "timeout") {
      const t = later(fault.timeoutMs, () => req.socket.destroy());
      held.add(req);
      req.socket.once("close", () => {
        held.delete(req);
        clearTimeout(t);
        timers.delete(t);
      });
      return;
    }

    const body = await readBody(req, bodyLimit(match));
    if (body.aborted) return;
    const reply = (o: Outcome) => {
      const shaped = shapeOutcome(o, alternatives, now());
      counters.response(shaped.status, caller);
      send(res, shaped, body.mustClose);
    };

    if (fault?.kind === "rate_limit_storm") {
      reply(
        errorOutcome(new ApiError("rate_limited", "too many requests (injected fault)"), {
          "Retry-After": "1",
          "X-RateLimit-Limit": String(rateLimiter.perMinute),
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": "1",
        }),
      );
      return;
    }
    if (fault?.kind === "error5xx") {
      reply(
        errorOutcome(new ApiError("upstream_error", "upstream failure (injected fault)", { status: fault.status })),
      );
      return;
    }
    if (fault?.kind === "latency") await delay(fault.latencyMs);

    if (rel === null) {
      reply(errorOutcome(notFound("path")));
      return;
    }
    const outcome = await runApi(req, url, match, body.buf, body.oversize);
    if (fault?.kind === "reset_after") {
      // The handler ran and its write stands; only the answer is lost.
      req.socket.destroy();
      return;
    }
    reply(outcome);
  }

  const app: EmulatorApp = {
    handler: (req, res) => {
      handle(req, res).catch((e: unknown) => {
        process.stderr.write(`nsp-emulator: ${(e as Error).stack ?? String(e)}\n`);
        if (!res.headersSent)
          send(res, errorOutcome(new ApiError("upstream_error", "internal emulator error", { status: 500 })));
      });
    },
    store,
    faults,
    publicDns,
    rateLimiter,
    router,
    counters,
    alternatives,
    accounts,
    stats: () => counters.snapshot(),
    resetStats: () => counters.reset(),
    addAccount,
    revokeToken: (token) => {
      noteRevoked(store, token);
      return store.revokeToken(token);
    },
    recheckDelegations: () => recheckActiveZones(store, publicDns),
    releaseHeld: () => {
      const n = held.size + delayed.size;
      for (const req of held) req.socket.destroy();
      for (const go of delayed) go();
      return n;
    },
    shutdown: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
  return app;
}
