// nsp-fleet end to end, with the real pulumi CLI, Pulumi's PostgreSQL state backend and the emulator
// as a process at its default request quota. One fleet of 40 customers serves every step, as a
// partner's would: three worker processes, each with its own copy of the customer project and its
// own PULUMI_HOME (three machines), take its jobs from a shared PostgreSQL queue while one of them
// is killed with SIGKILL; a second run changes nothing while another worker is stopped with
// SIGTERM; `nsp-fleet run` (one process, no queue) destroys a few of them and reports one that
// fails; `--destroy` through the queue leaves nothing. Most customers are reached in partner mode
// through one partner token (one already a subject, adopted), two with a token of their own.
// The PostgreSQL server is the test command's (scripts/postgres.sh), or one started here.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { until } from "../helpers/until";
import {
  filesText,
  isRunning,
  pulumiEnv,
  pulumiHome,
  prepareProject,
  ROOT,
  startEmulatorProcess,
  type EmulatorProcess,
  type RunResult,
} from "./harness/pulumi-cli";
import { pulumiBackendUrl, testPostgres, type TestPostgres } from "./harness/postgres-backend";
import { reapedChildrenCpuMs } from "../../bench/f1-fleet";
import { freePort } from "./harness/doc-pages";
import { checkFleetPage } from "./harness/fleet-page";
import { status as queueStatus } from "../../fleet/src/queue";

const CUSTOMERS = 40;
const FLEET = join(ROOT, "dist", "fleet.js");
/** Customers with a token of their own; the others are reached through the partner token. */
const OWN_TOKEN = ["q39", "q40"];
/** A subject the partner already acts for, from before the fleet: its stack adopts it. */
const ADOPTED = "q38";

interface PlanJson {
  changes: Record<string, number>;
  steps: { urn: string; type: string; op: string; properties: string[] }[];
}

interface StatusJson {
  run: string;
  succeeded: number;
  failed: number;
  pending: number;
  stacks: {
    stack: string;
    result: string;
    changes: Record<string, number>;
    changed: number;
    attempts: number;
    worker?: string;
    startedAt: string;
    finishedAt: string;
    error?: string;
    plan?: PlanJson;
    drift?: {
      resources: {
        urn: string;
        type: string;
        gone?: true;
        properties: { name: string; recorded?: unknown; actual?: unknown; secret?: true }[];
      }[];
    };
    remediation?: PlanJson;
  }[];
}

let pg: TestPostgres;
let emulator: EmulatorProcess;
/** The webhook's receiver: every request it got, and the answer it gave. */
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
const WEBHOOK_SECRET = "e2e-webhook-secret-0123456789abcdef";
let queueUrl: string;
let stateUrl: string;
let scratch: string;
const machines: { dir: string; home: string }[] = [];
const outputs: RunResult[] = [];

const ref = (i: number) => `q${String(i).padStart(2, "0")}`;
const refs = Array.from({ length: CUSTOMERS }, (_, i) => ref(i + 1));
const viaPartner = refs.filter((r) => !OWN_TOKEN.includes(r));
const tokenEnv = (r: string) => `FLEET_TOKEN_${r.toUpperCase()}`;
const records = (r: string) => [
  { name: "www", type: "A", content: "192.0.2.10" },
  ...(r.endsWith("0") ? [{ name: "api", type: "TXT", content: `customer=${r}` }] : []),
];
const customer = (r: string) => ({
  ref: r,
  zone: `${r}.queue.example`,
  records: records(r),
  ...(OWN_TOKEN.includes(r) ? { tokenEnv: tokenEnv(r) } : r === ADOPTED ? { adoptSubject: true } : {}),
});

function env(machine: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...pulumiEnv(machines[machine]!.home, ""),
    PULUMI_BACKEND_URL: pulumiBackendUrl(stateUrl),
    FLEET_DATABASE_URL: queueUrl,
    NSP_BASE_URL: emulator.baseUrl,
    NSP_PARTNER_TOKEN: emulator.accounts.partner!,
    // beforeAll type-checks the program once; ts-node would again in each machine's new folder,
    // in every stack that starts before the first has filled its cache (2 CPU-s each).
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...Object.fromEntries(OWN_TOKEN.map((r) => [tokenEnv(r), emulator.accounts[r]!])),
    FLEET_WEBHOOK_URL: receiverUrl,
    FLEET_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ...extra,
  };
}

/** Prometheus's text format, each sample line checked as it reads it: `name{label="value",...} number`. */
function prometheusText(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+]+|NaN|\+Inf|-Inf)$/.exec(line);
      expect(m, line).not.toBeNull();
      const labels = Object.fromEntries(
        [...(m![2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
      );
      return { name: m![1]!, labels, value: Number(m![3]) };
    });
}

/** `nsp-fleet <args>` on a machine, as a process; `done` resolves when it has exited. */
function start(
  machine: number,
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<RunResult>; stderr: () => string } {
  const child = spawn(process.execPath, [FLEET, ...args], {
    cwd: machines[machine]!.dir,
    env: env(machine, extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<RunResult>((resolve) =>
    child.on("close", (code, signal) => {
      const r = { code: code ?? (signal ? -1 : 0), stdout, stderr };
      outputs.push(r);
      resolve(r);
    }),
  );
  return { child, done, stderr: () => stderr };
}

const fleet = (machine: number, args: string[], extra: NodeJS.ProcessEnv = {}) => start(machine, args, extra).done;

async function enqueue(customers: object[], extra: string[] = []): Promise<string> {
  const file = join(scratch, `customers-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(customers));
  const r = await fleet(0, ["enqueue", "--customers", file, "--retry-delay", "1", ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** `nsp-fleet status --run <run> --json`, as a process. */
async function statusShown(run: string): Promise<StatusJson> {
  const r = await fleet(0, ["status", "--run", run, "--json"]);
  return JSON.parse(r.stdout) as StatusJson;
}

/**
 * The same rows, read by the fleet's own code in this process, for the waits that ask again and
 * again while stacks run: a process a question would take CPU from the stacks it waits for.
 */
async function status(run: string): Promise<StatusJson> {
  return JSON.parse(JSON.stringify(await queueStatus(queueUrl, run))) as StatusJson;
}

async function query<T extends object>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client(url);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A stack's last checkpoint in Pulumi's PostgreSQL backend (the engine writes one before and after each operation). */
async function checkpointOf(stack: string): Promise<{
  resources?: { type: string; id?: string }[];
  pending_operations?: { type: string; resource?: { type?: string } }[];
}> {
  const rows = await query<{ data: { data: string } }>(stateUrl, "SELECT data FROM pulumi_state WHERE key LIKE $1", [
    `%/.pulumi/stacks/nsp-fleet/${stack}.json`,
  ]);
  if (rows.length === 0) return {};
  return (
    (JSON.parse(Buffer.from(rows[0]!.data.data, "base64").toString()) as { checkpoint: { latest?: object } }).checkpoint
      .latest ?? {}
  );
}

/** Each stack's resources: type and id; none left pending. */
async function stateOf(stack: string): Promise<{ type: string; id?: string }[]> {
  const latest = await checkpointOf(stack);
  expect(latest.pending_operations ?? []).toEqual([]);
  return latest.resources ?? [];
}

/** The customer's account, through a read credential the partner mints. */
async function accountOf(r: string): Promise<EmulatorControl> {
  if (OWN_TOKEN.includes(r)) return emulator.control(r);
  const minted = await emulator
    .control("partner")
    .post<{ token: string }>(`/partner/subjects/${r}/token`, { scope: "read" });
  return new EmulatorControl(emulator.baseUrl, minted.token);
}

/**
 * Every object of the fleet on the server is one stack's and in that stack's state; each stack has
 * exactly its own, the records its customer names; the partner's own account holds none.
 */
async function expectServerMatchesState(): Promise<void> {
  const subjects = await emulator.control("partner").list<{ external_ref: string }>("/partner/subjects");
  expect(subjects.map((s) => s.external_ref).sort()).toEqual([...viaPartner].sort());
  expect(await emulator.control("partner").list("/dns/zones")).toEqual([]);
  for (const r of refs) {
    const account = await accountOf(r);
    const zones = await account.list<{ id: number; name: string }>("/dns/zones");
    expect(zones.map((z) => z.name)).toEqual([`${r}.queue.example`]);
    const mail = await account.list<{ id: number; records: { record_id: number | null }[] }>("/mail/domains");
    expect(mail).toHaveLength(1);
    const published = new Set(mail[0]!.records.map((x) => x.record_id));
    const own = (
      await account.list<{ id: number; name: string; type: string; content: string }>(
        `/dns/zones/${zones[0]!.id}/records`,
      )
    ).filter((x) => !published.has(x.id));
    expect(
      own.map(({ name, type, content }) => ({ name, type, content })).sort((x, y) => x.name.localeCompare(y.name)),
    ).toEqual([...records(r)].sort((x, y) => x.name.localeCompare(y.name)));
    const state = await stateOf(r);
    const ids = (type: string) => state.filter((x) => x.type === type).map((x) => String(x.id));
    expect(ids("nsp:partner:Subject")).toEqual(OWN_TOKEN.includes(r) ? [] : [r]);
    expect(ids("nsp:dns:Zone")).toEqual([String(zones[0]!.id)]);
    expect(ids("nsp:mail:Domain")).toEqual([String(mail[0]!.id)]);
    expect(ids("nsp:dns:Record").sort()).toEqual(own.map((x) => String(x.id)).sort());
  }
}

/** The processes under `pid`: pulumi, its language host and plugins. */
function processTree(pid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...rows.filter(([, ppid]) => ppid === tree[i]).map(([p]) => p));
  return tree;
}

beforeAll(async () => {
  // Answers the first delivery 500, as a receiver that is briefly down: the event must come again.
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const answered = received.length === 0 ? 500 : 204;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/nsp-fleet`;
  pg = await testPostgres();
  queueUrl = await pg.database("fleet_queue");
  stateUrl = await pg.database("fleet_state");
  // The emulator's default quota (300 requests a minute per token): the workers share it.
  emulator = await startEmulatorProcess(
    ["partner", "revoked", ...OWN_TOKEN].flatMap((a) => ["--account", a]).concat(["--rate-limit", "300"]),
  );
  scratch = mkdtempSync(join(tmpdir(), "nsp-e2e-fleet-"));
  for (let m = 0; m < 3; m++) {
    const home = pulumiHome(join(scratch, `home-${m}`));
    machines.push({ dir: prepareProject("fleet"), home });
  }
  // The customer program type-checks as a user's editor would check it (the CLI runs it with ts-node).
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(machines[0]!.dir, "tsconfig.json")],
    { stdio: "pipe" },
  );
});

afterAll(async () => {
  for (const m of machines) rmSync(m.dir, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await emulator?.stop();
  pg?.stop();
  receiver?.close();
});

/** `nsp-fleet run` (one process, no queue) on a machine, with its report. */
async function runFleet(
  machine: number,
  name: string,
  customers: object[],
  args: string[] = [],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ run: RunResult; report?: FleetReport }> {
  const file = join(scratch, `${name}.customers.json`);
  const reportFile = join(scratch, `${name}.report.json`);
  writeFileSync(file, JSON.stringify(customers));
  const run = await fleet(machine, ["run", "--customers", file, "--report", reportFile, ...args], extra);
  return {
    run,
    report: existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, "utf8")) as FleetReport) : undefined,
  };
}

interface FleetReport {
  succeeded: number;
  failed: number;
  stacks: {
    stack: string;
    result: string;
    changes: Record<string, number>;
    changed: number;
    startedAt: string;
    finishedAt: string;
    error?: string;
    plan?: PlanJson;
  }[];
}

/** The most stacks that were running at one moment, from their start and end times. */
function mostAtOnce(stacks: { startedAt: string; finishedAt: string }[]): number {
  const events = stacks.flatMap((s) => [
    { at: Date.parse(s.startedAt), delta: 1 },
    { at: Date.parse(s.finishedAt), delta: -1 },
  ]);
  // An end before a start at the same millisecond: the pool starts the next stack after one ends.
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let most = 0;
  for (const e of events) most = Math.max(most, (running += e.delta));
  return most;
}

describe("a fleet of 40 customers on one queue, three workers", () => {
  let killRun: string;

  it(
    "survives a worker killed with SIGKILL mid-stack: every customer once, in its own account, nothing " +
      "doubled, missing or untracked",
    async () => {
      const control = emulator.control();
      await control.resetStats();
      await emulator.control("partner").post("/partner/subjects", { external_ref: ADOPTED });
      // Each record's create is held on the wire a while, so that a create is in flight when the kill
      // lands, however long the test takes between seeing it and killing on a loaded machine.
      await control.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 15_000, methods: ["POST"], path: "/records$" });
      const run = (killRun = await enqueue(refs.map(customer)));
      const cpuBefore = reapedChildrenCpuMs();
      const workerArgs = ["worker", "--concurrency", "2", "--until-idle", "--lease", "8"];
      const workers = [0, 1, 2].map((m) => start(m, workerArgs));
      const victim = workers[2]!;
      const victims = async () =>
        (await status(run)).stacks
          .filter((x) => x.result === "running" && x.worker?.endsWith(`:${victim.child.pid}`))
          .map((x) => x.stack);
      // The third worker holds a stack whose state lists a record's create in flight: only those are
      // held on the wire, so it is still in flight at the kill (a zone's create may land in between).
      const recordInFlight = (op: { type: string; resource?: { type?: string } }) =>
        op.type === "creating" && op.resource?.type === "nsp:dns:Record";
      await until(async () => {
        for (const r of await victims())
          if ((await checkpointOf(r)).pending_operations?.some(recordInFlight)) return true;
        return victim.child.exitCode !== null;
      }, 100);
      expect(victim.child.exitCode, victim.stderr()).toBeNull();
      const tree = processTree(victim.child.pid!);
      const held = await victims();
      victim.child.kill("SIGKILL");
      await victim.done;
      await control.clearFaults();
      // The create on the wire lands now, as on a server that answers late: before the stack's next
      // attempt looks for it, which a wait of its own would otherwise race (the lease is 8 s).
      await control.releaseHeld();
      // Its pulumi commands die with it (and their plugins with them): no run of its stacks goes on unseen.
      await until(() => !tree.some(isRunning), 200);

      const [a, b] = await Promise.all([workers[0]!.done, workers[1]!.done]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const cpuMs = reapedChildrenCpuMs() - cpuBefore;
      const after = await statusShown(run);
      // For the record (not a bound): what the run cost, and what the kill cost it.
      const wallMs =
        Math.max(...after.stacks.map((x) => Date.parse(x.finishedAt))) -
        Math.min(...after.stacks.map((x) => Date.parse(x.startedAt)));
      console.log(
        `fleet kill run: ${CUSTOMERS} stacks in ${(wallMs / 1000).toFixed(1)} s, the workers' CPU ` +
          `${(cpuMs / 1000).toFixed(1)} s (${(cpuMs / 1000 / CUSTOMERS).toFixed(2)} s a stack), ${held.length} ` +
          `stack(s) running on the killed worker, ${after.stacks.filter((x) => x.attempts > 1).length} job(s) run again`,
      );
      expect(after.stacks.map((x) => [x.stack, x.result, x.error])).toEqual(
        refs.map((r) => [r, "succeeded", undefined]),
      );
      expect([after.succeeded, after.failed, after.pending]).toEqual([CUSTOMERS, 0, 0]);
      // The killed worker's stacks ran again on another worker, after clearing the dead run (but
      // one the killed worker finished in the instant before the kill, if any).
      const taken = held
        .map((r) => after.stacks.find((x) => x.stack === r)!)
        .filter((x) => !x.worker!.endsWith(`:${victim.child.pid}`));
      expect(taken.length).toBeGreaterThan(0);
      for (const row of taken) {
        const log = logsOf(run, row.stack);
        expect(row.attempts, log).toBe(2);
        // The second attempt cleared the dead run's lock and settled its pending creates first.
        expect(log).toMatch(
          /# attempt 2 on [\s\S]*\$ pulumi cancel --yes --stack [\s\S]*\$ nsp-discover --pending-creates --stack [\s\S]*\$ pulumi up /,
        );
      }
      // The create in flight was settled: adopted if it landed, cleared if it did not (or written again, for an object its inputs name).
      expect(taken.map((row) => logsOf(run, row.stack)).join("\n")).toMatch(/^(adopt|absent|repeatable): urn:pulumi:/m);
      // A stack run once made its stack, its provider(s), the zone, its records and the mail domain,
      // and the subject, which the adopted customer's stack imported instead.
      const created = (r: string) => (OWN_TOKEN.includes(r) ? 4 : r === ADOPTED ? 5 : 6) + records(r).length;
      const once = after.stacks.filter((x) => x.attempts === 1);
      expect(once.map((x) => [x.stack, x.changes.create, x.changes.import])).toEqual(
        once.map((x) => [x.stack, created(x.stack), x.stack === ADOPTED ? 1 : undefined]),
      );
      expect(once.map((x) => x.stack)).toEqual(
        expect.arrayContaining([ADOPTED, ...OWN_TOKEN].filter((r) => !held.includes(r))),
      );
      await expectServerMatchesState();
      const shown = await fleet(0, ["status", "--run", run]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`run ${run} (up): ${CUSTOMERS} succeeded, 0 failed, 0 queued or running`);
      // The three workers on one partner token at the default quota.
      const stats = await emulator.control().stats();
      expect(stats.rateLimited / stats.total).toBeLessThan(0.02);
    },
  );

  it(
    "runs a second run enqueued at once with no change for all 40, one stack on one worker at a time " +
      "across runs; a worker stopped with SIGTERM takes no new job, finishes its running stacks and exits 0",
    async () => {
      expect(killRun).toBeDefined();
      await emulator.control().resetStats();
      const second = await enqueue(refs.map(customer));
      // A third run of one customer, queued behind the second's job of the same stack.
      const third = await enqueue([customer(refs[0]!)]);
      const stopped = start(1, ["worker", "--concurrency", "2"]);
      await until(
        async () =>
          (await status(second)).stacks.filter((x) => x.result === "running").length === 2 ||
          stopped.child.exitCode !== null,
        200,
      );
      const running = (await status(second)).stacks.filter((x) => x.result === "running").map((x) => x.stack);
      expect(running).toHaveLength(2);
      stopped.child.kill("SIGTERM");
      const drained = await stopped.done;
      expect(drained.code, drained.stderr).toBe(0);
      expect(drained.stderr).toMatch(/SIGTERM: no new job is taken; the running stacks finish/);
      const mid = await status(second);
      expect(mid.stacks.filter((x) => running.includes(x.stack)).map((x) => [x.result, x.attempts])).toEqual([
        ["succeeded", 1],
        ["succeeded", 1],
      ]);
      expect(mid.stacks.filter((x) => !running.includes(x.stack)).every((x) => x.result === "queued")).toBe(true);

      const again = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
      for (const r of again) expect(r.code, r.stderr).toBe(0);
      const unchanged = await status(second);
      expect(unchanged.stacks.map((x) => [x.stack, x.result, x.changed])).toEqual(refs.map((r) => [r, "succeeded", 0]));
      // The two jobs of one stack, in two runs: neither was refused by the state's lock and retried,
      // the queue held the later back until the first ended.
      const [a, b] = [unchanged.stacks[0]!, (await status(third)).stacks[0]!];
      expect([a.result, a.attempts, b.result, b.attempts, b.changed]).toEqual(["succeeded", 1, "succeeded", 1, 0]);
      expect(
        Date.parse(b.startedAt) >= Date.parse(a.finishedAt) || Date.parse(a.startedAt) >= Date.parse(b.finishedAt),
      ).toBe(true);
      // A stack the fleet has run before gets one run of the CLI: its `up`, with no `stack select` first.
      for (const r of refs) expect(logsOf(second, r).match(/^\$ pulumi \S+/gm)).toEqual(["$ pulumi up"]);
      // The partner token's shared quota: each of the four worker processes checked it once; the
      // stacks, told so, spent none of it, and nothing was minted for a run that changes nothing.
      const partner = await emulator.control().tokenStats("account:partner");
      console.log(
        `fleet no-change run: ${CUSTOMERS} stacks, ${partner.total} partner-token request(s): ${JSON.stringify(partner.byRoute)}`,
      );
      expect(partner.total).toBeLessThanOrEqual(4);
      expect(Object.keys(partner.byRoute)).toEqual(["GET /partner"]);
    },
  );

  it(
    "a preview through the queue of a change to the customers reports, per stack, exactly the planned " +
      "operations, writes nothing, and its summary and --expect-no-changes say so",
    async () => {
      // Four customers change: a record added, a record's content, a record renamed (a new
      // resource for the old), a record removed; the other 36 do not.
      const changed = refs.map((r) => {
        const c = customer(r);
        if (r === "q01") return { ...c, records: [...c.records, { name: "new", type: "A", content: "192.0.2.20" }] };
        if (r === "q02") return { ...c, records: [{ name: "www", type: "A", content: "192.0.2.11" }] };
        if (r === "q03") return { ...c, records: [{ name: "web", type: "A", content: "192.0.2.10" }] };
        if (r === "q10") return { ...c, records: [c.records[0]!] };
        return c;
      });
      const control = emulator.control();
      await control.resetStats();
      const preview = await enqueue(changed, ["--preview"]);
      const done = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
      for (const r of done) expect(r.code, r.stderr).toBe(0);
      const shown = await statusShown(preview);
      const planned = (r: string) =>
        shown.stacks.find((x) => x.stack === r)!.plan!.steps.map((s) => [s.op, s.urn.split("::").pop(), s.properties]);
      expect(planned("q01")).toEqual([["create", "a-new", []]]);
      expect(planned("q02")).toEqual([["update", "a-www", ["content"]]]);
      expect(planned("q03").sort()).toEqual([
        ["create", "a-web", []],
        ["delete", "a-www", []],
      ]);
      expect(planned("q10")).toEqual([["delete", "txt-api", []]]);
      const changing = ["q01", "q02", "q03", "q10"];
      expect(shown.stacks.filter((x) => x.changed > 0).map((x) => x.stack)).toEqual(changing);
      expect(shown.stacks.every((x) => x.result === "succeeded")).toBe(true);
      // Nothing written: the only requests that are not reads are the read credentials minted for the customers.
      const stats = await control.stats();
      expect(
        Object.keys(stats.byRoute).filter(
          (k) => !k.startsWith("GET ") && !/^POST \/partner\/subjects\/[^/]+\/token$/.test(k),
        ),
      ).toEqual([]);
      for (const r of ["q02", "q10"]) {
        const account = await accountOf(r);
        const zone = (await account.list<{ id: number }>("/dns/zones"))[0]!;
        const own = (await account.list<{ name: string; content: string }>(`/dns/zones/${zone.id}/records`)).filter(
          (x) => x.name === "www" || x.name === "api",
        );
        expect(own.map((x) => [x.name, x.content]).sort()).toEqual(
          records(r)
            .map((x) => [x.name, x.content])
            .sort(),
        );
      }
      // The summary for a pull request: the stacks that delete first, the unchanged ones counted.
      const markdown = join(scratch, "preview.md");
      const summary = await fleet(0, ["status", "--run", preview, "--markdown", markdown, "--expect-no-changes"]);
      expect(summary.code, summary.stderr).toBe(3);
      expect(summary.stderr).toContain("--expect-no-changes: 4 stack(s) would change");
      const md = readFileSync(markdown, "utf8");
      expect(md).toContain("### nsp-fleet preview: 4 of 40 stack(s) would change");
      const rows = md
        .split("\n")
        .filter((l) => /^\| q\d\d /.test(l))
        .map((l) => l.split("|")[1]!.trim());
      expect(rows).toEqual(["q03", "q10", "q01", "q02"]);
      expect(md).toContain("| q02 | 0 | 1 | 0 | 0 | update `a-www` (content) |");
      expect(md).toContain("36 stack(s) unchanged.");
      // In one process, no queue: the same plan, and no change expected of a customer that does not change.
      const one = await runFleet(1, "preview-one", [changed[1]!], ["--preview", "--expect-no-changes"]);
      expect(one.run.code, one.run.stderr).toBe(3);
      expect(one.report!.stacks.map((s) => [s.stack, s.plan!.steps.map((x) => x.op)])).toEqual([["q02", ["update"]]]);
      const none = await runFleet(1, "preview-none", [customer("q04")], ["--preview", "--expect-no-changes"]);
      expect(none.run.code, none.run.stderr).toBe(0);
      expect(none.run.stdout).toContain("preview: 1 succeeded, 0 failed, 0 would change");
    },
  );

  it(
    "a drift check finds the hand-made edits of three customers, and only theirs, with the properties and " +
      "both values; --remediate repairs them; a schedule fires the next check once across three workers, " +
      "which finds nothing",
    async () => {
      // By hand, through the API: a record's content (q05), a record deleted (q06), a zone disabled (q07).
      const write = async (r: string) =>
        new EmulatorControl(
          emulator.baseUrl,
          (
            await emulator
              .control("partner")
              .post<{ token: string }>(`/partner/subjects/${r}/token`, { scope: "write" })
          ).token,
        );
      const zoneOf = async (account: EmulatorControl) => (await account.list<{ id: number }>("/dns/zones"))[0]!.id;
      const wwwOf = async (account: EmulatorControl, zone: number) =>
        (await account.list<{ id: number; name: string }>(`/dns/zones/${zone}/records`)).find((x) => x.name === "www")!
          .id;
      const q05 = await write("q05");
      const z05 = await zoneOf(q05);
      await q05.patch(`/dns/zones/${z05}/records/${await wwwOf(q05, z05)}`, { content: "198.51.100.5" });
      const q06 = await write("q06");
      const z06 = await zoneOf(q06);
      await q06.delete(`/dns/zones/${z06}/records/${await wwwOf(q06, z06)}`);
      const q07 = await write("q07");
      await q07.patch(`/dns/zones/${await zoneOf(q07)}`, { enabled: false });

      // A check of a few customers without repair: the drifted ones are listed as drifted now.
      const few = await enqueue(["q04", "q05", "q06", "q07", "q08"].map(customer), ["--drift"]);
      expect((await fleet(0, ["worker", "--concurrency", "3", "--until-idle"])).code).toBe(0);
      expect((await statusShown(few)).stacks.map((x) => [x.stack, x.drift!.resources.length])).toEqual([
        ["q04", 0],
        ["q05", 1],
        ["q06", 1],
        ["q07", 1],
        ["q08", 0],
      ]);
      const listed = await fleet(0, ["status", "--drifted", "--json"]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(
        (JSON.parse(listed.stdout) as { stack: string; health: { state: string } }[]).map((x) => [
          x.stack,
          x.health.state,
        ]),
      ).toEqual([
        ["q05", "drifted"],
        ["q06", "drifted"],
        ["q07", "drifted"],
      ]);

      // Every customer the fleet brought up (no customers file), repairing what drifted.
      const queued = await fleet(0, ["enqueue", "--drift", "--remediate", "--retry-delay", "1"]);
      expect(queued.code, queued.stderr).toBe(0);
      const check = queued.stdout.trim();
      const done = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
      for (const r of done) expect(r.code, r.stderr).toBe(0);
      const found = await statusShown(check);
      expect(found.stacks.map((x) => x.stack)).toEqual(refs);
      expect(found.stacks.every((x) => x.result === "succeeded")).toBe(true);
      const drifted = found.stacks.filter((x) => x.drift!.resources.length > 0);
      expect(drifted.map((x) => x.stack)).toEqual(["q05", "q06", "q07"]);
      const driftOf = (r: string) =>
        drifted.find((x) => x.stack === r)!.drift!.resources.map((x) => ({ ...x, urn: x.urn.split("::").pop() }));
      expect(driftOf("q05")).toEqual([
        {
          urn: "a-www",
          type: "nsp:dns:Record",
          properties: [{ name: "content", recorded: "192.0.2.10", actual: "198.51.100.5" }],
        },
      ]);
      expect(driftOf("q06")).toEqual([{ urn: "a-www", type: "nsp:dns:Record", gone: true, properties: [] }]);
      expect(driftOf("q07")).toEqual([
        { urn: "zone", type: "nsp:dns:Zone", properties: [{ name: "enabled", recorded: true, actual: false }] },
      ]);
      expect(drifted.map((x) => [x.stack, x.remediation!.steps.map((s) => [s.op, s.urn.split("::").pop()])])).toEqual([
        ["q05", [["update", "a-www"]]],
        ["q06", [["create", "a-www"]]],
        ["q07", [["update", "zone"]]],
      ]);
      expect(found.stacks.filter((x) => x.remediation !== undefined).map((x) => x.stack)).toEqual([
        "q05",
        "q06",
        "q07",
      ]);
      // Repaired in the accounts.
      for (const r of ["q05", "q06"]) {
        const account = await accountOf(r);
        const zone = (await account.list<{ id: number }>("/dns/zones"))[0]!;
        expect(
          (await account.list<{ name: string; content: string }>(`/dns/zones/${zone.id}/records`))
            .filter((x) => x.name === "www")
            .map((x) => x.content),
        ).toEqual(["192.0.2.10"]);
      }
      expect((await (await accountOf("q07")).list<{ enabled: boolean }>("/dns/zones"))[0]!.enabled).toBe(true);
      const nowDrifted = await fleet(0, ["status", "--drifted", "--expect-no-changes"]);
      expect(nowDrifted.code, nowDrifted.stderr).toBe(0);
      const table = await fleet(0, ["status", "--run", check]);
      expect(table.stdout).toMatch(/^q05 +succeeded +update 1 +a-www\.content; remediated: update 1 /m);
      expect(table.stdout).toMatch(/^q06 +succeeded +delete 1 +a-www \(gone\); remediated: create 1 /m);
      expect(table.stdout).toContain(
        `run ${check} (drift, remediate): 40 succeeded, 0 failed, 0 queued or running, 3 drifted`,
      );

      // A schedule of every minute, three workers: one firing, one run, and it finds nothing.
      const added = await fleet(0, ["schedule", "add", "drift", "--cron", "* * * * *"]);
      expect(added.code, added.stderr).toBe(0);
      const listedSchedules = await fleet(0, ["schedule", "ls", "--json"]);
      expect(JSON.parse(listedSchedules.stdout)).toEqual([
        { kind: "drift", cron: "* * * * *", timezone: "UTC", remediate: false },
      ]);
      const ports = [await freePort(), await freePort(), await freePort()];
      const scheduled = [0, 1, 2].map((m) =>
        start(m, ["worker", "--concurrency", "2", "--metrics-port", String(ports[m])]),
      );
      let firings: { run_id: string | null; skipped: string | null; fired_at: Date }[] = [];
      await until(async () => {
        firings = await query(
          queueUrl,
          "SELECT run_id, skipped, fired_at FROM nsp_fleet.firings WHERE schedule = 'drift' ORDER BY fired_at",
        );
        return firings.length > 0 || scheduled.some((w) => w.child.exitCode !== null);
      }, 1000);
      // Removed at once, so that no next minute fires again while the test looks.
      expect((await fleet(0, ["schedule", "rm", "drift"])).code).toBe(0);
      const run = firings[0]!.run_id!;
      expect(run).toMatch(/^[0-9a-f-]{36}$/);
      await until(
        async () => (await status(run)).pending === 0 || scheduled.some((w) => w.child.exitCode !== null),
        1000,
      );
      // Each worker's metrics: Prometheus text; the three workers' jobs add up to what status says.
      const scraped = await Promise.all(
        ports.map(async (port) => prometheusText(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())),
      );
      const sum = (name: string, labels: Record<string, string>) =>
        scraped.reduce(
          (n, samples) =>
            n +
            samples
              .filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
              .reduce((a, x) => a + x.value, 0),
          0,
        );
      const ran = await status(run);
      expect(sum("nsp_fleet_jobs_total", { operation: "drift", result: "succeeded" })).toBe(ran.succeeded);
      expect(sum("nsp_fleet_jobs_total", { operation: "drift", result: "failed" })).toBe(ran.failed);
      expect(sum("nsp_fleet_stack_duration_seconds_count", { operation: "drift" })).toBe(ran.stacks.length);
      for (const samples of scraped) {
        expect(samples.find((x) => x.name === "nsp_fleet_stacks" && x.labels.result === "succeeded")?.value).toBe(
          ran.succeeded,
        );
        expect(samples.find((x) => x.name === "nsp_fleet_drifted_stacks")?.value).toBe(0);
      }
      for (const w of scheduled) w.child.kill("SIGTERM");
      for (const w of scheduled) expect((await w.done).code, w.stderr()).toBe(0);
      firings = await query(
        queueUrl,
        "SELECT run_id, skipped, fired_at FROM nsp_fleet.firings WHERE schedule = 'drift' ORDER BY fired_at",
      );
      // Three workers looked at the schedule; a firing is one run, never one per worker.
      for (let i = 1; i < firings.length; i++)
        expect(firings[i]!.fired_at.getTime() - firings[i - 1]!.fired_at.getTime()).toBeGreaterThan(30_000);
      const scheduledRuns = await query<{ id: string }>(
        queueUrl,
        "SELECT id FROM nsp_fleet.runs WHERE schedule = 'drift'",
      );
      expect(scheduledRuns.map((x) => x.id).sort()).toEqual(
        firings
          .filter((f) => f.run_id)
          .map((f) => f.run_id)
          .sort(),
      );
      const again = await statusShown(run);
      expect([
        again.stacks.length,
        again.succeeded,
        again.stacks.filter((x) => x.drift!.resources.length > 0).length,
      ]).toEqual([40, 40, 0]);
      expect((await fleet(0, ["schedule", "ls", "--json"])).stdout.trim()).toBe("[]");
    },
  );

  it(
    "`run` runs the customers given three at a time from one process, reports a stack that fails with " +
      "exit 1, and destroys the stacks of the customers given, and only theirs",
    async () => {
      const refused = `svc_${"0refused9".repeat(4)}`;
      const given = [
        customer("q37"),
        customer("q39"),
        customer("q10"),
        { ref: "refused", zone: "refused.queue.example", tokenEnv: "FLEET_REFUSED_TOKEN" },
      ];
      const { run, report } = await runFleet(0, "run", given, ["--concurrency", "3"], { FLEET_REFUSED_TOKEN: refused });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(report!.stacks.map((s) => [s.stack, s.result, s.changed])).toEqual([
        ["q37", "succeeded", 0],
        ["q39", "succeeded", 0],
        ["q10", "succeeded", 0],
        ["refused", "failed", 0],
      ]);
      expect(report!.stacks[3]!.error).toMatch(
        /does not know the API token in the apiToken of this provider instance .*unauthorized: invalid or unknown bearer token.*\(provider "customer"\)/,
      );
      expect(mostAtOnce(report!.stacks)).toBe(3);
      expect(run.stdout).toMatch(/up: 3 succeeded, 1 failed, at most 3 at a time/);
      expect(run.stdout + run.stderr + filesText([join(machines[0]!.dir, ".nsp-fleet", "logs")])).not.toContain(
        refused,
      );

      const destroyed = await runFleet(0, "run-destroy", [customer("q37"), customer("q39")], ["--destroy"]);
      expect(destroyed.run.code, destroyed.run.stdout + destroyed.run.stderr).toBe(0);
      expect(destroyed.report!.stacks.map((s) => [s.stack, s.result, s.changes.delete])).toEqual([
        ["q37", "succeeded", 6 + records("q37").length],
        ["q39", "succeeded", 4 + records("q39").length],
      ]);
      expect(await emulator.control("q39").list("/dns/zones")).toEqual([]);
      expect(await emulator.control("q39").list("/mail/domains")).toEqual([]);
      expect(
        (await emulator.control("partner").list<{ external_ref: string }>("/partner/subjects"))
          .map((s) => s.external_ref)
          .sort(),
      ).toEqual(viaPartner.filter((r) => r !== "q37").sort());
      expect(await emulator.control("q40").list("/dns/zones")).toHaveLength(1);
    },
  );

  it(
    "a local receiver got the failed, drifted and recovered events, each signed; the one it answered 500 " +
      "came again; no secret in any",
    async () => {
      const events = received.map((r) => ({
        ...r,
        event: JSON.parse(r.body) as {
          id: string;
          type: string;
          stack?: string;
          run: string;
          drift?: { properties: string[] };
        },
      }));
      for (const r of events) {
        expect(r.headers["x-nsp-fleet-signature-256"]).toBe(
          `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(r.body).digest("hex")}`,
        );
        expect(r.headers["x-nsp-fleet-event"]).toBe(r.event.type);
        expect(r.headers["x-nsp-fleet-delivery"]).toBe(r.event.id);
      }
      const first = events[0]!;
      expect(first.answered).toBe(500);
      expect(events.filter((r) => r.event.id === first.event.id).map((r) => r.answered)).toEqual([500, 204]);
      const delivered = events.filter((r) => r.answered === 204).map((r) => r.event);
      // Each event delivered once (a retry is the same event id).
      expect(new Set(delivered.map((e) => e.id)).size).toBe(delivered.length);
      const of = (type: string) =>
        delivered
          .filter((e) => e.type === type)
          .map((e) => e.stack)
          .sort();
      expect(of("stack.drifted")).toEqual(["q05", "q05", "q06", "q06", "q07", "q07"]);
      expect(of("stack.recovered")).toEqual(["q05", "q06", "q07"]);
      expect(of("stack.failed")).toEqual(["refused"]);
      expect(delivered.find((e) => e.type === "stack.drifted" && e.stack === "q05")!.drift!.properties).toEqual([
        "a-www.content",
      ]);
      expect(delivered.filter((e) => e.type === "run.finished").length).toBeGreaterThanOrEqual(5);
      const deliveries = await query<{ attempt: number; status: number | null }>(
        queueUrl,
        "SELECT attempt, status FROM nsp_fleet.deliveries WHERE event_id = $1 ORDER BY attempt",
        [first.event.id],
      );
      expect(deliveries).toEqual([
        { attempt: 1, status: 500 },
        { attempt: 2, status: 204 },
      ]);
      const bodies = received.map((r) => r.body).join("\n");
      const minted = await emulator.control().partnerCredentials();
      for (const secret of [
        ...Object.values(emulator.accounts),
        ...minted.map((m) => m.token),
        new URL(queueUrl).password,
        WEBHOOK_SECRET,
      ])
        expect(bodies).not.toContain(secret);
    },
  );

  it("destroys every stack through the queue and leaves nothing; no token or password in any output, log or state", async () => {
    const destroy = await enqueue(refs.map(customer), ["--destroy"]);
    const gone = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
    for (const r of gone) expect(r.code, r.stderr).toBe(0);
    expect((await status(destroy)).stacks.every((x) => x.result === "succeeded")).toBe(true);
    expect(await emulator.control("partner").list("/partner/subjects")).toEqual([]);
    for (const r of OWN_TOKEN) expect(await emulator.control(r).list("/dns/zones")).toEqual([]);
    for (const r of refs) expect((await stateOf(r)).filter((x) => x.type.startsWith("nsp:"))).toEqual([]);
    // A stack the fleet ran before but the backend no longer holds (removed by hand) is made again.
    execFileSync("pulumi", ["stack", "rm", "--yes", "--stack", refs[0]!, "--non-interactive"], {
      cwd: machines[0]!.dir,
      env: env(0),
      stdio: "pipe",
    });
    const remade = await enqueue([customer(refs[0]!)], ["--destroy"]);
    expect((await fleet(0, ["worker", "--until-idle"])).code).toBe(0);
    expect((await status(remade)).stacks.map((x) => [x.result, x.attempts])).toEqual([["succeeded", 1]]);
    expect(logsOf(remade, refs[0]!).match(/^\$ pulumi (stack select|\S+)/gm)).toEqual([
      "$ pulumi stack select",
      "$ pulumi destroy",
    ]);

    // The tokens are in each stack's state, encrypted; they, the credentials the providers minted
    // for the customers and the database's password are in plaintext nowhere.
    const states = (
      await query<{ data: { data: string } }>(
        stateUrl,
        "SELECT data FROM pulumi_state WHERE key LIKE '%/.pulumi/history/%' OR key LIKE '%/.pulumi/stacks/%'",
      )
    ).map((row) => Buffer.from(row.data.data, "base64").toString());
    expect(states.join("\n")).toContain("ciphertext");
    const minted = await emulator.control().partnerCredentials();
    expect(new Set(minted.map((m) => m.subject))).toEqual(new Set(viaPartner));
    const everything = [
      outputs.map((o) => o.stdout + o.stderr).join("\n"),
      ...states,
      ...machines.map((m) => filesText([join(m.dir, ".nsp-fleet", "logs")])),
    ].join("\n");
    for (const token of [...Object.values(emulator.accounts), ...minted.map((m) => m.token)])
      expect(everything).not.toContain(token);
    expect(everything).not.toContain(new URL(queueUrl).password);
  });
});

describe("stopping", () => {
  it("`run` stops at a safe point on SIGTERM, starts no further stack, and leaves every stack runnable", async () => {
    const customers = [customer("s1"), customer("s2")];
    const control = emulator.control();
    // The first write passes; every later one is held until the test lets it go, so the first
    // stack is still under way when the signal lands, however fast or slow the machine.
    await control.resetStats();
    await control.setFaults({
      rate: 1,
      kinds: ["timeout"],
      timeoutMs: 3_600_000,
      methods: ["POST", "PUT", "PATCH", "DELETE"],
      after: 1,
    });
    const file = join(scratch, "interrupted.customers.json");
    const reportFile = join(scratch, "interrupted.report.json");
    writeFileSync(file, JSON.stringify(customers));
    const w = start(0, ["run", "--customers", file, "--report", reportFile, "--concurrency", "1"]);
    let exited = false;
    const finished = w.done.finally(() => (exited = true));
    await until(async () => ((await control.stats()).faults.timeout ?? 0) > 0);
    w.child.kill("SIGTERM");
    // Once the fleet has taken the signal, the held writes are dropped unwritten (and any retry of them).
    await until(() => /SIGTERM: no new stack starts/.test(w.stderr()));
    await until(async () => {
      await fetch(`${control.root}/_emulator/faults/release`, { method: "POST" });
      return exited;
    });
    await control.clearFaults();
    const run = await finished;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(/SIGTERM: no new stack starts; the running ones stop at a safe point/);
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as FleetReport;
    expect(report.stacks.map((s) => [s.stack, s.result])).toEqual([
      ["s1", "failed"],
      ["s2", "cancelled"],
    ]);
    const again = await runFleet(0, "after-interrupted", customers, ["--concurrency", "2"]);
    expect(again.run.code, again.run.stdout + again.run.stderr).toBe(0);
    expect(again.report!.stacks.map((s) => [s.stack, s.result])).toEqual([
      ["s1", "succeeded"],
      ["s2", "succeeded"],
    ]);
    expect((await (await accountOf("s1")).list<{ name: string }>("/dns/zones")).map((z) => z.name)).toEqual([
      "s1.queue.example",
    ]);
  });

  it("a worker whose database connection is cut ends with exit 1 and a message naming the database without its password", async () => {
    const w = start(1, ["worker", "--concurrency", "1"]);
    await until(() => /worker \S+: up to 1 stack/.test(w.stderr()) || w.child.exitCode !== null);
    expect(w.child.exitCode, w.stderr()).toBeNull();
    const database = new URL(queueUrl).pathname.slice(1);
    // Every connection of the fleet to the queue's database, as when the server restarts.
    const cut = await query<{ pid: number }>(
      pg.url,
      "SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'nsp-fleet'",
      [database],
    );
    expect(cut.length).toBeGreaterThan(0);
    const r = await w.done;
    expect(r.code, r.stderr).toBe(1);
    const shown = new URL(queueUrl);
    shown.password = "***";
    expect(r.stderr).toContain(`lost the connection to the database (FLEET_DATABASE_URL=${shown.toString()})`);
    expect(r.stderr).toMatch(
      /exits for its supervisor to restart it once the database is back; their jobs return to the queue after the lease \(60 s\)/,
    );
    expect(r.stderr).not.toContain(new URL(queueUrl).password);
  });
});

describe("bad input", () => {
  it(
    "an unreachable database, a wrong password, a missing table, a bad customers file and an unknown run: " +
      "each a clear message, nothing enqueued",
    async () => {
      const file = join(scratch, "good.json");
      writeFileSync(file, JSON.stringify([customer("b1")]));
      const closed = new URL(queueUrl);
      closed.port = "1";
      const unreachable = await fleet(0, ["enqueue", "--customers", file], { FLEET_DATABASE_URL: closed.toString() });
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr).toMatch(
        /cannot reach the database \(FLEET_DATABASE_URL=postgres:\/\/nsp:\*\*\*@127\.0\.0\.1:1\/fleet_queue_\w+\): ECONNREFUSED; start PostgreSQL there/,
      );

      const wrong = new URL(queueUrl);
      wrong.password = "not-the-password";
      const refused = await fleet(0, ["worker", "--until-idle"], { FLEET_DATABASE_URL: wrong.toString() });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /the database refused user "nsp" .*password authentication failed.*; correct the user or password in the URL/,
      );
      expect(refused.stderr).not.toContain("not-the-password");

      const empty = await pg.database("fleet_empty");
      const noTables = await fleet(0, ["status"], { FLEET_DATABASE_URL: empty });
      expect(noTables.code).toBe(2);
      expect(noTables.stderr).toMatch(
        /holds no fleet tables \(nsp_fleet\.stacks\).*run `nsp-fleet enqueue` against it first/,
      );

      const runsBefore = await query<{ n: string }>(queueUrl, "SELECT count(*) AS n FROM nsp_fleet.stacks");
      const bad = join(scratch, "bad.json");
      writeFileSync(bad, JSON.stringify([customer("b2"), { ...customer("b3"), zone: "Not A Domain" }]));
      const badFile = await fleet(0, ["enqueue", "--customers", bad]);
      expect(badFile.code).toBe(2);
      expect(badFile.stderr).toMatch(/customers\[1\]\.zone: "Not A Domain" must be a lower-case domain name/);
      expect(await query<{ n: string }>(queueUrl, "SELECT count(*) AS n FROM nsp_fleet.stacks")).toEqual(runsBefore);

      const unknown = await fleet(0, ["status", "--run", "00000000-0000-4000-8000-000000000000"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/--run: no run 00000000-0000-4000-8000-000000000000 in the database/);
    },
  );

  it(
    "a bad cron, a webhook that is not https, a run that does not exist, a metrics port in use, clashing " +
      "operations: each a clear message, nothing queued or scheduled",
    async () => {
      const before = await query<{ n: string }>(queueUrl, "SELECT count(*) AS n FROM nsp_fleet.stacks");
      const cron = await fleet(0, ["schedule", "add", "drift", "--cron", "61 * * * *"]);
      expect(cron.code).toBe(2);
      expect(cron.stderr).toMatch(/--cron: "61 \* \* \* \*" is not a cron expression/);
      const seconds = await fleet(0, ["schedule", "add", "drift", "--cron", "*/5 * * * * *"]);
      expect(seconds.code).toBe(2);
      expect(seconds.stderr).toMatch(/--cron: .* has 6 field\(s\); give five/);
      expect((await fleet(0, ["schedule", "ls", "--json"])).stdout.trim()).toBe("[]");

      const http = await fleet(0, ["worker", "--until-idle", "--webhook", "http://hooks.example.com/nsp"]);
      expect(http.code).toBe(2);
      expect(http.stderr).toMatch(/--webhook: .*https/);
      const noSecret = await fleet(0, ["worker", "--until-idle"], { FLEET_WEBHOOK_SECRET: "" });
      expect(noSecret.code).toBe(2);
      expect(noSecret.stderr).toMatch(/FLEET_WEBHOOK_SECRET: not set/);

      const unknown = await fleet(0, [
        "status",
        "--run",
        "00000000-0000-4000-8000-000000000001",
        "--markdown",
        join(scratch, "none.md"),
        "--expect-no-changes",
      ]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/--run: no run 00000000-0000-4000-8000-000000000001 in the database/);
      expect(existsSync(join(scratch, "none.md"))).toBe(false);

      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as AddressInfo).port;
      await enqueue([customer("q01")], ["--preview"]);
      const inUse = await fleet(0, ["worker", "--until-idle", "--metrics-port", String(port)]);
      taken.close();
      expect(inUse.code, inUse.stderr).toBe(2);
      expect(inUse.stderr).toMatch(new RegExp(`--metrics-port ${port}: port ${port} on 127\\.0\\.0\\.1 is in use`));
      // The preview just queued was not taken by the worker that could not serve its metrics.
      const waiting = await query<{ result: string }>(
        queueUrl,
        "SELECT s.result FROM nsp_fleet.stacks s JOIN nsp_fleet.runs r ON r.id = s.run_id ORDER BY r.created_at DESC LIMIT 1",
      );
      expect(waiting).toEqual([{ result: "queued" }]);

      const both = await fleet(0, ["enqueue", "--preview", "--destroy", "--customers", join(scratch, "good.json")]);
      expect(both.code, both.stderr).toBe(2);
      expect(both.stderr).toContain("--preview and --destroy: give one at most");
      const remediate = await fleet(0, ["enqueue", "--preview", "--remediate"]);
      expect(remediate.code, remediate.stderr).toBe(2);
      expect(remediate.stderr).toContain("--remediate: only with --drift");
      expect(await query<{ n: string }>(queueUrl, "SELECT count(*) AS n FROM nsp_fleet.stacks")).toEqual([
        { n: String(Number(before[0]!.n) + 1) },
      ]);
      // The preview queued for the test above, run, so that it leaves the queue empty.
      expect((await fleet(0, ["worker", "--until-idle"])).code).toBe(0);
    },
  );

  it(
    "a revoked partner token fails the first stack, in one process and through the queue, with a message " +
      "naming NSP_PARTNER_TOKEN and no pulumi run",
    async () => {
      const token = emulator.accounts.revoked!;
      await emulator.control().revokeToken(token);
      const { run, report } = await runFleet(0, "revoked", [customer("r1"), customer("r2")], [], {
        NSP_PARTNER_TOKEN: token,
      });
      expect(run.code).toBe(1);
      expect(report!.stacks.map((s) => [s.stack, s.result])).toEqual([
        ["r1", "failed"],
        ["r2", "failed"],
      ]);
      expect(report!.stacks[0]!.error).toMatch(/^NSP_PARTNER_TOKEN: the API at \S+ does not know this token/);
      const queued = await enqueue([customer("r3")], ["--retries", "0"]);
      const worker = await fleet(1, ["worker", "--until-idle"], { NSP_PARTNER_TOKEN: token });
      expect(worker.code).toBe(1);
      expect((await status(queued)).stacks.map((x) => [x.stack, x.result, x.error?.split(":")[0]])).toEqual([
        ["r3", "failed", "NSP_PARTNER_TOKEN"],
      ]);
      expect(logsOf(queued, "r3")).not.toMatch(/^\$ pulumi/m);
      expect(run.stdout + run.stderr + worker.stderr).not.toContain(token);
    },
  );

  it("`run` stops at a bad input before any stack runs, naming the property", async () => {
    await emulator.control().resetStats();
    const { run, report } = await runFleet(0, "bad", [{ ...customer("b4"), zone: "Not A Domain" }]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/customers\[0\]\.zone: "Not A Domain" must be a lower-case domain name/);
    expect(report).toBeUndefined();
    // A subject for every provider from the environment would make the partner's own provider act
    // for that one customer.
    const subjectFromEnv = await runFleet(0, "subject-env", [customer("b5")], [], { NSP_PARTNER_SUBJECT: "b5" });
    expect(subjectFromEnv.run.code).toBe(2);
    expect(subjectFromEnv.run.stderr).toMatch(/NSP_PARTNER_SUBJECT: unset it/);
    expect((await emulator.control().stats()).total).toBe(0);
  });
});

describe("the fleet's page", () => {
  it(
    "shows the fleet the workers made in real headless Chromium: every stack, the failed filter, a " +
      "drifted customer's values, charts, a run appearing live, the token rule, no secret",
    async () => {
      // A customer drifted now: brought up again after the destroy, then edited by hand and checked.
      const upAgain = await enqueue([customer("q40")]);
      expect((await fleet(2, ["worker", "--until-idle"])).code).toBe(0);
      expect((await status(upAgain)).stacks.map((x) => x.result)).toEqual(["succeeded"]);
      const q40 = emulator.control("q40");
      const zone = (await q40.list<{ id: number }>("/dns/zones"))[0]!.id;
      const api = (await q40.list<{ id: number; name: string }>(`/dns/zones/${zone}/records`)).find(
        (x) => x.name === "api",
      )!.id;
      await q40.patch(`/dns/zones/${zone}/records/${api}`, { content: "customer=changed" });
      await enqueue([customer("q40")], ["--drift"]);
      expect((await fleet(2, ["worker", "--until-idle"])).code).toBe(0);
      // r3's run failed through the queue (its partner token revoked).
      const minted = await emulator.control().partnerCredentials();
      await checkFleetPage({
        queueUrl,
        logDirs: machines.map((m) => join(m.dir, ".nsp-fleet", "logs")),
        startRun: () => enqueue([customer("live")], ["--preview"]),
        failed: ["r3"],
        drifted: { stack: "q40", property: "content", recorded: "customer=q40", actual: "customer=changed" },
        secrets: [...Object.values(emulator.accounts), ...minted.map((m) => m.token), WEBHOOK_SECRET],
        screenshotsDir: join(process.env.NSP_TEST_RESULTS ?? scratch, "screenshots", "fleet"),
      });
    },
  );
});

/** What every worker wrote of a stack's attempts in a run. */
function logsOf(run: string, stack: string): string {
  return machines
    .map((m) => join(m.dir, ".nsp-fleet", "logs", run, `${stack}.log`))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}
