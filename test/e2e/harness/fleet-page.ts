// The fleet's page (`nsp-fleet serve`) in a real browser: Debian's Chromium (scripts/chromium.sh
// installs it where absent), driven by playwright-core, against a fleet's database, whichever
// made it: the e2e's workers (test/e2e/fleet.test.ts) or rows written for the purpose
// (test/e2e/fleet-page.test.ts). What the page must show is read from the database here by
// queries of this file's own, not the page's.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { chromium, type Browser, type Page, type Response } from "playwright-core";
import { expect } from "vitest";
import { ROOT } from "./pulumi-cli";

// The page's globals, in the functions evaluated there: this project's TypeScript has no DOM library.
declare const window: any, document: any;

export interface FleetPageContext {
  /** The fleet's database (FLEET_DATABASE_URL). */
  queueUrl: string;
  /** The workers' log folders on this machine (each worker's --log-dir), for the page's --log-dir. */
  logDirs: string[];
  /** Starts a run of the fleet while the page is open; its id. */
  startRun(): Promise<string>;
  /** The stacks whose latest run failed for good (one at least: a failed customer's page is checked). */
  failed: string[];
  /** A stack the latest drift check found drifted, on this property, with both values. */
  drifted: { stack: string; property: string; recorded: unknown; actual: unknown };
  /** Strings no response may hold (tokens, passwords); the database's password and the page's token are added here. */
  secrets: string[];
  /** Where the screenshots go: fleet-overview.png, fleet-overview-phone.png, fleet-customer.png, fleet-chart.png. */
  screenshotsDir: string;
  /** How to start `nsp-fleet serve` (its arguments follow): `node dist/fleet.js serve` unless given. */
  command?: string[];
  /** The environment of the page's processes (FLEET_DATABASE_URL and FLEET_UI_TOKEN are set here). */
  env?: NodeJS.ProcessEnv;
}

interface Served {
  child: ChildProcess;
  /** The URL the page says it serves on. */
  url: Promise<string>;
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** `nsp-fleet serve <args>` as its own process; its URL from the line it prints on stderr. */
function startServe(ctx: FleetPageContext, args: string[], env: NodeJS.ProcessEnv): Served {
  const [command, ...first] = ctx.command ?? [process.execPath, join(ROOT, "dist", "fleet.js"), "serve"];
  const child = spawn(command!, [...first, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stderr })),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /the fleet's page: (http:\/\/\S+\/)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then(({ code }) => reject(new Error(`nsp-fleet serve exited (${code}) before serving:\n${stderr}`)));
  });
  url.catch(() => {});
  return { child, url, exited };
}

async function stop(served: Served): Promise<{ code: number | null; stderr: string }> {
  if (served.child.exitCode === null) served.child.kill("SIGTERM");
  return served.exited;
}

/** Each stack's latest result, read here (not by the page's query): what the overview must show. */
async function latestResults(url: string): Promise<Map<string, string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ stack: string; result: string }>(
      "SELECT DISTINCT ON (s.stack) s.stack, s.result FROM nsp_fleet.stacks s JOIN nsp_fleet.runs r ON r.id " +
        "= s.run_id ORDER BY s.stack, r.created_at DESC",
    );
    return new Map(rows.map((r) => [r.stack, r.result]));
  } finally {
    await client.end();
  }
}

/** The stack of the latest run that holds it, and that run's id. */
async function latestRunOf(url: string, stack: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ run_id: string }>(
      "SELECT s.run_id FROM nsp_fleet.stacks s JOIN nsp_fleet.runs r ON r.id = s.run_id WHERE s.stack = $1 " +
        "ORDER BY r.created_at DESC LIMIT 1",
      [stack],
    );
    return rows[0]!.run_id;
  } finally {
    await client.end();
  }
}

/** The stacks listed on the page at hand, with their results, following its pages. */
async function listedStacks(page: Page): Promise<Map<string, string>> {
  const listed = new Map<string, string>();
  for (;;) {
    for (const [stack, result] of await page.$$eval("tr[data-stack]", (rows) =>
      rows.map((r) => [r.getAttribute("data-stack")!, r.getAttribute("data-result")!] as const),
    )) {
      expect(listed.has(stack), `${stack} listed twice`).toBe(false);
      listed.set(stack, result);
    }
    const next = page.locator('nav[aria-label="Pages"] a[rel="next"]');
    if ((await next.count()) === 0) return listed;
    await Promise.all([page.waitForURL(/page=\d+/), next.click()]);
  }
}

/** axe-core in the page: its serious and critical violations, as text. */
async function accessibilityIssues(page: Page, axeSource: string): Promise<string[]> {
  // Evaluated through the browser's debugging protocol, which the page's policy (no inline or
  // injected script) does not govern; the page itself is not changed for it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = (await window.axe.run(document, { resultTypes: ["violations"] })) as {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(", ")})`);
}

export async function checkFleetPage(ctx: FleetPageContext): Promise<void> {
  expect(ctx.failed.length, "checkFleetPage needs a fleet with a failed stack").toBeGreaterThan(0);
  mkdirSync(ctx.screenshotsDir, { recursive: true });
  const token = randomBytes(24).toString("hex");
  const password = decodeURIComponent(new URL(ctx.queueUrl).password);
  const secrets = [...ctx.secrets, token, ...(password ? [password] : [])].filter((s) => s.length >= 6);
  const { FLEET_UI_TOKEN: _t, ...base } = ctx.env ?? process.env;
  const env = { ...base, FLEET_DATABASE_URL: ctx.queueUrl };
  const logArgs = ctx.logDirs.flatMap((d) => ["--log-dir", d]);

  const served = startServe(ctx, ["--port", "0", ...logArgs], env);
  let guarded: Served | undefined;
  let browser: Browser | undefined;
  try {
    const url = await served.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const origin = new URL(url).origin;

    const executablePath = execFileSync("bash", [join(ROOT, "scripts", "chromium.sh")], { encoding: "utf8" }).trim();
    // playwright-core makes a new empty profile (user data dir) for each launch, and runs it headless.
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // A viewer in another time zone than the server's UTC.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: "America/New_York",
      locale: "en-US",
    });
    const page = await context.newPage();

    // Every answer the page loads, to scan; every policy violation or script error, to fail on.
    const bodies: Promise<{ url: string; type: string; body: string }>[] = [];
    const problems: string[] = [];
    page.on("response", (r: Response) => {
      if (!r.url().startsWith(origin) || r.status() === 303) return;
      bodies.push(
        r.body().then(
          (b) => ({ url: r.url(), type: r.headers()["content-type"] ?? "", body: b.toString("utf8") }),
          () => ({ url: r.url(), type: "", body: "" }),
        ),
      );
    });
    page.on("console", (m) => {
      if (m.type() === "error" || /Content Security Policy/i.test(m.text()))
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`script error: ${e.message}`));
    let navigations = 0;
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations++;
    });

    // The overview lists every stack with its latest result.
    const expected = await latestResults(ctx.queueUrl);
    await page.goto(`${url}?per=200`);
    expect(await listedStacks(page)).toEqual(expected);
    await page.goto(url);
    // Times are shown in the viewer's zone, not the server's UTC text.
    await expect.poll(() => page.textContent("#tz")).toBe("America/New_York");
    expect(await page.locator("time").first().textContent()).not.toMatch(/UTC$/);

    // The "failed" filter shows exactly the failed stacks.
    await Promise.all([
      page.waitForURL(/filter=failed/),
      page.locator('nav[aria-label="Filter stacks"] a', { hasText: "Failed" }).click(),
    ]);
    expect([...(await listedStacks(page)).keys()].sort()).toEqual([...ctx.failed].sort());
    expect(await page.getAttribute('nav[aria-label="Filter stacks"] a[aria-current="page"]', "href")).toContain(
      "filter=failed",
    );

    // The search, by the keyboard: the label names the field, Enter sends it.
    await page.goto(url);
    const some = [...expected.keys()][0]!;
    await page.getByLabel("Search by customer").fill(some);
    await Promise.all([page.waitForURL(/q=/), page.getByLabel("Search by customer").press("Enter")]);
    const found = [...(await listedStacks(page)).keys()];
    expect(found).toContain(some);
    expect(found.every((s) => s.includes(some))).toBe(true);

    // Sorting by a column's header, both ways.
    await page.goto(url);
    await Promise.all([page.waitForURL(/sort=stack/), page.locator("thead a", { hasText: "Stack" }).click()]);
    const ascending = await page.$$eval("tr[data-stack]", (rows) => rows.map((r) => r.getAttribute("data-stack")!));
    expect(ascending).toEqual([...ascending].sort());
    expect(await page.getAttribute('th[aria-sort="ascending"] a', "href")).toContain("dir=desc");
    await Promise.all([page.waitForURL(/dir=desc/), page.locator("thead a", { hasText: "Stack" }).click()]);
    const descending = await page.$$eval("tr[data-stack]", (rows) => rows.map((r) => r.getAttribute("data-stack")!));
    expect(descending).toEqual([...descending].sort().reverse());

    // A drifted customer's page: the changed property, recorded beside actual.
    await page.goto(url);
    await Promise.all([
      page.waitForURL(/\/customers\//),
      page.locator(`tr[data-stack="${ctx.drifted.stack}"] a`).first().click(),
    ]);
    const property = page.locator(`#drift tr[data-property="${ctx.drifted.property}"] td`);
    await expect
      .poll(() => property.allTextContents())
      .toEqual([JSON.stringify(ctx.drifted.recorded), JSON.stringify(ctx.drifted.actual)]);
    await page.screenshot({ path: join(ctx.screenshotsDir, "fleet-customer.png"), fullPage: true });
    const customerIssues = await accessibilityIssues(
      page,
      readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8"),
    );

    // A failed customer's page: its error in full, and its log's lines when a worker's log folder holds them.
    const failedStack = ctx.failed[0]!;
    await page.goto(`${url}customers/${failedStack}`);
    expect((await page.textContent("#last-error pre"))?.trim().length).toBeGreaterThan(0);
    const run = await latestRunOf(ctx.queueUrl, failedStack);
    const logFile = ctx.logDirs.map((d) => join(d, run, `${failedStack}.log`)).find((f) => existsSync(f));
    if (logFile) {
      const lastLine = readFileSync(logFile, "utf8").trimEnd().split("\n").at(-1)!;
      expect(await page.textContent("#log pre.log")).toContain(lastLine);
    } else {
      expect(await page.textContent("#log")).toMatch(/is not on this machine/);
    }

    // The charts render with data points: the library's data, and pixels drawn on each canvas.
    await page.goto(url);
    await page.waitForSelector('#charts[data-drawn="true"]');
    const charts = await page.evaluate(() => {
      const canvases = [...document.querySelectorAll("canvas[id^=chart-]")] as {
        id: string;
        width: number;
        height: number;
        getContext(kind: "2d"): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      }[];
      return canvases.map((canvas) => {
        const chart = window.Chart.getChart(canvas) as { data: { datasets: { data: unknown[] }[] } } | undefined;
        const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let drawn = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) drawn++;
        return {
          id: canvas.id,
          points: chart
            ? chart.data.datasets.flatMap((d) => d.data).filter((v) => typeof v === "number" && v > 0).length
            : -1,
          drawn,
          width: canvas.width,
          height: canvas.height,
        };
      });
    });
    const data = (await (await page.request.get(`${url}api/charts`)).json()) as {
      requests: { runs: unknown[] };
      drifted: { runs: unknown[] };
    };
    for (const c of charts) {
      expect(c.points, `${c.id}: no chart`).not.toBe(-1);
      expect(c.width * c.height, c.id).toBeGreaterThan(0);
      expect(c.drawn, `${c.id}: nothing drawn`).toBeGreaterThan(100);
    }
    const points = Object.fromEntries(charts.map((c) => [c.id, c.points]));
    expect(points["chart-per-hour"]).toBeGreaterThan(0);
    expect(points["chart-durations"]).toBeGreaterThan(0);
    if (data.requests.runs.length > 0) expect(points["chart-requests"]).toBeGreaterThan(0);
    if (data.drifted.runs.length > 0) expect(points["chart-drifted"]).toBeGreaterThan(0);
    await page.screenshot({ path: join(ctx.screenshotsDir, "fleet-overview.png"), fullPage: true });
    await page.locator("#figure-per-hour").screenshot({ path: join(ctx.screenshotsDir, "fleet-chart.png") });
    const overviewIssues = await accessibilityIssues(
      page,
      readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8"),
    );

    // A run started while the page is open shows up without a reload.
    const before = navigations;
    await page.evaluate(() => (window.stillThisPage = true));
    const started = await ctx.startRun();
    await page.waitForSelector(`#latest-runs li[data-run="${started}"]`, { timeout: 60_000 });
    expect(navigations).toBe(before);
    expect(await page.evaluate(() => window.stillThisPage)).toBe(true);
    await expect.poll(() => page.textContent("#updated")).toMatch(/^Updated at/);

    // At a phone's width: the stacks as cards, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url);
    await page.waitForSelector('#charts[data-drawn="true"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ctx.screenshotsDir, "fleet-overview-phone.png"), fullPage: false });
    const phoneIssues = await accessibilityIssues(
      page,
      readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8"),
    );
    expect([...overviewIssues, ...customerIssues, ...phoneIssues], "axe-core: serious or critical issues").toEqual([]);

    // No secret in any answer the page loaded, nor in the JSON answers of every customer named here.
    for (const path of [
      "api/overview?per=200",
      "api/charts",
      "api/version",
      ...[...ctx.failed, ctx.drifted.stack].map((s) => `api/customers/${s}`),
    ]) {
      const r = await page.request.get(`${url}${path}`);
      expect(r.status(), path).toBe(200);
      bodies.push(Promise.resolve({ url: r.url(), type: r.headers()["content-type"] ?? "", body: await r.text() }));
    }
    const loaded = await Promise.all(bodies);
    const kinds = new Set(loaded.map((b) => b.type.split(";")[0]));
    for (const kind of ["text/html", "application/json", "text/javascript", "text/css"])
      expect(kinds, `no ${kind} answer was scanned`).toContain(kind);
    for (const b of loaded) for (const s of secrets) expect(b.body.includes(s), `a secret in ${b.url}`).toBe(false);
    expect(problems, "policy violations or script errors").toEqual([]);

    // Beyond loopback: refused without FLEET_UI_TOKEN, and with it every request needs the token.
    const refused = startServe(ctx, ["--listen", "0.0.0.0", "--port", "0", ...logArgs], env);
    const { code, stderr } = await refused.exited;
    expect(code).toBe(2);
    expect(stderr).toMatch(/FLEET_UI_TOKEN: not set/);
    guarded = startServe(ctx, ["--listen", "0.0.0.0", "--port", "0", ...logArgs], { ...env, FLEET_UI_TOKEN: token });
    const guardedUrl = await guarded.url;
    expect(guardedUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    expect(guardedUrl).not.toContain(token);
    const local = `http://127.0.0.1:${new URL(guardedUrl).port}/`;
    for (const path of ["", "api/overview", `customers/${ctx.drifted.stack}`, "assets/app.js"]) {
      const r = await fetch(`${local}${path}`);
      expect(r.status, `${path} without the token`).toBe(401);
      const body = await r.text();
      expect(body).not.toContain(ctx.drifted.stack);
    }
    expect((await fetch(local, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const viewer = await browser.newContext();
    const tab = await viewer.newPage();
    await tab.goto(`${local}?token=${token}`);
    expect(tab.url()).toBe(local);
    expect(await tab.locator("tr[data-stack]").count()).toBeGreaterThan(0);
    await viewer.close();

    // SIGTERM stops the page cleanly.
    const ended = await stop(served);
    expect(ended.code, ended.stderr).toBe(0);
  } finally {
    await browser?.close();
    if (guarded) await stop(guarded);
    await stop(served);
  }
}
