// `nsp-fleet serve`: a read-only web page over the fleet's database. Served by fastify: a
// well-kept framework (an OpenJS Foundation project, released often, fast), the one
// the emulator runs on too (emulator/src/pipeline/app.ts), with `inject()` to test
// routes without a socket, and hooks that put the token check and the security headers in front
// of every route at one place. The pages are rendered here (pages.ts); the browser gets HTML, one
// small script and Chart.js, never an inline script.
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { InputError } from "../customers";
import { scrub } from "../report";
import { loadAssets, type Asset } from "./assets";
import { check, isLoopback, MIN_TOKEN_LENGTH, TOKEN_ENV } from "./auth";
import { customerPage, defaultDir, messagePage, overviewPage, type LogView } from "./pages";
import {
  FILTERS,
  FleetReader,
  PAGE_SIZES,
  REF,
  SORTS,
  UUID,
  type CustomerPage,
  type Filter,
  type OverviewQuery,
  type Sort,
} from "./queries";

export interface ServeOptions {
  /** The fleet's database (FLEET_DATABASE_URL). */
  url: string;
  /** 0: any free port (the URL returned and said names it). */
  port: number;
  /** The address to listen on: 127.0.0.1 unless told; any non-loopback one needs `token`. */
  listen: string;
  /** FLEET_UI_TOKEN: every request must then carry it. */
  token?: string;
  say: (message: string) => void;
  /** Where the workers' logs are on this machine, `<dir>/<run>/<stack>.log` (default .nsp-fleet/logs). */
  logDirs?: string[];
  /** Where the page's static files are (default: beside the bundle; see assets.ts). */
  assetsDir?: string;
}

export interface AppOptions {
  token?: string;
  /** Listening on loopback only: requests must then name a loopback host (see auth.ts). */
  loopbackOnly: boolean;
  logDirs: string[];
  assets: Map<string, Asset>;
  /** Strings no answer may hold (the database's password, the token), blanked in every body as a last guard. */
  secrets: string[];
  /** Where the server tells what went wrong (its stderr). */
  say?: (message: string) => void;
}

/**
 * The policy every answer carries: scripts and styles from this server only (no inline script, no
 * eval), nothing from elsewhere, never framed. Chart.js draws on canvases and sets their size
 * through the DOM, which the policy allows.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The log's last lines shown, and the most of a file read for them. */
const LOG_LINES = 2000;
const LOG_BYTES = 2 * 1024 * 1024;

function first(value: unknown): string | undefined {
  return typeof value === "string"
    ? value
    : Array.isArray(value) && typeof value[0] === "string"
      ? value[0]
      : undefined;
}

/** The overview's settings from the address; anything unknown falls back to the default. */
export function overviewQuery(query: Record<string, unknown>): OverviewQuery {
  const filter = (FILTERS as readonly string[]).includes(first(query.filter) ?? "")
    ? (first(query.filter) as Filter)
    : "all";
  const sort = (SORTS as readonly string[]).includes(first(query.sort) ?? "")
    ? (first(query.sort) as Sort)
    : "attention";
  const dirGiven = first(query.dir);
  const dir = dirGiven === "asc" || dirGiven === "desc" ? dirGiven : defaultDir(sort);
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(first(query.page) ?? "1", 10) || 1));
  const perGiven = Number(first(query.per));
  const per = (PAGE_SIZES as readonly number[]).includes(perGiven) ? perGiven : 50;
  const q = (first(query.q) ?? "").trim().slice(0, 100);
  return { filter, q, sort, dir, page, per };
}

/** The last lines of a log file, read from its end. */
function readLog(file: string): { lines: string[]; note?: string } {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - LOG_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    let lines = buffer.toString("utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    // A read from the middle of the file starts in the middle of a line.
    if (start > 0) lines = lines.slice(1);
    const cut = lines.length > LOG_LINES ? lines.length - LOG_LINES : 0;
    const note =
      start > 0
        ? `the last ${LOG_LINES} lines or fewer of ${(size / 1024 / 1024).toFixed(1)} MiB`
        : cut > 0
          ? `its first ${cut} lines left out`
          : undefined;
    return { lines: lines.slice(cut), ...(note ? { note } : {}) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The log to show: the run asked for, else the newest run whose log is on this machine, else (to
 * say where it is) the newest run.
 */
export function logView(c: CustomerPage, asked: string | undefined, logDirs: string[]): LogView | undefined {
  const fileOf = (run: string) => logDirs.map((d) => join(d, run, `${c.stack}.log`)).find((f) => existsSync(f));
  const pick =
    (asked !== undefined ? c.runs.find((r) => r.run === asked) : undefined) ??
    c.runs.find((r) => fileOf(r.run) !== undefined) ??
    c.runs[0];
  if (!pick) return undefined;
  const file = fileOf(pick.run);
  if (!file) return { run: pick.run, worker: pick.worker, logDirs };
  return { run: pick.run, file, logDirs, ...readLog(file) };
}

/** The app, apart from listening (tests use `inject`). */
export async function buildApp(reader: FleetReader, opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: false, bodyLimit: 1024, routerOptions: { maxParamLength: 200 } });
  const secrets = opts.secrets.filter((s) => s.length >= 4);

  app.addHook("onRequest", async (req, reply) => {
    const verdict = check({ url: req.url, headers: req.headers }, opts.token, opts.loopbackOnly);
    if (verdict.ok === true) return;
    if (verdict.ok === "set-cookie")
      return reply.code(303).header("set-cookie", verdict.cookie).header("location", verdict.location).send();
    if (verdict.status === 401) reply.header("www-authenticate", 'Bearer realm="nsp-fleet"');
    return req.url.startsWith("/api/")
      ? reply.code(verdict.status).send({ error: verdict.why })
      : reply
          .code(verdict.status)
          .type("text/html; charset=utf-8")
          .send(
            messagePage(verdict.status === 401 ? "The page's token is needed" : "Not this host", verdict.why, {
              version: "",
            }),
          );
  });

  app.addHook("onSend", async (req, reply, payload) => {
    reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    reply.header("x-frame-options", "DENY");
    reply.header("cross-origin-opener-policy", "same-origin");
    reply.header("cross-origin-resource-policy", "same-origin");
    // A customer's page, or any page, is never kept by a browser or a proxy; the static files may be, by this browser only.
    if (!req.url.startsWith("/assets/")) reply.header("cache-control", "no-store");
    // Nothing the page shows holds a secret (the workers scrub what they record); the database's
    // password and the token are blanked here all the same.
    return typeof payload === "string" && secrets.length > 0 ? scrub(payload, secrets) : payload;
  });

  app.setErrorHandler(async (error: Error & { statusCode?: number }, req, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 503;
    // A database's error can name its host and port: the viewer gets what happened, the server's output the details.
    if (status === 503)
      opts.say?.(`${req.method} ${req.url.replace(/([?&]token=)[^&]*/, "$1***")}: ${scrub(error.message, secrets)}`);
    const message =
      status === 503
        ? "the fleet's database did not answer; the output of nsp-fleet serve says why"
        : scrub(error.message, secrets);
    return req.url.startsWith("/api/")
      ? reply.code(status).send({ error: message })
      : reply
          .code(status)
          .type("text/html; charset=utf-8")
          .send(messagePage("The page could not be made", message, { version: "" }));
  });

  app.setNotFoundHandler(async (req, reply) =>
    req.url.startsWith("/api/")
      ? reply.code(404).send({ error: "no such page" })
      : reply
          .code(404)
          .type("text/html; charset=utf-8")
          .send(messagePage("No such page", "Nothing is here.", { version: "" })),
  );

  const htmlReply = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type("text/html; charset=utf-8").send(body);

  app.get("/", async (req, reply) => {
    const query = overviewQuery(req.query as Record<string, unknown>);
    // The version first: a change between the two reads then makes the script fetch the page
    // once more, where the other order could leave the page showing less than its version says.
    const v = await reader.version();
    const o = await reader.overview(query);
    return htmlReply(reply, 200, overviewPage(o, query, { version: v.version }));
  });

  app.get("/api/overview", async (req) => {
    const query = overviewQuery(req.query as Record<string, unknown>);
    const o = await reader.overview(query);
    return { query, pages: Math.max(1, Math.ceil(o.matching / query.per)), ...o };
  });

  const customerOf = async (req: FastifyRequest): Promise<CustomerPage | { status: number; message: string }> => {
    const ref = (req.params as { ref: string }).ref;
    if (!REF.test(ref)) return { status: 400, message: "that is not a customer's reference" };
    const c = await reader.customer(ref);
    return c ?? { status: 404, message: `no run of a stack ${ref} is recorded in this fleet` };
  };

  app.get("/customers/:ref", async (req, reply) => {
    const v = await reader.version();
    const c = await customerOf(req);
    if ("status" in c)
      return htmlReply(reply, c.status, messagePage("No such customer", c.message, { version: v.version }));
    const run = first((req.query as Record<string, unknown>).run);
    return htmlReply(
      reply,
      200,
      customerPage(c, logView(c, run !== undefined && UUID.test(run) ? run : undefined, opts.logDirs), {
        version: v.version,
      }),
    );
  });

  app.get("/api/customers/:ref", async (req, reply) => {
    const c = await customerOf(req);
    if ("status" in c) return reply.code(c.status).send({ error: c.message });
    return c;
  });

  app.get("/api/charts", async () => reader.charts());
  app.get("/api/version", async () => reader.version());

  app.get("/assets/:name", async (req, reply) => {
    const asset = opts.assets.get((req.params as { name: string }).name);
    if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("no such file");
    return reply.code(200).type(asset.type).header("cache-control", "private, max-age=300").send(asset.body);
  });

  return app;
}

/** The password of a URL, as written and decoded. */
function passwordsOf(url: string): string[] {
  try {
    const raw = new URL(url).password;
    return raw ? [raw, decodeURIComponent(raw)] : [];
  } catch {
    return [];
  }
}

/**
 * Serves the page until `close()`. Refuses, with what to do, a non-loopback address without a
 * token, and a token too short to guess at.
 */
export async function serve(opts: ServeOptions): Promise<{ url: string; close(): Promise<void> }> {
  const loopbackOnly = isLoopback(opts.listen);
  if (!loopbackOnly && !opts.token) {
    throw new InputError(
      `${TOKEN_ENV}: not set; the page listens on ${opts.listen}, reachable from other machines, only ` +
        `with a token: set ${TOKEN_ENV} to a long random string (openssl rand -hex 32), or leave out ` +
        `--listen to serve on 127.0.0.1 alone`,
    );
  }
  if (opts.token !== undefined && opts.token.length < MIN_TOKEN_LENGTH)
    throw new InputError(`${TOKEN_ENV}: at least ${MIN_TOKEN_LENGTH} characters (openssl rand -hex 32 makes one)`);
  const assets = loadAssets(opts.assetsDir);
  const reader = await FleetReader.open({ url: opts.url });
  let app: FastifyInstance;
  try {
    app = await buildApp(reader, {
      token: opts.token,
      loopbackOnly,
      logDirs: (opts.logDirs ?? [join(".nsp-fleet", "logs")]).map((d) => resolve(d)),
      assets,
      secrets: [...passwordsOf(opts.url), ...(opts.token ? [opts.token] : [])],
      say: opts.say,
    });
    await app.listen({ port: opts.port, host: opts.listen });
  } catch (e) {
    await reader.close().catch(() => {});
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE")
      throw new InputError(`--port ${opts.port}: in use on ${opts.listen}; name another, or --port 0 for any free one`);
    if (err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND")
      throw new InputError(`--listen ${opts.listen}: not an address of this machine`);
    throw e;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = opts.listen.includes(":") && !opts.listen.startsWith("[") ? `[${opts.listen}]` : opts.listen;
  const url = `http://${host}:${port}/`;
  opts.say(
    `the fleet's page: ${url} (read-only; ${opts.token ? `every request needs ${TOKEN_ENV}: open it once as ${url}?token=<token>` : "this machine only"})`,
  );
  return {
    url,
    close: async () => {
      await app.close();
      await reader.close();
    },
  };
}
