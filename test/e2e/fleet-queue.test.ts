// nsp-fleet on a shared PostgreSQL queue and Pulumi's PostgreSQL state backend, with the real
// pulumi CLI and the emulator as a process at its default request quota: three worker processes,
// each with its own copy of the customer project and its own PULUMI_HOME (three machines), take
// the customers' jobs; one is killed with SIGKILL while it runs stacks, another is stopped with
// SIGTERM. The PostgreSQL server is the test command's (scripts/postgres.sh), or one started here.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { until } from "../helpers/until";
import { isRunning, pulumiEnv, pulumiHome, prepareProject, ROOT, startEmulatorProcess, type EmulatorProcess, type RunResult } from "./harness";
import { pulumiBackendUrl, testPostgres, type TestPostgres } from "./postgres";

/**
 * The customers of the kill run. The figure is 40; each stack costs a few seconds of CPU
 * and the run makes every stack three times (up, up again, destroy), so the suite runs a smaller
 * fleet and `npm run bench -- F1` runs the 40.
 */
const CUSTOMERS = 12;
const FLEET = join(ROOT, "dist", "fleet.js");

interface StatusJson {
  run: string;
  succeeded: number;
  failed: number;
  pending: number;
  stacks: { stack: string; result: string; changes: Record<string, number>; changed: number; attempts: number; worker?: string; startedAt: string; finishedAt: string; error?: string }[];
}

let pg: TestPostgres;
let emulator: EmulatorProcess;
let queueUrl: string;
let stateUrl: string;
let scratch: string;
const machines: { dir: string; home: string }[] = [];
const outputs: RunResult[] = [];

const ref = (i: number) => `q${String(i).padStart(2, "0")}`;
const customer = (r: string) => ({ ref: r, zone: `${r}.queue.example`, records: [{ name: "www", type: "A", content: "192.0.2.10" }] });

function env(machine: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...pulumiEnv(machines[machine]!.home, ""),
    PULUMI_BACKEND_URL: pulumiBackendUrl(stateUrl),
    FLEET_DATABASE_URL: queueUrl,
    NSP_BASE_URL: emulator.baseUrl,
    NSP_PARTNER_TOKEN: emulator.accounts.partner!,
    ...extra,
  };
}

/** `nsp-fleet <args>` on a machine, as a process; `done` resolves when it has exited. */
function start(machine: number, args: string[], extra: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<RunResult>; stderr: () => string } {
  const child = spawn(process.execPath, [FLEET, ...args], { cwd: machines[machine]!.dir, env: env(machine, extra), stdio: ["ignore", "pipe", "pipe"] });
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

async function status(run: string): Promise<StatusJson> {
  const r = await fleet(0, ["status", "--run", run, "--json"]);
  return JSON.parse(r.stdout) as StatusJson;
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
async function checkpointOf(stack: string): Promise<{ resources?: { type: string; id?: string }[]; pending_operations?: { type: string; resource?: { type?: string } }[] }> {
  const rows = await query<{ data: { data: string } }>(stateUrl, "SELECT data FROM pulumi_state WHERE key LIKE $1", [`%/.pulumi/stacks/nsp-fleet/${stack}.json`]);
  if (rows.length === 0) return {};
  return (JSON.parse(Buffer.from(rows[0]!.data.data, "base64").toString()) as { checkpoint: { latest?: object } }).checkpoint.latest ?? {};
}

/** Each stack's resources: type and id; none left pending. */
async function stateOf(stack: string): Promise<{ type: string; id?: string }[]> {
  const latest = await checkpointOf(stack);
  expect(latest.pending_operations ?? []).toEqual([]);
  return latest.resources ?? [];
}

/** The customer's account, through a read credential the partner mints. */
async function accountOf(r: string): Promise<EmulatorControl> {
  const minted = await emulator.control("partner").post<{ token: string }>(`/partner/subjects/${r}/token`, { scope: "read" });
  return new EmulatorControl(emulator.baseUrl, minted.token);
}

/** Every object of the fleet on the server is one stack's and in that stack's state; each stack has exactly its own. */
async function expectServerMatchesState(refs: string[]): Promise<void> {
  const subjects = await emulator.control("partner").list<{ external_ref: string }>("/partner/subjects");
  expect(subjects.map((s) => s.external_ref).sort()).toEqual([...refs].sort());
  for (const r of refs) {
    const account = await accountOf(r);
    const zones = await account.list<{ id: number; name: string }>("/dns/zones");
    expect(zones.map((z) => z.name)).toEqual([`${r}.queue.example`]);
    const mail = await account.list<{ id: number; records: { record_id: number | null }[] }>("/mail/domains");
    expect(mail).toHaveLength(1);
    const published = new Set(mail[0]!.records.map((x) => x.record_id));
    const own = (await account.list<{ id: number }>(`/dns/zones/${zones[0]!.id}/records`)).filter((x) => !published.has(x.id));
    const state = await stateOf(r);
    const ids = (type: string) => state.filter((x) => x.type === type).map((x) => String(x.id));
    expect(ids("nsp:partner:Subject")).toEqual([r]);
    expect(ids("nsp:dns:Zone")).toEqual([String(zones[0]!.id)]);
    expect(ids("nsp:mail:Domain")).toEqual([String(mail[0]!.id)]);
    expect(ids("nsp:dns:Record").sort()).toEqual(own.map((x) => String(x.id)).sort());
  }
}

/** The processes under `pid`: pulumi, its language host and plugins. */
function processTree(pid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...rows.filter(([, ppid]) => ppid === tree[i]).map(([p]) => p));
  return tree;
}

beforeAll(async () => {
  pg = await testPostgres();
  queueUrl = await pg.database("fleet_queue");
  stateUrl = await pg.database("fleet_state");
  // The emulator's default quota (300 requests a minute per token): the workers share it.
  emulator = await startEmulatorProcess(["--account", "partner", "--rate-limit", "300"]);
  scratch = mkdtempSync(join(tmpdir(), "nsp-e2e-fleet-queue-"));
  for (let m = 0; m < 3; m++) {
    const home = pulumiHome(join(scratch, `home-${m}`));
    machines.push({ dir: prepareProject("fleet"), home });
  }
  mkdirSync(join(scratch, "logs"));
});

afterAll(async () => {
  for (const m of machines) rmSync(m.dir, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await emulator?.stop();
  pg?.stop();
});

describe("three workers on one queue", () => {
  const refs = Array.from({ length: CUSTOMERS }, (_, i) => ref(i + 1));

  it("survives a worker killed with SIGKILL mid-stack: every customer once, nothing doubled, missing or untracked; a second run changes nothing; --destroy leaves nothing", async () => {
    const control = emulator.control();
    await control.resetStats();
    // Each record's create is held on the wire a while, so that a create is in flight when the kill lands.
    await control.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 3000, methods: ["POST"], path: "/records$" });
    const run = await enqueue(refs.map(customer));
    const workerArgs = ["worker", "--concurrency", "2", "--until-idle", "--lease", "8"];
    const workers = [0, 1, 2].map((m) => start(m, workerArgs));
    const victim = workers[2]!;
    const victims = async () => (await status(run)).stacks.filter((x) => x.result === "running" && x.worker?.endsWith(`:${victim.child.pid}`)).map((x) => x.stack);
    // The third worker holds a stack whose state lists a record's create in flight: only those are
    // held on the wire, so it is still in flight at the kill (a zone's create may land in between).
    const recordInFlight = (op: { type: string; resource?: { type?: string } }) => op.type === "creating" && op.resource?.type === "nsp:dns:Record";
    await until(async () => {
      for (const r of await victims()) if ((await checkpointOf(r)).pending_operations?.some(recordInFlight)) return true;
      return victim.child.exitCode !== null;
    }, 100);
    expect(victim.child.exitCode, victim.stderr()).toBeNull();
    const tree = processTree(victim.child.pid!);
    const held = await victims();
    victim.child.kill("SIGKILL");
    await victim.done;
    await control.clearFaults();
    // Its pulumi commands die with it (and their plugins with them): no run of its stacks goes on unseen.
    await until(() => !tree.some(isRunning), 200);

    const [a, b] = await Promise.all([workers[0]!.done, workers[1]!.done]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const after = await status(run);
    expect(after.stacks.map((x) => [x.stack, x.result, x.error])).toEqual(refs.map((r) => [r, "succeeded", undefined]));
    expect([after.succeeded, after.failed, after.pending]).toEqual([CUSTOMERS, 0, 0]);
    // The killed worker's stacks ran again on another worker, after clearing the dead run (but
    // one the killed worker finished in the instant before the kill, if any).
    const taken = held.map((r) => after.stacks.find((x) => x.stack === r)!).filter((x) => !x.worker!.endsWith(`:${victim.child.pid}`));
    expect(taken.length).toBeGreaterThan(0);
    for (const row of taken) {
      const log = logsOf(run, row.stack);
      expect(row.attempts, log).toBe(2);
      // The second attempt cleared the dead run's lock and settled its pending creates first.
      expect(log).toMatch(/# attempt 2 on [\s\S]*\$ pulumi cancel --yes --stack [\s\S]*\$ nsp-discover --pending-creates --stack [\s\S]*\$ pulumi up /);
    }
    // The create in flight was settled: adopted if it landed, cleared if it did not (or written again, for an object its inputs name).
    expect(taken.map((row) => logsOf(run, row.stack)).join("\n")).toMatch(/^(adopt|absent|repeatable): urn:pulumi:/m);
    await expectServerMatchesState(refs);
    const shown = await fleet(0, ["status", "--run", run]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`run ${run} (up): ${CUSTOMERS} succeeded, 0 failed, 0 queued or running`);
    // The three workers on one partner token at the default quota.
    const stats = await emulator.control().stats();
    expect(stats.rateLimited / stats.total).toBeLessThan(0.02);

    const second = await enqueue(refs.map(customer));
    const again = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
    for (const r of again) expect(r.code, r.stderr).toBe(0);
    const unchanged = await status(second);
    expect(unchanged.stacks.map((x) => [x.stack, x.result, x.changed])).toEqual(refs.map((r) => [r, "succeeded", 0]));

    const destroy = await enqueue(refs.map(customer), ["--destroy"]);
    const gone = await Promise.all([0, 1, 2].map((m) => fleet(m, ["worker", "--concurrency", "2", "--until-idle"])));
    for (const r of gone) expect(r.code, r.stderr).toBe(0);
    expect((await status(destroy)).stacks.every((x) => x.result === "succeeded")).toBe(true);
    expect(await emulator.control("partner").list("/partner/subjects")).toEqual([]);
    for (const r of refs) expect((await stateOf(r)).filter((x) => x.type.startsWith("nsp:"))).toEqual([]);

    // The tokens and the database's password are in no output and no log.
    const everything = outputs.map((o) => o.stdout + o.stderr).join("\n") + execFileSync("cat", ["-v", ...machines.flatMap((m) => logFiles(m.dir))], { encoding: "utf8", maxBuffer: 1 << 28 });
    expect(everything).not.toContain(emulator.accounts.partner!);
    expect(everything).not.toContain(new URL(queueUrl).password);
  });

  it("runs one stack on one worker at a time, whichever run its jobs belong to (the queue's singleton key)", async () => {
    const one = [customer("solo")];
    const first = await enqueue(one);
    const second = await enqueue(one);
    const r = await fleet(0, ["worker", "--concurrency", "2", "--until-idle"]);
    expect(r.code, r.stderr).toBe(0);
    const [a, b] = [(await status(first)).stacks[0]!, (await status(second)).stacks[0]!];
    // Neither was refused by the state's lock and retried: the queue held the second back.
    expect([a.result, a.attempts, b.result, b.attempts]).toEqual(["succeeded", 1, "succeeded", 1]);
    expect(Date.parse(b.startedAt)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt));
    expect(b.changed).toBe(0);
  });
});

describe("a worker stopped with SIGTERM", () => {
  it("takes no new job, finishes its running stacks and exits 0; another worker runs the rest", async () => {
    const refs = ["t1", "t2", "t3", "t4"];
    const run = await enqueue(refs.map(customer));
    const w = start(1, ["worker", "--concurrency", "2"]);
    await until(async () => (await status(run)).stacks.filter((x) => x.result === "running").length === 2 || w.child.exitCode !== null, 200);
    const running = (await status(run)).stacks.filter((x) => x.result === "running").map((x) => x.stack);
    expect(running).toHaveLength(2);
    w.child.kill("SIGTERM");
    const stopped = await w.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toMatch(/SIGTERM: no new job is taken; the running stacks finish/);
    const mid = await status(run);
    expect(mid.stacks.filter((x) => running.includes(x.stack)).map((x) => [x.result, x.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
    expect(mid.stacks.filter((x) => !running.includes(x.stack)).map((x) => x.result)).toEqual(["queued", "queued"]);
    const rest = await fleet(2, ["worker", "--until-idle"]);
    expect(rest.code, rest.stderr).toBe(0);
    expect((await status(run)).stacks.map((x) => x.result)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  });
});

describe("bad input", () => {
  it("an unreachable database, a wrong password, a missing table, a bad customers file and an unknown run: each a clear message, nothing enqueued", async () => {
    const file = join(scratch, "good.json");
    writeFileSync(file, JSON.stringify([customer("b1")]));
    const closed = new URL(queueUrl);
    closed.port = "1";
    const unreachable = await fleet(0, ["enqueue", "--customers", file], { FLEET_DATABASE_URL: closed.toString() });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/cannot reach the database \(FLEET_DATABASE_URL=postgres:\/\/nsp:\*\*\*@127\.0\.0\.1:1\/fleet_queue_\w+\): ECONNREFUSED; start PostgreSQL there/);

    const wrong = new URL(queueUrl);
    wrong.password = "not-the-password";
    const refused = await fleet(0, ["worker", "--until-idle"], { FLEET_DATABASE_URL: wrong.toString() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the database refused user "nsp" .*password authentication failed.*; correct the user or password in the URL/);
    expect(refused.stderr).not.toContain("not-the-password");

    const empty = await pg.database("fleet_empty");
    const noTables = await fleet(0, ["status"], { FLEET_DATABASE_URL: empty });
    expect(noTables.code).toBe(2);
    expect(noTables.stderr).toMatch(/holds no fleet tables \(nsp_fleet\.stacks\).*run `nsp-fleet enqueue` against it first/);

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
  });
});

/** What every worker wrote of a stack's attempts in a run. */
function logsOf(run: string, stack: string): string {
  return machines
    .map((m) => join(m.dir, ".nsp-fleet", "logs", run, `${stack}.log`))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
}

function logFiles(dir: string): string[] {
  return execFileSync("find", [join(dir, ".nsp-fleet"), "-type", "f"], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
}
