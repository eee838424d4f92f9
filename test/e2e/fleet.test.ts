// `nsp-fleet run`: one stack of the customer project (examples/fleet) per customer, three at a
// time, from one process, against the emulator as a process, with the real pulumi CLI and a local
// file backend. Four customers are
// reached in partner mode through one partner token (one of them already a subject, adopted), two
// with a token of their own.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { filesText, isRunning, prepareProject, pulumiEnv, ROOT, startEmulatorProcess, type EmulatorProcess, type RunResult } from "./harness";
import { until } from "../helpers/until";

interface StackReport {
  stack: string;
  result: string;
  changes: Record<string, number>;
  changed: number;
  startedAt: string;
  finishedAt: string;
  error?: string;
}
interface FleetReport {
  succeeded: number;
  failed: number;
  stacks: StackReport[];
}

const VIA_PARTNER = ["c1", "c2", "c3", "c4"];
const OWN_TOKEN = ["c5", "c6"];
const REFS = [...VIA_PARTNER, ...OWN_TOKEN];
const ADOPTED = "c4";
const records = (ref: string) => [
  { name: "www", type: "A", content: "192.0.2.10" },
  { name: "api", type: "TXT", content: `customer=${ref}` },
];

let emulator: EmulatorProcess;
let dir: string; // the customer project, copied
let scratch: string; // PULUMI_HOME, the backend, the stacks' workspaces, inputs and reports
const runs: RunResult[] = [];

function tokenEnv(ref: string) {
  return `FLEET_TOKEN_${ref.toUpperCase()}`;
}

function customer(ref: string) {
  const auth = OWN_TOKEN.includes(ref) ? { tokenEnv: tokenEnv(ref) } : ref === ADOPTED ? { adoptSubject: true } : {};
  return { ref, zone: `${ref}.fleet.example`, records: records(ref), ...auth };
}

/** The API as the customer's own account: its own token, or a read credential the partner mints. */
async function accountOf(ref: string): Promise<EmulatorControl> {
  if (OWN_TOKEN.includes(ref)) return emulator.control(ref);
  const minted = await emulator.control("partner").post<{ token: string }>(`/partner/subjects/${ref}/token`, { scope: "read" });
  return new EmulatorControl(emulator.baseUrl, minted.token);
}

/**
 * Starts the fleet program as a user would, with the customers given; `done` resolves with its
 * exit and its report.
 */
function startFleet(name: string, customers: object[], args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) {
  const customersFile = join(scratch, `${name}.customers.json`);
  const reportFile = join(scratch, `${name}.report.json`);
  writeFileSync(customersFile, JSON.stringify(customers));
  const env = {
    ...pulumiEnv(join(scratch, "home"), join(scratch, "state")),
    NSP_BASE_URL: emulator.baseUrl,
    NSP_PARTNER_TOKEN: emulator.accounts.partner!,
    ...Object.fromEntries(OWN_TOKEN.map((ref) => [tokenEnv(ref), emulator.accounts[ref]!])),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [join(ROOT, "dist", "fleet.js"), "run", "--customers", customersFile, "--report", reportFile, "--log-dir", join(scratch, "logs"), ...args], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ run: RunResult; report?: FleetReport }>((resolve) =>
    child.on("close", (code) => {
      const run = { code: code ?? -1, stdout, stderr };
      runs.push(run);
      let report: FleetReport | undefined;
      try {
        report = JSON.parse(readFileSync(reportFile, "utf8")) as FleetReport;
      } catch {
        report = undefined; // the fleet stopped before running any stack
      }
      resolve({ run, report });
    }),
  );
  return { child, done };
}

function fleet(name: string, customers: object[], args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) {
  return startFleet(name, customers, args, extraEnv).done;
}

/** The most stacks that were running at one moment, from the report's start and end times. */
function mostAtOnce(stacks: StackReport[]): number {
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

beforeAll(async () => {
  emulator = await startEmulatorProcess(["partner", ...OWN_TOKEN].flatMap((name) => ["--account", name]));
  dir = prepareProject("fleet");
  // The customer program type-checks as a user's editor would check it (the CLI runs it with ts-node).
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { stdio: "pipe" });
  scratch = mkdtempSync(join(tmpdir(), "nsp-e2e-fleet-"));
  for (const d of ["home", "state"]) mkdirSync(join(scratch, d));
});

afterAll(async () => {
  for (const d of [dir, scratch]) if (d) rmSync(d, { recursive: true, force: true });
  await emulator?.stop();
});

it("provisions six customer stacks three at a time, each in its own account, and a second run changes nothing", async () => {
  const customers = REFS.map(customer);
  // A customer the partner already acts for, from before the fleet.
  await emulator.control("partner").post("/partner/subjects", { external_ref: ADOPTED });

  const first = await fleet("first", customers, ["--concurrency", "3"]);
  expect(first.run.code, first.run.stdout + first.run.stderr).toBe(0);
  expect(first.report!.stacks.map((s) => [s.stack, s.result, s.error])).toEqual(REFS.map((ref) => [ref, "succeeded", undefined]));
  // The stack, its provider(s), the zone, two records, the mail domain; and the subject, but the adopted one.
  const created = (ref: string) => (OWN_TOKEN.includes(ref) ? 6 : ref === ADOPTED ? 7 : 8);
  expect(first.report!.stacks.map((s) => [s.stack, s.changes.create, s.changes.import])).toEqual(
    REFS.map((ref) => [ref, created(ref), ref === ADOPTED ? 1 : undefined]),
  );
  expect(mostAtOnce(first.report!.stacks)).toBe(3);
  expect(first.run.stdout).toMatch(/up: 6 succeeded, 0 failed, at most 3 at a time/);

  expect((await emulator.control("partner").list<{ external_ref: string }>("/partner/subjects")).map((s) => s.external_ref).sort()).toEqual(VIA_PARTNER);
  expect(await emulator.control("partner").list("/dns/zones")).toEqual([]);
  for (const ref of REFS) {
    const account = await accountOf(ref);
    const zones = await account.list<{ id: number; name: string }>("/dns/zones");
    expect(zones.map((z) => z.name)).toEqual([`${ref}.fleet.example`]);
    const mail = await account.list<{ name: string; records: { record_id: number | null }[] }>("/mail/domains");
    expect(mail.map((d) => d.name)).toEqual([`${ref}.fleet.example`]);
    // The zone holds the customer's records and the ones its mail domain published, nothing else.
    const published = new Set(mail[0]!.records.map((r) => r.record_id));
    const own = (await account.list<{ id: number; name: string; type: string; content: string }>(`/dns/zones/${zones[0]!.id}/records`))
      .filter((r) => !published.has(r.id))
      .map(({ name, type, content }) => ({ name, type, content }));
    expect(own).toEqual(expect.arrayContaining(records(ref)));
    expect(own).toHaveLength(records(ref).length);
  }

  const second = await fleet("second", customers, ["--concurrency", "3"]);
  expect(second.run.code, second.run.stdout + second.run.stderr).toBe(0);
  expect(second.report!.stacks.map((s) => [s.stack, s.result, s.changed])).toEqual(REFS.map((ref) => [ref, "succeeded", 0]));
  expect(mostAtOnce(second.report!.stacks)).toBeLessThanOrEqual(3);

  // The tokens are in each stack's state, encrypted; they and the credentials the providers
  // minted for the customers are in plaintext nowhere.
  expect(filesText([join(scratch, "state")])).toContain("ciphertext");
  const minted = await emulator.control().partnerCredentials();
  expect(new Set(minted.map((m) => m.subject))).toEqual(new Set(VIA_PARTNER));
  const everything = filesText([scratch]) + runs.map((r) => r.stdout + r.stderr).join("\n");
  for (const token of [...Object.values(emulator.accounts), ...minted.map((m) => m.token)]) expect(everything).not.toContain(token);
});

it("reports a stack that fails, runs the others, and exits non-zero", async () => {
  const refused = `svc_${"0refused9".repeat(4)}`;
  const customers = [
    customer("c5"),
    { ref: "refused", zone: "refused.fleet.example", tokenEnv: "FLEET_REFUSED_TOKEN" },
  ];
  const { run, report } = await fleet("refused", customers, [], { FLEET_REFUSED_TOKEN: refused });
  expect(run.code).toBe(1);
  expect(report!.stacks.map((s) => [s.stack, s.result])).toEqual([
    ["c5", "succeeded"],
    ["refused", "failed"],
  ]);
  expect(report!.stacks[1]!.error).toMatch(/does not know the API token in the apiToken of this provider instance .*unauthorized: invalid or unknown bearer token.*\(provider "customer"\)/);
  expect(run.stdout + run.stderr + filesText([scratch])).not.toContain(refused);
});

it("destroys the stacks of the customers given, and only theirs", async () => {
  const { run, report } = await fleet("destroy", [customer("c1"), customer("c5")], ["--destroy"]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(report!.stacks.map((s) => [s.stack, s.result, s.changes.delete])).toEqual([
    ["c1", "succeeded", 8],
    ["c5", "succeeded", 6],
  ]);
  expect(await emulator.control("c5").list("/dns/zones")).toEqual([]);
  expect(await emulator.control("c5").list("/mail/domains")).toEqual([]);
  expect((await emulator.control("partner").list<{ external_ref: string }>("/partner/subjects")).map((s) => s.external_ref).sort()).toEqual(["c2", "c3", "c4"]);
  expect(await emulator.control("c6").list("/dns/zones")).toHaveLength(1);
});

it("stops at a safe point on SIGTERM, starts no further stack, and leaves every stack runnable", async () => {
  const customers = [customer("c7"), customer("c8")];
  const control = emulator.control();
  await control.resetStats();
  // The first write passes; every later one is held until the test lets it go, so the first
  // stack is still under way when the signal lands, however fast or slow the machine.
  await control.setFaults({ rate: 1, kinds: ["timeout"], timeoutMs: 3_600_000, methods: ["POST", "PUT", "PATCH", "DELETE"], after: 1 });
  const { child, done } = startFleet("interrupted", customers, ["--concurrency", "1"]);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  const finished = done.finally(() => (exited = true));
  await until(async () => ((await control.stats()).faults.timeout ?? 0) > 0);
  child.kill("SIGTERM");
  // Once the fleet has taken the signal, the held writes are dropped unwritten (and any retry of them).
  await until(() => /SIGTERM: no new stack starts/.test(stderr));
  await until(async () => {
    await fetch(`${control.root}/_emulator/faults/release`, { method: "POST" });
    return exited;
  });
  await control.clearFaults();
  const { run, report } = await finished;
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toMatch(/SIGTERM: no new stack starts; the running ones stop at a safe point/);
  expect(report!.stacks.map((s) => [s.stack, s.result])).toEqual([
    ["c7", "failed"],
    ["c8", "cancelled"],
  ]);
  const again = await fleet("after-interrupted", customers, ["--concurrency", "2"]);
  expect(again.run.code, again.run.stdout + again.run.stderr).toBe(0);
  expect(again.report!.stacks.map((s) => [s.stack, s.result])).toEqual([
    ["c7", "succeeded"],
    ["c8", "succeeded"],
  ]);
  expect((await (await accountOf("c7")).list<{ name: string }>("/dns/zones")).map((z) => z.name)).toEqual(["c7.fleet.example"]);
});

it("stops at a bad input before any stack runs, naming the property", async () => {
  await emulator.control().resetStats();
  const { run, report } = await fleet("bad", [{ ...customer("c6"), zone: "Not A Domain" }]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/customers\[0\]\.zone: "Not A Domain" must be a lower-case domain name/);
  expect(report).toBeUndefined();
  expect((await emulator.control().stats()).total).toBe(0);
  // A subject for every provider from the environment would make the partner's own provider act
  // for that one customer.
  const subjectFromEnv = await fleet("subject-env", [customer("c1")], [], { NSP_PARTNER_SUBJECT: "c1" });
  expect(subjectFromEnv.run.code).toBe(2);
  expect(subjectFromEnv.run.stderr).toMatch(/NSP_PARTNER_SUBJECT: unset it/);
  expect((await emulator.control().stats()).total).toBe(0);
});

it("leaves no process behind when the fleet is killed with SIGKILL mid-run", async () => {
  const admin = emulator.control();
  const refs = ["k1", "k2"];
  const extraEnv: NodeJS.ProcessEnv = {};
  for (const ref of refs) extraEnv[tokenEnv(ref)] = await admin.addAccount(`fleet-${ref}`);
  const customers = refs.map((ref) => ({ ref, zone: `${ref}.fleet.example`, records: records(ref), tokenEnv: tokenEnv(ref) }));
  await admin.resetStats();
  // The records' creates are held on the wire long past the end the test waits for.
  await admin.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 120_000, methods: ["POST"], path: "/records$" });
  try {
    const { child, done } = startFleet("killed", customers, ["--concurrency", "2"], extraEnv);
    const deadline = Date.now() + 120_000;
    while (child.exitCode === null && !Object.keys((await admin.stats()).byRoute).some((r) => r.startsWith("POST") && r.endsWith("/records"))) {
      if (Date.now() > deadline) throw new Error("no record create went on the wire");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(child.exitCode, "the fleet ended before its creates were on the wire").toBeNull();
    // Every process under the fleet: the pulumi CLIs, their language hosts and plugins.
    const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
    const tree = [child.pid!];
    for (let i = 0; i < tree.length; i++) tree.push(...rows.filter(([, ppid]) => ppid === tree[i]).map(([pid]) => pid));
    expect(tree.length).toBeGreaterThan(1);
    child.kill("SIGKILL");
    await done;
    // The timeout only guards against a hang.
    const gone = Date.now() + 120_000;
    while (tree.some(isRunning) && Date.now() < gone) await new Promise((r) => setTimeout(r, 200));
    const left = tree.filter(isRunning);
    for (const pid of left) process.kill(pid, "SIGKILL");
    expect(left).toEqual([]);
  } finally {
    await admin.clearFaults();
  }
});
