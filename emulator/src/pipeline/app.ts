// The emulator as a fastify app plus its state, built without listening so tests can drive it
// with inject() and server.ts can put it on a socket.
//
// Order of the pipeline for /api/v1 (each step may answer and stop):
//   onRequest:  count -> fault -> auth -> rate limit -> route match (404/405) -> scope
//   preParsing: with an injected latency, the body taken off the wire, the wait, then the
//               admission (auth ... scope) left for after it
//   parsing:    body size (413)
//   handler:    JSON -> query/body validation -> the route's handler.
// Auth comes before routing so that an unauthenticated caller learns nothing about paths, and
// so that every /api/v1 answer can carry the caller's rate-limit headers. Every answer, error or
// not, leaves through finish(), which applies the alternatives and counts it.
import { Readable } from "node:stream";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";
import { type Alternative, AlternativeSet, shapeOutcome } from "../control/alternatives";
import { registerControl } from "../control/control";
import { recheckActiveZones } from "../dns/delegation";
import { ACCOUNT_NAME_RE, type AccountCredentials, type AccountSpec, type EmulatorApp } from "./emulator-app";
import { ApiError, notFound } from "./errors";
import { type FaultDecision, FaultInjector } from "../control/faults";
import { ALL_METHODS, API_PREFIX, MAX_BODY_BYTES, type Outcome, errorOutcome, parseJsonBody, send } from "./http";
import { DEFAULT_PARTNER_TOKEN_TTL_SECONDS, noteRevoked, setPartnerTokenTtl } from "../partner/state";
import { PublicDns } from "../control/public-dns";
import { RateLimiter } from "./rate-limit";
import type { Ctx, Env, Route } from "./route";
import { allRoutes } from "./all-routes";
import { NO_TOKEN, Stats, UNKNOWN_TOKEN } from "../control/stats";
import { Store, type TokenRecord } from "../model/store";
import { TOKEN_RE, newToken } from "../util/random";
import { isoTime } from "../util/time";
import { parseOrThrow } from "./validation";

export interface BuildOptions {
  /** Default: one account `demo` with a random write token. */
  accounts?: AccountSpec[];
  /** Requests per minute per token; default 300; 0 disables the limit and its headers. */
  rateLimitPerMinute?: number;
  now?: () => number;
  /** The largest request body (default 1 MiB); it also caps a route's own larger limit (the zone-file import's). */
  maxBodyBytes?: number;
  /** Replaces the API routes (tests of the pipeline itself). */
  routes?: Route[];
  /** Other answers to points the API leaves "not shown" (see alternatives.ts); default none. */
  alternatives?: Alternative[];
  /** Lifetime of the credentials a partner mints for a customer; default 900 s. */
  partnerTokenTtlSeconds?: number;
}

const INT_SEGMENT = /^[1-9]\d{0,15}$/;
const EMPTY_QUERY = z.strictObject({});

/** What a fastify route of the API carries: the emulator route, or the methods its path allows. */
export type RouteConfig =
  | { route: Route; key: string; ints: string[]; strs: string[] }
  | { allow: string; ints: string[]; strs: string[] };

/** What the hooks learned about one /api/v1 request, for the steps after them. */
interface RequestState {
  caller: string;
  fault: FaultDecision | null;
  /** The caller's rate-limit headers, carried by every answer once known. */
  headers: Record<string, string>;
  token: TokenRecord | null;
  /** Authentication and the rest of the admission, left for after an injected latency. */
  admitLater?: () => void;
}

const states = new WeakMap<FastifyRequest, RequestState>();

/** `/a/:id/{name}` in fastify's syntax, with the names of the integer and the string segments. */
function fastifyPath(path: string): { url: string; ints: string[]; strs: string[] } {
  const ints: string[] = [];
  const strs: string[] = [];
  const url = path
    .split("/")
    .map((s) => {
      if (s.startsWith(":")) ints.push(s.slice(1));
      else if (s.startsWith("{") && s.endsWith("}")) {
        strs.push(s.slice(1, -1));
        return `:${s.slice(1, -1)}`;
      }
      return s;
    })
    .join("/");
  return { url: `${API_PREFIX}${url === "/" ? "" : url}`, ints, strs };
}

/** The route a request reached, or null when an id segment is no integer (the path then names nothing). */
function paramsFit(cfg: RouteConfig, params: Record<string, string>): Record<string, number | string> | null {
  const out: Record<string, number | string> = { ...params };
  for (const name of cfg.ints) {
    const v = params[name] ?? "";
    if (!INT_SEGMENT.test(v)) return null;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) return null;
    out[name] = n;
  }
  for (const name of cfg.strs) if (!params[name]) return null;
  return out;
}

export function buildApp(options: BuildOptions = {}): EmulatorApp {
  const now = options.now ?? Date.now;
  const store = new Store(now);
  const publicDns = new PublicDns();
  const faults = new FaultInjector();
  const counters = new Stats();
  const rateLimiter = new RateLimiter(options.rateLimitPerMinute ?? 300, now);
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const alternatives = new AlternativeSet(options.alternatives);
  const env: Env = { store, publicDns, now, alternatives };
  const timers = new Set<NodeJS.Timeout>();
  const held = new Set<FastifyRequest>();
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

  function bearerOf(header: string | undefined): string | null {
    if (!header) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return m ? (m[1] ?? "") : null;
  }

  /** Whose request this is for the statistics, known before any step may refuse it: an expired or revoked token keeps its name. */
  function tokenLabel(header: string | undefined): string {
    if (!header) return NO_TOKEN;
    const bearer = bearerOf(header);
    return (bearer !== null && store.tokenLabels.get(bearer)) || UNKNOWN_TOKEN;
  }

  /** Drops the connection without an answer (a fault), telling fastify the reply is not its to send. */
  function drop(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }

  /** Sends an /api/v1 answer as the active alternatives shape it, and counts it. */
  function finish(request: FastifyRequest, reply: FastifyReply, o: Outcome): FastifyReply {
    const st = states.get(request);
    // The handler ran and its write stands; only the answer is lost.
    if (st?.fault?.kind === "reset_after") return drop(request, reply);
    const shaped = shapeOutcome(o, alternatives, now());
    counters.response(shaped.status, st?.caller ?? NO_TOKEN);
    return send(reply, shaped);
  }

  /** Authenticates and rate-limits an /api/v1 request, then refuses it when its path or scope does not fit. */
  function admit(request: FastifyRequest, cfg: RouteConfig | undefined, fits: boolean, st: RequestState): void {
    const found = store.tokens.get(bearerOf(request.headers.authorization) ?? "") ?? null;
    const expiredAt = found?.expires_at !== undefined && now() >= found.expires_at ? found.expires_at : undefined;
    const token = expiredAt === undefined ? found : null;
    if (!token) {
      // Without a valid token the bucket is the client address, so floods of bad tokens are throttled too.
      const d = rateLimiter.take(`addr:${request.ip ?? "?"}`);
      st.headers = d.headers;
      if (!d.allowed) throw new ApiError("rate_limited", "too many requests; retry later");
      const msg =
        expiredAt !== undefined
          ? `the credential expired at ${isoTime(expiredAt)}; mint a new one`
          : request.headers.authorization
            ? "invalid or unknown bearer token"
            : "missing bearer token";
      throw new ApiError("unauthorized", msg);
    }
    // Every credential minted for one customer draws on one bucket: renewing buys no fresh quota,
    // and a client that reads with one credential and writes with another sees one Remaining.
    const bucket = token.acting_for
      ? `customer:${token.acting_for.partner}/${token.acting_for.subject}`
      : `token:${token.token}`;
    const rl = rateLimiter.take(bucket);
    st.headers = rl.headers;
    if (!rl.allowed) {
      throw new ApiError("rate_limited", `rate limit of ${rateLimiter.perMinute} requests per minute exceeded`);
    }
    if (!cfg || !fits) throw notFound("path");
    if ("allow" in cfg) {
      throw new ApiError("method_not_allowed", `method ${request.method} not allowed; use ${cfg.allow}`, {
        headers: { Allow: cfg.allow },
      });
    }
    const canWrite = token.scope === "write" || (token.scope === "link" && cfg.route.linkWrite === true);
    if (cfg.route.scope === "write" && !canWrite) {
      throw new ApiError("forbidden", `this endpoint needs a write-scope token; this token has scope ${token.scope}`);
    }
    st.token = token;
  }

  const fastify = Fastify({
    logger: false,
    exposeHeadRoutes: false,
    forceCloseConnections: true,
    bodyLimit: maxBody,
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      // Names in paths (zones, mail addresses) run far past find-my-way's default of 100.
      maxParamLength: 4096,
      // A repeated query parameter keeps its last value, as the API's single-valued parameters need.
      querystringParser: (s) => Object.fromEntries(new URLSearchParams(s)),
    },
    // A path that is not valid percent-encoding names nothing.
    frameworkErrors: (_err, _request, reply) => {
      reply.header("X-Service-Api-Version", "1");
      send(reply, errorOutcome(notFound("path")));
    },
  });
  // Bodies are read raw whatever their content type, and parsed as JSON only by routes that take one.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  fastify.addHook("onRequest", async (request, reply) => {
    reply.header("X-Service-Api-Version", "1");
    const path = request.url.split("?", 1)[0] ?? "/";
    if (path === "/_emulator" || path.startsWith("/_emulator/")) return;
    const inApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    const cfg = inApi ? (request.routeOptions.config as Partial<RouteConfig>) : undefined;
    const known = cfg && "ints" in cfg ? (cfg as RouteConfig) : undefined;
    const params = known ? paramsFit(known, request.params as Record<string, string>) : null;
    if (params) request.params = params;
    const st: RequestState = {
      caller: tokenLabel(request.headers.authorization),
      fault: null,
      headers: {},
      token: null,
    };
    states.set(request, st);
    const routeKey = known && params && "route" in known ? known.key : `${request.method} (no route)`;
    counters.request(request.method, routeKey, st.caller);

    const fault = inApi ? faults.decide(request.method, path) : null;
    st.fault = fault;
    if (fault) counters.fault(fault.kind);
    if (fault?.kind === "reset_before") return drop(request, reply);
    if (fault?.kind === "timeout") {
      reply.hijack();
      const t = later(fault.timeoutMs, () => request.raw.socket.destroy());
      held.add(request);
      request.raw.socket.once("close", () => {
        held.delete(request);
        clearTimeout(t);
        timers.delete(t);
      });
      return reply;
    }
    if (fault?.kind === "rate_limit_storm") {
      const headers = {
        "Retry-After": "1",
        "X-RateLimit-Limit": String(rateLimiter.perMinute),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "1",
      };
      return finish(
        request,
        reply,
        errorOutcome(new ApiError("rate_limited", "too many requests (injected fault)"), headers),
      );
    }
    if (fault?.kind === "error5xx") {
      const err = new ApiError("upstream_error", "upstream failure (injected fault)", { status: fault.status });
      return finish(request, reply, errorOutcome(err));
    }
    const admission = () => {
      if (!inApi) throw notFound("path");
      admit(request, known, params !== null, st);
    };
    if (fault?.kind === "latency") st.admitLater = admission;
    else admission();
  });

  // A slow server is slow after the request has arrived and before it looks at it: the body is
  // taken off the wire first, so a client killed while it waits does not take back what it sent
  // (the write still lands and is counted), and the credential is checked when the wait is over
  // (one that expires meanwhile is refused, as a slow server refuses it).
  fastify.addHook("preParsing", async (request, _reply, payload) => {
    const st = states.get(request);
    const fault = st?.fault;
    if (!st?.admitLater || fault?.kind !== "latency") return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(chunk as Buffer);
    await delay(fault.latencyMs);
    st.admitLater();
    const body = Buffer.concat(chunks);
    return Object.assign(Readable.from(body.length ? [body] : []), { receivedEncodedLength: body.length });
  });

  fastify.setErrorHandler((err, request, reply) => {
    const st = states.get(request);
    const limit = request.routeOptions.bodyLimit ?? maxBody;
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else if ((err as { code?: string }).code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      apiErr = new ApiError("validation_error", `body: must be at most ${limit} bytes`, { status: 413 });
    } else {
      process.stderr.write(
        `nsp-emulator: internal error on ${request.method} ${request.url}: ${(err as Error).stack ?? String(err)}\n`,
      );
      apiErr = new ApiError("upstream_error", "internal emulator error", { status: 500 });
    }
    // The control API's answers are neither shaped nor counted.
    if (!st) return send(reply, errorOutcome(apiErr));
    return finish(request, reply, errorOutcome(apiErr, st.headers));
  });
  fastify.setNotFoundHandler(async () => {
    // /api/v1 and other paths were answered by the onRequest hook; only /_emulator/ ones get here.
    throw notFound("control endpoint");
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const st = states.get(request) as RequestState;
    const r = (request.routeOptions.config as unknown as { route: Route }).route;
    const query = parseOrThrow(r.query ?? EMPTY_QUERY, request.query, "query");
    const body = r.body ? parseOrThrow(r.body, parseJsonBody(request.body as Buffer | undefined), "body") : undefined;
    const token = st.token as TokenRecord;
    const account = store.accounts.get(token.account);
    if (!account) throw new ApiError("unauthorized", "the token's account no longer exists");
    let status: number | null = null;
    const extra: Record<string, string> = {};
    const ctx: Ctx<string, unknown, unknown> = {
      ...env,
      params: request.params as Ctx<string, unknown, unknown>["params"],
      body,
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
    const headers = { ...st.headers, ...extra };
    return finish(request, reply, { status: status ?? (result === undefined ? 204 : 200), headers, body: result });
  };

  // Every path is declared for every method, those it has no route for answering 405, so a path
  // matches the same way whatever the method (a literal segment of one method's route wins over
  // another method's parameter).
  const byPath = new Map<string, Route[]>();
  for (const r of options.routes ?? allRoutes) {
    const same = byPath.get(r.path) ?? [];
    if (same.some((s) => s.method === r.method)) throw new Error(`duplicate route ${r.method} ${r.path}`);
    byPath.set(r.path, [...same, r]);
  }
  for (const [path, routes] of byPath) {
    const { url, ints, strs } = fastifyPath(path);
    for (const route of routes) {
      // A route may take larger bodies than the rest (zone files), up to an explicit `maxBodyBytes` option.
      const own = route.maxBodyBytes;
      const bodyLimit = own === undefined ? maxBody : Math.min(own, options.maxBodyBytes ?? own);
      const config: RouteConfig = { route, key: `${route.method} ${path}`, ints, strs };
      fastify.route({ method: route.method, url, bodyLimit, config, handler: handle });
    }
    const methods = new Set<string>(routes.map((r) => r.method));
    const allow = [...methods].sort().join(", ");
    const config: RouteConfig = { allow, ints, strs };
    const others = ALL_METHODS.filter((m) => !methods.has(m));
    // Never reached: the onRequest hook answers 405 for these.
    if (others.length) fastify.route({ method: others, url, config, handler: async () => undefined });
  }

  const app: EmulatorApp = {
    fastify,
    store,
    faults,
    publicDns,
    rateLimiter,
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
      for (const req of held) req.raw.socket.destroy();
      for (const go of delayed) go();
      return n;
    },
    shutdown: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
  registerControl(app, maxBody);
  return app;
}
