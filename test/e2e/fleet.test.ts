// examples/fleet: the Automation API runs one stack per customer, three at a time, against the
// emulator as a process, with the real pulumi CLI and a local file backend.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { filesText, prepareProject, pulumiEnv, ROOT, startEmulatorProcess, type EmulatorProcess, type RunResult } from "./harness";

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

const REFS = ["c1", "c2", "c3", "c4", "c5", "c6"];
const records = (ref: string) => [
  { name: "www", type: "A", content: "192.0.2.10" },
  { name: "api", type: "TXT", content: `customer=${ref}` },
];

let emulator: EmulatorProcess;
let dir: string; // the example, copied and compiled
let scratch: string; // PULUMI_HOME, the backend, the stacks' workspaces, inputs and reports
const runs: RunResult[] = [];

function tokenEnv(ref: string) {
  return `FLEET_TOKEN_${ref.toUpperCase()}`;
}

/** Runs the fleet program as a user would, with the customers given; resolves with its report. */
async function fleet(name: string, customers: object[], args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ run: RunResult; report?: FleetReport }> {
  const customersFile = join(scratch, `${name}.customers.json`);
  const reportFile = join(scratch, `${name}.report.json`);
  writeFileSync(customersFile, JSON.stringify(customers));
  const env = {
    ...pulumiEnv(join(scratch, "home"), join(scratch, "state")),
    NSP_BASE_URL: emulator.baseUrl,
    ...Object.fromEntries(REFS.map((ref) => [tokenEnv(ref), emulator.accounts[ref]!])),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [join(dir, "build", "fleet.js"), "--customers", customersFile, "--report", reportFile, "--work-dir", join(scratch, "work"), ...args], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const run = await new Promise<RunResult>((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
  runs.push(run);
  let report: FleetReport | undefined;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8")) as FleetReport;
  } catch {
    report = undefined; // the fleet stopped before running any stack
  }
  return { run, report };
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
  emulator = await startEmulatorProcess(REFS.flatMap((ref) => ["--account", ref]));
  dir = prepareProject("fleet");
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { stdio: "pipe" });
  scratch = mkdtempSync(join(tmpdir(), "nsp-e2e-fleet-"));
  for (const d of ["home", "state"]) mkdirSync(join(scratch, d));
});

afterAll(async () => {
  for (const d of [dir, scratch]) if (d) rmSync(d, { recursive: true, force: true });
  await emulator?.stop();
});

it("provisions six customer stacks three at a time, each in its own account, and a second run changes nothing", async () => {
  const customers = REFS.map((ref) => ({ ref, zone: `${ref}.fleet.example`, records: records(ref), tokenEnv: tokenEnv(ref) }));

  const first = await fleet("first", customers, ["--concurrency", "3"]);
  expect(first.run.code, first.run.stdout + first.run.stderr).toBe(0);
  expect(first.report!.stacks.map((s) => [s.stack, s.result, s.error])).toEqual(REFS.map((ref) => [ref, "succeeded", undefined]));
  for (const s of first.report!.stacks) expect(s.changes.create, s.stack).toBe(6); // provider, zone, two records, mail domain, the stack
  expect(mostAtOnce(first.report!.stacks)).toBe(3);
  expect(first.run.stdout).toMatch(/up: 6 succeeded, 0 failed, at most 3 at a time/);

  for (const ref of REFS) {
    const account = emulator.control(ref);
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

  // The tokens are in each stack's state, encrypted, and in plaintext nowhere.
  const stateFiles = filesText([join(scratch, "state")]);
  expect(stateFiles).toContain("ciphertext");
  const everything = filesText([scratch]) + runs.map((r) => r.stdout + r.stderr).join("\n");
  for (const ref of REFS) expect(everything).not.toContain(emulator.accounts[ref]!);
});

it("reports a stack that fails, runs the others, and exits non-zero", async () => {
  const refused = `svc_${"0refused9".repeat(4)}`;
  const customers = [
    { ref: "c1", zone: "c1.fleet.example", records: records("c1"), tokenEnv: tokenEnv("c1") },
    { ref: "refused", zone: "refused.fleet.example", tokenEnv: "FLEET_REFUSED_TOKEN" },
  ];
  const { run, report } = await fleet("refused", customers, [], { FLEET_REFUSED_TOKEN: refused });
  expect(run.code).toBe(1);
  expect(report!.stacks.map((s) => [s.stack, s.result])).toEqual([
    ["c1", "succeeded"],
    ["refused", "failed"],
  ]);
  expect(report!.stacks[1]!.error).toMatch(/unauthorized: invalid or unknown bearer token \(provider "customer"\)/);
  expect(run.stdout + run.stderr + filesText([scratch])).not.toContain(refused);
});

it("stops at a bad input before any stack runs, naming the property", async () => {
  await emulator.control("c1").resetStats();
  const { run, report } = await fleet("bad", [{ ref: "c1", zone: "Not A Domain", tokenEnv: tokenEnv("c1") }]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/customers\[0\]\.zone: "Not A Domain" must be a lower-case domain name/);
  expect(report).toBeUndefined();
  expect((await emulator.control("c1").stats()).total).toBe(0);
});
