// nsp-fleet serve's routes, in process (fastify's inject) over a fleet database filled with rows
// (harness/fleet-rows.ts): what the overview, a customer's page and the JSON answers hold, the
// filters, search, sorting and pages, the token rule, the headers, and that nothing the page
// does can write to the database. Here, not in the main vitest phase: it needs PostgreSQL
// (harness/postgres-backend.ts starts one when the test command has not). The browser's view of
// the same page is test/e2e/fleet-page.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAssets } from "../../fleet/src/serve/assets";
import { cookieValue } from "../../fleet/src/serve/auth";
import { FleetReader, histogram, type Overview } from "../../fleet/src/serve/queries";
import { buildApp, CONTENT_SECURITY_POLICY, serve } from "../../fleet/src/serve/server";
import { fillFleet, type FleetRows } from "./harness/fleet-rows";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";

const FAILED = ["c007", "c023"];
const DRIFTED = { stack: "c031", property: "content", recorded: "192.0.2.10", actual: "192.0.2.99" };
const TOKEN = "page-token-0123456789abcdef";

let pg: TestPostgres;
let url: string;
let fleet: FleetRows;
let reader: FleetReader;
let app: FastifyInstance;
let logDir: string;

beforeAll(async () => {
  pg = await testPostgres();
  url = await pg.database("fleet_serve");
  logDir = mkdtempSync(join(tmpdir(), "nsp-fleet-serve-logs-"));
  fleet = await fillFleet(url, { stacks: 40, hours: 12, failed: FAILED, drifted: DRIFTED, logDir });
  reader = await FleetReader.open({ url });
  app = await buildApp(reader, {
    loopbackOnly: true,
    logDirs: [logDir],
    assets: loadAssets(),
    secrets: [new URL(url).password],
  });
});

afterAll(async () => {
  await app?.close();
  await reader?.close();
  rmSync(logDir, { recursive: true, force: true });
  pg?.stop();
});

const get = async (path: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url: path, headers });
const json = async <T>(path: string) => {
  const r = await get(path);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as T;
};

describe("the overview", () => {
  it("has one row per stack, its latest run's result, and the counts", async () => {
    const o = await json<Overview & { pages: number }>("/api/overview?per=200");
    expect(o.rows.map((r) => r.stack).sort()).toEqual(fleet.refs);
    expect(o.counts).toEqual({ stacks: 40, ok: 37, failed: 2, drifted: 1, running: 0 });
    const failed = o.rows.filter((r) => r.result === "failed").map((r) => r.stack);
    expect(failed.sort()).toEqual(FAILED);
    const drifted = o.rows.find((r) => r.stack === DRIFTED.stack)!;
    expect(drifted).toMatchObject({ health: "drifted", driftedResources: 2, operation: "up", result: "succeeded" });
    // Needing attention first: the failed, then the drifted.
    expect(o.rows.slice(0, 3).map((r) => r.stack)).toEqual([...FAILED, DRIFTED.stack]);
    expect(o.runs[0]).toMatchObject({ operation: "up", stacks: 40, failed: 2, pending: 0 });
  });

  it("filters failed, drifted and running stacks, and searches by customer", async () => {
    const stacks = async (query: string) =>
      (await json<Overview>(`/api/overview?${query}`)).rows.map((r) => r.stack).sort();
    expect(await stacks("filter=failed")).toEqual(FAILED);
    expect(await stacks("filter=drifted")).toEqual([DRIFTED.stack]);
    expect(await stacks("filter=running")).toEqual([]);
    expect(await stacks("q=c02")).toEqual(fleet.refs.filter((r) => r.startsWith("c02")));
    // A zone matches too; LIKE's wildcards are taken as typed.
    expect(await stacks("q=c015.example")).toEqual(["c015"]);
    expect(await stacks("q=%25")).toEqual([]);
    expect(await stacks("q=_")).toEqual([]);
  });

  it("sorts on the server, and pages with no row twice and none left out", async () => {
    const byName = await json<Overview>("/api/overview?sort=stack&dir=desc&per=25");
    expect(byName.rows.map((r) => r.stack)).toEqual([...fleet.refs].reverse().slice(0, 25));
    const second = await json<Overview & { pages: number }>("/api/overview?sort=stack&dir=desc&per=25&page=2");
    expect(second.pages).toBe(2);
    expect(second.rows.map((r) => r.stack)).toEqual([...fleet.refs].reverse().slice(25));
    const longest = await json<Overview>("/api/overview?sort=duration&per=200");
    const durations = longest.rows.map((r) => r.durationSeconds ?? 0);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    // Unknown settings fall back to the defaults instead of reaching SQL.
    const odd = await get("/api/overview?sort=stack;DROP&dir=sideways&page=-3&per=7");
    expect(odd.statusCode).toBe(200);
    expect(odd.json().query).toMatchObject({ sort: "attention", dir: "asc", page: 1, per: 50 });
  });

  it("renders the rows, the filters as links marked current, the search labelled, the sorted column", async () => {
    const r = await get("/?filter=failed&sort=stack");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^text\/html/);
    const rows = [...r.body.matchAll(/<tr data-stack="([^"]+)" data-result="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(FAILED.map((s) => [s, "failed"]));
    expect(r.body).toMatch(/<a href="\/\?filter=failed&amp;sort=stack" aria-current="page">Failed<\/a>/);
    expect(r.body).toContain('<label for="q">Search by customer</label>');
    expect(r.body).toMatch(/<th scope="col" aria-sort="ascending"><a href="[^"]*sort=stack&amp;dir=desc/);
    // Every time as ISO in UTC, for the script to show in the viewer's zone.
    expect(r.body).toMatch(/<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z">/);
    expect(r.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it("escapes what comes from the database", async () => {
    const r = await get("/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(r.body).not.toContain("<script>alert(1)</script>");
    expect(r.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("a customer's page", () => {
  it("shows the drift per property, recorded beside actual, a secret only as changed", async () => {
    const r = await get(`/customers/${DRIFTED.stack}`);
    expect(r.statusCode).toBe(200);
    const row = /<tr data-property="content">([\s\S]*?)<\/tr>/.exec(r.body)?.[1];
    expect(row).toContain(
      `<td><code>&quot;${DRIFTED.recorded}&quot;</code></td><td><code>&quot;${DRIFTED.actual}&quot;</code></td>`,
    );
    const secret = /<tr data-property="dkimPrivateKey">([\s\S]*?)<\/tr>/.exec(r.body)?.[1];
    expect(secret).toContain("changed (a secret: its values are never shown)");
    expect(secret).not.toContain("<code>");
    const c = await json<{ drift: { drift: { resources: { properties: object[] }[] } } }>(
      `/api/customers/${DRIFTED.stack}`,
    );
    expect(c.drift.drift.resources[1]!.properties[0]).toEqual({ name: "dkimPrivateKey", secret: true });
  });

  it("lists its runs newest first, with a preview's plan, the last error in full and its log", async () => {
    const c = await json<{ runs: { createdAt: string; operation: string; plan: unknown }[]; runCount: number }>(
      `/api/customers/${FAILED[0]}`,
    );
    expect(c.runs.length).toBe(c.runCount);
    const times = c.runs.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(c.runs.filter((r) => r.operation === "preview").every((r) => r.plan !== null)).toBe(true);
    const r = await get(`/customers/${FAILED[0]}`);
    expect(r.body).toContain(
      `a record www of type CNAME exists in ${FAILED[0]}.example\n    at create (nsp:dns:Record)\nerror: update failed</pre>`,
    );
    const log = /<pre class="log"[^>]*>([\s\S]*?)<\/pre>/.exec(r.body)?.[1];
    expect(log).toContain("nameServers: [secret]");
    expect(log).toContain("**failed**");
  });

  it("says where a log is when it is not on this machine", async () => {
    const elsewhere = await buildApp(reader, {
      loopbackOnly: true,
      logDirs: [join(logDir, "none")],
      assets: loadAssets(),
      secrets: [],
    });
    try {
      const r = await elsewhere.inject({ method: "GET", url: `/customers/${FAILED[0]}` });
      expect(r.body).toMatch(
        /is not on this machine[\s\S]*<code>--log-dir<\/code>[\s\S]*\.log<\/code>, here on the machine of worker <code>runner-/,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it("answers 404 for a stack no run held, 400 for what is not a reference", async () => {
    expect((await get("/customers/nobody")).statusCode).toBe(404);
    expect((await get("/customers/..%2F..%2Fetc")).statusCode).toBe(400);
    expect((await get("/api/customers/nobody")).statusCode).toBe(404);
  });
});

describe("the charts' data", () => {
  it("has runs per hour by result, durations, requests and 429s per run, drifted stacks per check", async () => {
    const c = await json<{
      perHour: { hours: string[]; results: Record<string, number[]> };
      durations: { buckets: { count: number }[]; stacks: number };
      requests: { runs: { requests: number; rateLimited: number }[] };
      drifted: { runs: { checked: number; drifted: number }[] };
    }>("/api/charts");
    // The fleet is 12 hours old: its hours from the first run's to the last's, not 48 hours mostly empty.
    expect(c.perHour.hours.length).toBeGreaterThanOrEqual(12);
    expect(c.perHour.hours.length).toBeLessThanOrEqual(14);
    const total = Object.values(c.perHour.results)
      .flat()
      .reduce((a, b) => a + b, 0);
    expect(total).toBe(fleet.rows);
    expect(c.perHour.results.failed!.reduce((a, b) => a + b, 0)).toBe(FAILED.length);
    expect(c.durations.buckets.reduce((a, b) => a + b.count, 0)).toBe(c.durations.stacks);
    expect(c.requests.runs.length).toBeGreaterThan(5);
    expect(c.requests.runs.some((r) => r.rateLimited > 0)).toBe(true);
    expect(c.drifted.runs.at(-1)).toEqual(expect.objectContaining({ checked: 40, drifted: 1 }));
  });

  it("buckets durations at edges people read", () => {
    expect(histogram([0.5, 1.5, 1.9, 7, 4000])).toEqual([
      { from: 0, to: 1, count: 1 },
      { from: 1, to: 2, count: 2 },
      { from: 2, to: 5, count: 0 },
      { from: 5, to: 10, count: 1 },
      ...[10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800].map((from, i, all) => ({
        from,
        to: all[i + 1] ?? 3600,
        count: 0,
      })),
      { from: 3600, to: null, count: 1 },
    ]);
    expect(histogram([])).toEqual([]);
  });
});

describe("updates", () => {
  it("the version changes when a run starts, and the new run is in the overview", async () => {
    const before = await json<{ version: string; running: number }>("/api/version");
    const id = await fleet.startRun();
    const after = await json<{ version: string; running: number }>("/api/version");
    expect(after.version).not.toBe(before.version);
    expect(after.running).toBe(40);
    const o = await json<Overview>("/api/overview?filter=running&per=200");
    expect(o.rows).toHaveLength(40);
    expect(o.runs[0]).toMatchObject({ id, pending: 40 });
    expect((await get("/")).body).toContain(`data-run="${id}"`);
  });
});

describe("safety", () => {
  it("sends a policy with no inline script, no caching, and no framing", async () => {
    for (const path of ["/", `/customers/${DRIFTED.stack}`, "/api/overview", "/api/charts", "/nothing"]) {
      const r = await get(path);
      expect(r.headers["content-security-policy"], path).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers["cache-control"], path).toBe("no-store");
      expect(r.headers["x-frame-options"]).toBe("DENY");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe");
    const asset = await get("/assets/chart.umd.min.js");
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toMatch(/^text\/javascript/);
    expect((await get("/assets/..%2F..%2Fpackage.json")).statusCode).toBe(404);
  });

  it("answers only under a loopback host name without a token (no DNS rebinding)", async () => {
    expect((await get("/", { host: "127.0.0.1:8080" })).statusCode).toBe(200);
    expect((await get("/", { host: "localhost:8080" })).statusCode).toBe(200);
    expect((await get("/", { host: "evil.example:8080" })).statusCode).toBe(421);
  });

  it("with a token: 401 without it, a bearer or the cookie ?token= sets, which keeps the token out of the address", async () => {
    const guarded = await buildApp(reader, {
      token: TOKEN,
      loopbackOnly: false,
      logDirs: [logDir],
      assets: loadAssets(),
      secrets: [TOKEN],
    });
    try {
      const ask = (path: string, headers: Record<string, string> = {}) =>
        guarded.inject({ method: "GET", url: path, headers });
      for (const path of ["/", "/api/overview", "/api/version", `/customers/${DRIFTED.stack}`, "/assets/app.js"]) {
        const r = await ask(path);
        expect(r.statusCode, path).toBe(401);
        expect(r.headers["www-authenticate"]).toBe('Bearer realm="nsp-fleet"');
        expect(r.body, "no stack named without the token").not.toMatch(/c0\d\d/);
      }
      expect((await ask("/", { authorization: "Bearer wrong-token-0123456789" })).statusCode).toBe(401);
      expect((await ask("/", { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
      expect((await ask("/?token=wrong")).statusCode).toBe(401);
      const opened = await ask(`/customers/${DRIFTED.stack}?token=${TOKEN}&run=x`);
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toBe(`/customers/${DRIFTED.stack}?run=x`);
      const cookie = String(opened.headers["set-cookie"]);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).not.toContain(TOKEN);
      expect((await ask("/", { cookie: `nsp_fleet_ui=${cookieValue(TOKEN)}` })).statusCode).toBe(200);
      expect((await ask("/", { cookie: `nsp_fleet_ui=${cookieValue("another-token-0123456789")}` })).statusCode).toBe(
        401,
      );
    } finally {
      await guarded.close();
    }
  });

  it("refuses to listen beyond loopback without a token, naming FLEET_UI_TOKEN, and a short token", async () => {
    await expect(serve({ url, port: 0, listen: "0.0.0.0", say: () => {} })).rejects.toThrow(
      /^FLEET_UI_TOKEN: not set; the page listens on 0\.0\.0\.0/,
    );
    await expect(serve({ url, port: 0, listen: "0.0.0.0", token: "short", say: () => {} })).rejects.toThrow(
      /FLEET_UI_TOKEN: at least 16 characters/,
    );
  });

  it("writes nothing: its connections refuse any write, each new one too", async () => {
    // More at once than the pool holds open: some go to connections opened for them.
    const writes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        reader.pool.query(`INSERT INTO nsp_fleet.customers (ref, customer) VALUES ('x${i}', '{}')`),
      ),
    );
    expect(writes.map((w) => (w.status === "rejected" ? String((w.reason as Error).message) : "written"))).toEqual(
      Array(8).fill("cannot execute INSERT in a read-only transaction"),
    );
    await expect(reader.pool.query("CREATE TABLE nsp_fleet.page_was_here (x int)")).rejects.toThrow(
      /read-only transaction/,
    );
  });

  it("a database that stops answering: 503 and what to do for the viewer, the details (no password) in the server's output", async () => {
    const gone = await FleetReader.open({ url });
    const said: string[] = [];
    const broken = await buildApp(gone, {
      loopbackOnly: true,
      logDirs: [],
      assets: loadAssets(),
      secrets: [new URL(url).password],
      say: (m) => said.push(m),
    });
    try {
      await gone.close();
      for (const path of ["/", "/api/overview"]) {
        const r = await broken.inject({ method: "GET", url: path });
        expect(r.statusCode, path).toBe(503);
        expect(r.body).toMatch(/database did not answer; the output of nsp-fleet serve says why/);
        expect(r.body).not.toContain("127.0.0.1");
      }
      expect(said).toHaveLength(2);
      expect(said[0]).toMatch(/^GET \/: /);
      expect(said.join("\n")).not.toContain(new URL(url).password);
    } finally {
      await broken.close();
    }
  });

  it("tells a database without the fleet's tables, or with an earlier release's, as what to do", async () => {
    const empty = await pg.database("fleet_serve_empty");
    await expect(FleetReader.open({ url: empty })).rejects.toThrow(
      /holds no fleet tables \(nsp_fleet\.stacks\) \(FLEET_DATABASE_URL=postgres:\/\/nsp:\*\*\*@/,
    );
  });
});
