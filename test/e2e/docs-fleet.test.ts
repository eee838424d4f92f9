// docs/guides/fleet.md as one script, as a reader follows it in one terminal: in a fresh folder
// holding the files of `npm run release`, with a PULUMI_HOME of its own, the page's shell blocks as
// printed and each file it shows written under the name printed above it. Only the emulator's port
// and the PostgreSQL database's address are this machine's (the page says to put yours in place of
// its own); the lines that need a Kubernetes cluster are left out (FLEET_PAGE_NOT_HERE). Apart
// from docs-commands.test.ts so that the two run on the suite's two workers at once.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  blocksOf,
  FLEET_PAGE,
  FLEET_PAGE_NOT_HERE,
  freePort,
  onPort,
  outputsByMarker,
  scriptLines,
} from "./harness/doc-pages";
import { pulumiEnv, pulumiHome, ROOT } from "./harness/pulumi-cli";
import { testPostgres, type TestPostgres } from "./harness/postgres-backend";

/** The database the page names, which the reader replaces with theirs. */
const PRINTED_DATABASE = "postgres://fleet:secret@127.0.0.1:5432/fleet";
const TOKENS = ["svc_0123456789abcdef0123456789abcdef", "svc_fedcba9876543210fedcba9876543210"];
const REFS = ["acme", "globex", "initech"];

let pg: TestPostgres | undefined;
let dir: string | undefined;
let scriptGroup: number | undefined;

afterAll(() => {
  if (scriptGroup) {
    try {
      process.kill(-scriptGroup);
    } catch {
      // already gone, the emulator with it
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  pg?.stop();
});

/** A table of nsp-fleet (`run` or `status`): its header, its rows by stack, its summary line. */
function tableOf(text: string): { header: string; rows: Map<string, string[]>; summary: string } {
  const lines = text
    .split("\n")
    .filter((l) => /^(STACK\s|\S+\s+(succeeded|failed|running|queued|cancelled)\s|(up|destroy): |run \S+ \()/.test(l));
  const header = lines.find((l) => l.startsWith("STACK")) ?? "";
  const rows = new Map(
    lines
      .filter((l) => /^\S+\s+(succeeded|failed|running|queued|cancelled)\s/.test(l))
      .map((l) => [l.split(/\s+/)[0]!, l.split(/\s{2,}/)] as const),
  );
  return { header: header.split(/\s+/).join(" "), rows, summary: lines.at(-1) ?? "" };
}

it("shows the program of examples/fleet, which the fleet's other tests run", () => {
  const page = blocksOf(FLEET_PAGE).find((b) => b.block.kind === "file" && b.block.name === "index.ts")?.block.text;
  const example = readFileSync(join(ROOT, "examples", "fleet", "index.ts"), "utf8");
  // The example's opening comment is the repository's; the program after it is the page's.
  expect(page).toBe(example.slice(example.indexOf("import ")));
});

it("docs/guides/fleet.md runs as printed: the release files, the customer project, run, the queue (up, a " +
  "preview, drift found and repaired, a schedule, then --destroy) and the operator's manifests", async () => {
  const blocks = blocksOf(FLEET_PAGE);
  pg = await testPostgres();
  const database = await pg.database("docs_fleet");
  const port = await freePort();

  dir = mkdtempSync(join(tmpdir(), "nsp-docs-fleet-"));
  const release = join(dir, "release");
  cpSync(join(ROOT, "dist", "release"), release, { recursive: true, filter: (src) => !src.endsWith("manifest.json") });
  // The reader's terminal: this process's environment, a PULUMI_HOME of its own, nothing pointing
  // nsp, the fleet or pulumi at an account, a queue or a backend before the page does.
  const {
    NSP_API_TOKEN: _t,
    NSP_BASE_URL: _u,
    NSP_PARTNER_TOKEN: _p,
    FLEET_DATABASE_URL: _q,
    FLEET_CONCURRENCY: _c,
    FLEET_WEBHOOK_URL: _w,
    FLEET_WEBHOOK_SECRET: _ws,
    ...terminal
  } = process.env;
  const {
    PULUMI_BACKEND_URL: _b,
    PULUMI_CONFIG_PASSPHRASE: _s,
    ...pulumi
  } = pulumiEnv(pulumiHome(join(dir, "home")), "");
  const env = { ...terminal, ...pulumi };

  const leaveOut = Object.keys(FLEET_PAGE_NOT_HERE);
  const script = blocks.map((b, i) => scriptLines(`block ${i}`, b.block, leaveOut)).join("\n");
  expect(script).toContain(PRINTED_DATABASE);
  const child = spawn("bash", ["-e", "-c", onPort(script, port).replaceAll(PRINTED_DATABASE, database)], {
    cwd: release,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  scriptGroup = child.pid;
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code, output).toBe(0);
  const out = outputsByMarker(output);
  /** What the shell block holding `command` printed, and the output block the page shows after it, if any. */
  const ran = (command: string, nth = 0) => {
    const index = blocks
      .map((b, i) => (b.block.kind === "sh" && b.block.text.includes(command) ? i : -1))
      .filter((i) => i >= 0)[nth]!;
    const shown = blocks[index + 1]?.block;
    return { printed: out.get(`block ${index}`) ?? "", shown: shown?.kind === "output" ? shown.text : undefined };
  };

  // nsp-fleet run: every customer's stack made, in one process; the table as the page shows it.
  const run = ran("nsp-fleet run");
  const made = tableOf(run.printed);
  expect([...made.rows.keys()].sort(), run.printed).toEqual(REFS);
  for (const [ref, row] of made.rows)
    expect(row.slice(1, 3), ref).toEqual(["succeeded", expect.stringMatching(/^create \d+$/)]);
  expect(made.summary).toBe("up: 3 succeeded, 0 failed, at most 3 at a time");
  expect(tableOf(run.shown!).header).toBe(made.header);
  expect(tableOf(run.shown!).summary).toBe(made.summary);
  const project = join(release, "fleet");
  const report = JSON.parse(readFileSync(join(project, "report.json"), "utf8")) as {
    succeeded: number;
    stacks: { stack: string; result: string }[];
  };
  expect(report.succeeded).toBe(3);

  // The queue: an up that finds nothing to change, every stack's row in the database.
  const up = ran("nsp-fleet status", 0);
  const same = tableOf(up.printed);
  expect(tableOf(up.shown!).header).toBe(same.header);
  expect(same.summary, up.printed).toMatch(/^run \S+ \(up\): 3 succeeded, 0 failed, 0 queued or running$/);
  for (const ref of REFS)
    expect(same.rows.get(ref)?.slice(1, 3), `${ref}: ${up.printed}`).toEqual(["succeeded", "none"]);
  // A preview of the change under review: acme's record would be updated, nothing else; exit 3.
  const preview = ran("nsp-fleet status", 1);
  const planned = tableOf(preview.printed);
  expect(tableOf(preview.shown!).header).toBe(planned.header);
  expect(planned.summary, preview.printed).toMatch(
    /^run \S+ \(preview\): 3 succeeded, 0 failed, 0 queued or running, 1 would change$/,
  );
  expect(REFS.map((ref) => [ref, planned.rows.get(ref)?.[2]])).toEqual([
    ["acme", "update 1"],
    ["globex", "none"],
    ["initech", "none"],
  ]);
  expect(preview.printed).toContain("exit code 3");
  expect(preview.printed).toContain("| acme | 0 | 1 | 0 | 0 | update `a-www` (content) |");
  expect(readFileSync(join(release, "fleet", "customers.json"), "utf8")).toContain("192.0.2.10");

  // The hand-made edit is found on initech only, with both values; then repaired.
  const drift = ran("nsp-fleet status", 2);
  const found = tableOf(drift.printed);
  expect(tableOf(drift.shown!).header).toBe(found.header);
  expect(found.summary).toMatch(/^run \S+ \(drift\): 3 succeeded, 0 failed, 0 queued or running, 1 drifted$/);
  expect(REFS.map((ref) => [ref, found.rows.get(ref)?.[3]])).toEqual([
    ["acme", "none"],
    ["globex", "none"],
    ["initech", "aaaa-www.content"],
  ]);
  const listed = JSON.parse(drift.printed.slice(drift.printed.indexOf("\n[") + 1)) as {
    stack: string;
    drift: { resources: { properties: object[] }[] };
  }[];
  expect(listed.map((x) => [x.stack, x.drift.resources[0]!.properties])).toEqual([
    ["initech", [{ name: "content", recorded: "2001:db8::30", actual: "2001:db8::99" }]],
  ]);
  const repaired = ran("nsp-fleet status", 3);
  const remediated = tableOf(repaired.printed);
  expect(tableOf(repaired.shown!).header).toBe(remediated.header);
  expect(remediated.summary).toMatch(
    /^run \S+ \(drift, remediate\): 3 succeeded, 0 failed, 0 queued or running, 1 drifted$/,
  );
  expect(remediated.rows.get("initech")?.[3]).toBe("aaaa-www.content; remediated: update 1");
  const schedule = ran("nsp-fleet schedule add").printed;
  expect(schedule).toContain('schedule drift: "0 */4 * * *" (UTC), remediating');
  expect(schedule).toMatch(/^drift +0 \*\/4 \* \* \* +UTC +yes +never$/m);
  expect(schedule).toContain("schedule drift: removed");

  // The webhook's receiver kept the signed run.finished event; every delivery is a row; the
  // worker's metrics count the run's three stacks.
  const finished = ran("cat run.finished.json").printed;
  expect(finished).toMatch(/"type": "run.finished"/);
  expect(finished).toMatch(/"succeeded": 3/);
  expect(ran("nsp_fleet.deliveries").printed).toMatch(/run\.finished \| +\| +1 \| +204/);
  const scraped = ran("--metrics-port 9464").printed;
  expect(scraped).toContain('nsp_fleet_jobs_total{operation="up",result="succeeded"} 3');
  expect(scraped).toContain('nsp_fleet_stacks{run="latest",result="succeeded"} 3');
  expect(readFileSync(join(release, "fleet", "stacks.yaml"), "utf8")).toContain("resyncFrequencySeconds: 3600");

  // --destroy through the queue: what run made is deleted.
  const destroyed = ran("nsp-fleet status", 4);
  const destroy = tableOf(destroyed.printed);
  expect(tableOf(destroyed.shown!).header).toBe(destroy.header);
  expect(destroy.summary).toMatch(/^run \S+ \(destroy\): 3 succeeded, 0 failed, 0 queued or running$/);
  for (const ref of REFS)
    expect(destroy.rows.get(ref)?.slice(1, 3), ref).toEqual([
      "succeeded",
      `delete ${made.rows.get(ref)![2]!.split(" ")[1]}`,
    ]);

  // The operator's Stack objects: one per customer, the customer in its configuration, the tokens
  // from the secret by name.
  const manifests = readFileSync(join(project, "stacks.yaml"), "utf8");
  expect(manifests.match(/^kind: Stack$/gm)).toHaveLength(3);
  for (const ref of REFS) expect(manifests).toContain(`stack: ${ref}\n`);
  expect(manifests).toContain("nsp-fleet:customer");
  expect(manifests).toContain("key: INITECH_NSP_TOKEN");
  // The page's backend URL holds the database's password: the objects read it from the secret.
  expect(manifests).toContain("key: PULUMI_BACKEND_URL");
  expect(manifests).not.toMatch(/^\s+backend:/m);

  // No token, and not the database's password, in what the fleet printed (the emulator's block
  // prints its tokens, as the page says), its logs, report or manifests.
  const password = decodeURIComponent(new URL(database).password);
  const logs = join(project, ".nsp-fleet", "logs");
  const fleetPrinted = blocks.flatMap((b, i) =>
    b.block.kind === "sh" && b.block.text.includes("nsp-fleet ") ? [out.get(`block ${i}`) ?? ""] : [],
  );
  // The blocks that run nsp-fleet (11), and the page's two (left out: they serve until stopped).
  expect(fleetPrinted).toHaveLength(13);
  const logFiles = readdirSync(logs, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name));
  // A log per stack and operation: run's three ups, and the workers' three ups and three destroys.
  expect(logFiles.length, logFiles.join("\n")).toBeGreaterThanOrEqual(9);
  const written = [
    ...fleetPrinted,
    manifests,
    readFileSync(join(project, "report.json"), "utf8"),
    ...logFiles.map((f) => readFileSync(f, "utf8")),
  ].join("\n");
  for (const secret of [...TOKENS, password])
    expect(written.includes(secret), "a secret in the fleet's output").toBe(false);
}, 900_000);
