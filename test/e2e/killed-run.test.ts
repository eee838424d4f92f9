// Killed runs with the real pulumi CLI. First, the CLI alone is killed with SIGKILL (during `up`,
// then `preview`) while the plugin has a request on the wire: the plugin must end with its engine
// and send nothing more.
// Then a `pulumi up` of many kinds (mailboxes, groups, aliases, extensions, ring groups,
// webhooks, security rules, ROAs, sites, tunnel hostnames) is killed with SIGKILL (CLI and
// plugins) early, midway and late, chosen by the count of creates the emulator has served, and
// recovered as docs/guides/interrupted-runs.md says: `pulumi cancel`, `nsp-discover --pending-creates`, `pulumi up`.
// Afterwards the server holds exactly the program's objects, each tracked once by the state.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../provider/src/client";
import { discover } from "../../provider/src/discover/discover";
import { resources as definitions } from "../../provider/src/modules/all-definitions";
import { EmulatorControl } from "../helpers/emulator-control";
import { emulatorOfFile, ROOT, Stack, type EmulatorProcess } from "./harness/pulumi-cli";

const file = emulatorOfFile(["--rate-limit", "0"]);
let emulator: EmulatorProcess;
let admin: EmulatorControl;
const stacks = file.stacks;
const figures: Record<string, unknown>[] = [];
const leftovers: number[] = [];

beforeAll(() => {
  emulator = file.process;
  admin = emulator.control();
});

afterAll(async () => {
  console.log(`killed-run figures:\n${figures.map((f) => JSON.stringify(f)).join("\n")}`);
  for (const pid of leftovers) signal(pid, "SIGKILL");
  await admin?.clearFaults().catch(() => undefined);
});

function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** The process and its descendants, with their command lines. */
function processTree(root: number): { pid: number; command: string }[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)!)
    .map(([, pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command: command! }));
  const tree = rows.filter((r) => r.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...rows.filter((r) => r.ppid === tree[i]!.pid));
  return tree.map(({ pid, command }) => ({ pid, command }));
}

/** Polls until `test` holds; the timeout only guards against a hang, it measures nothing. */
async function until(what: string, test: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function newStack(program: string): Promise<{ stack: Stack; api: EmulatorControl; token: string }> {
  const token = await admin.addAccount(`killed${stacks.length}`);
  const stack = await Stack.init(Stack.yamlProject(program));
  stacks.push(stack);
  await stack.useAccount(emulator.baseUrl, token);
  return { stack, api: new EmulatorControl(emulator.baseUrl, token), token };
}

/** Every request the emulator received has been answered (the control API is not counted). */
async function settled(): Promise<boolean> {
  const s = await admin.stats();
  return (
    Object.values((s as unknown as { byStatus: Record<string, number> }).byStatus).reduce((a, b) => a + b, 0) >= s.total
  );
}

describe("the plugin ends with its engine", () => {
  // The request held on the wire far longer than the test waits: a mailbox's POST for `up` (a
  // plugin that lived on would send the PATCH of `state: disabled` once the answer came), the
  // services' GET for `preview`.
  it.each([
    ["up", "POST", "/mailboxes$"],
    ["preview", "GET", "/services$"],
  ])(
    "exits once the pulumi CLI is killed with SIGKILL during %s with a request on the wire, and sends no further request",
    async (command, method, path) => {
      const { stack } = await newStack(`${Stack.yamlProgramHead("nsp-engine-gone")}resources:
  domain:
    type: nsp:mail:Domain
    properties: { name: engine-gone-${command}.example, mode: both }
  mailbox:
    type: nsp:mail:Mailbox
    properties: { domainId: "\${domain.id}", local: alice, state: disabled }
`);
      await admin.resetStats();
      await admin.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 120_000, methods: [method], path });
      try {
        const run = stack.start(command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview"]);
        const onTheWire = (route: string) => route.startsWith(method) && new RegExp(path).test(route);
        await until(
          "the request is on the wire",
          async () => run.child.exitCode !== null || Object.keys((await admin.stats()).byRoute).some(onTheWire),
        );
        expect(run.child.exitCode, "the command ended before its request was on the wire").toBeNull();
        const tree = processTree(run.child.pid!);
        const plugins = tree.filter((p) => p.command.includes("provider.mjs")).map((p) => p.pid);
        leftovers.push(...tree.map((p) => p.pid));
        expect(plugins.length).toBeGreaterThan(0);
        const atKill = (await admin.stats()).total;

        run.child.kill("SIGKILL");
        await until("every plugin process is gone", () => plugins.every((pid) => !signal(pid, 0)));
        expect((await admin.stats()).total).toBe(atKill);
        figures.push({
          test: `engine gone during ${command}`,
          plugins: plugins.length,
          requestsAtKill: atKill,
          requestsAfterExit: (await admin.stats()).total,
        });
      } finally {
        await admin.clearFaults();
      }
    },
  );
});

const MAILBOXES = 8;
const EXTENSIONS = 8;

/** One program of the kinds a killed run left behind in the field. */
function program(): string {
  const r: string[] = [];
  const add = (name: string, type: string, properties: string) =>
    r.push(`  ${name}:\n    type: ${type}\n    properties: ${properties}\n`);
  add("zone", "nsp:dns:Zone", `{ serviceId: "\${authDns[0].id}", name: killed.example }`);
  add("domain", "nsp:mail:Domain", `{ name: mail.killed.example, mode: both }`);
  for (let i = 0; i < MAILBOXES; i++)
    add(`mbx${i}`, "nsp:mail:Mailbox", `{ domainId: "\${domain.id}", local: m${i}, display: "Box ${i}" }`);
  for (let i = 0; i < 4; i++)
    add(
      `group${i}`,
      "nsp:mail:Group",
      `{ domainId: "\${domain.id}", localPart: g${i}, members: [{ address: "m${i}@mail.killed.example" }] }`,
    );
  for (let i = 0; i < 4; i++)
    add(
      `alias${i}`,
      "nsp:mail:Alias",
      `{ domainId: "\${domain.id}", localPart: a${i}, targetMailboxId: "\${mbx${i}.id}" }`,
    );
  add("pbx", "nsp:vgate:Pbx", `{ name: killed office }`);
  for (let i = 0; i < EXTENSIONS; i++)
    add(`ext${i}`, "nsp:vgate:Extension", `{ pbxId: "\${pbx.id}", number: "${101 + i}", name: "Ext ${i}" }`);
  for (let i = 0; i < 2; i++)
    add(
      `ring${i}`,
      "nsp:vgate:RingGroup",
      `{ pbxId: "\${pbx.id}", number: "${600 + i}", name: "Ring ${i}", members: ["\${ext${2 * i}.id}", "\${ext${2 * i + 1}.id}"] }`,
    );
  for (let i = 0; i < 3; i++)
    add(`hook${i}`, "nsp:index:Webhook", `{ url: "https://hooks.killed.example/h${i}", events: [ping] }`);
  for (let i = 0; i < 4; i++)
    add(
      `rule${i}`,
      "nsp:security:Rule",
      `{ zoneId: "\${zone.id}", field: country, op: in, value: "${["RU", "CN", "KP", "IR"][i]}", action: block }`,
    );
  add("ca", "nsp:rpki:Ca", `{ handle: killed-ca, asns: [64500] }`);
  for (let i = 0; i < 4; i++)
    add(`roa${i}`, "nsp:rpki:Roa", `{ caId: "\${ca.id}", asn: 64500, prefix: 192.0.${i}.0/24 }`);
  for (let i = 0; i < 2; i++)
    add(
      `site${i}`,
      "nsp:cdn:Site",
      `{ hostname: www${i}.site.killed.example, origin: origin.example.net, serviceId: "\${cdn[0].id}" }`,
    );
  add(
    "tunnel",
    "nsp:link:Tunnel",
    `{ name: killed-tunnel, localUrl: "http://localhost:8080", popId: "\${ams[0].id}" }`,
  );
  for (let i = 0; i < 2; i++)
    add(
      `hostnames${i}`,
      "nsp:link:TunnelHostnames",
      `{ tunnelId: "\${tunnel.id}", managedBy: team${i}, hostnames: [app${i}.tun.killed.example] }`,
    );
  return `${Stack.yamlProgramHead("nsp-killed-run")}  cdn:
    fn::invoke:
      function: nsp:dns:getServices
      arguments: { type: cdn }
      return: services
  ams:
    fn::invoke:
      function: nsp:link:getLinkPops
      arguments: { code: ams }
      return: pops
resources:
${r.join("")}`;
}
const RESOURCES = (program().match(/^ {4}type: nsp:/gm) ?? []).length;

/** Objects an `up` of the program creates with one POST each (TunnelHostnames is a PUT). */
const POSTS = RESOURCES - 2;

/**
 * What the account holds, as nsp-discover lists it (`type ownId`), and what the state tracks.
 * The sites the tunnel hostnames made are theirs (left out by discover, as in an import file).
 */
async function accountAndState(
  stack: Stack,
  token: string,
): Promise<{ server: string[]; state: string[]; pending: number }> {
  const client = new ApiClient({ baseUrl: emulator.baseUrl, token, userAgent: "killed-run-test" });
  try {
    const found = await discover(client, definitions);
    const server = found.file.resources.map((r) => `${r.type} ${r.id.split("/").pop()}`).sort();
    const exported = (await stack.exportState()) as unknown as {
      deployment: { resources: { type: string; id?: string }[]; pending_operations?: unknown[] };
    };
    const state = exported.deployment.resources
      .filter((r) => r.type.startsWith("nsp:") && r.id)
      .map((r) => `${r.type} ${r.id!.split("/").pop()}`)
      .sort();
    return { server, state, pending: exported.deployment.pending_operations?.length ?? 0 };
  } finally {
    await client.close();
  }
}

/** A kill between the truncation and the write of a file backend's metadata sidecar leaves it empty (see docs/guides/interrupted-runs.md). */
function removeEmptySidecars(dir: string): number {
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removed += removeEmptySidecars(path);
    else if (entry.name.endsWith(".attrs") && statSync(path).size === 0) {
      rmSync(path);
      removed++;
    }
  }
  return removed;
}

/** `nsp-discover --pending-creates` in the project, as a user runs it. */
function recoverPendingCreates(
  stack: Stack,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "nsp-discover"), "--pending-creates", "--stack", stack.stack, ...extra],
      { cwd: stack.dir, env: stack.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe("a pulumi up of many kinds killed with SIGKILL, then the recovery of the interrupted-runs guide", () => {
  const points: [string, number][] = [
    ["early", 4],
    ["midway", Math.round(POSTS / 2)],
    ["late", POSTS - 4],
  ];
  it.each(points)(
    "killed %s (after %i creates served): the first up converges, nothing doubled, missing or untracked",
    async (point, after) => {
      const started = Date.now();
      const { stack, token } = await newStack(program());
      await admin.resetStats();
      // Every create takes a while, so that several are on the wire at the kill.
      await admin.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 1500, methods: ["POST", "PUT"] });
      const run = stack.start(["up", "--yes", "--skip-preview", "--parallel", "8"]);
      const posts = async () => (await admin.stats()).byMethod.POST ?? 0;
      let servedAtKill = 0;
      try {
        await until(
          `${after} creates were served`,
          async () => run.child.exitCode !== null || (await posts()) >= after,
        );
        expect(run.child.exitCode, `the up ended before ${after} creates`).toBeNull();
        for (const { pid } of processTree(run.child.pid!)) signal(pid, "SIGKILL");
        await run.done;
        servedAtKill = await posts();
        // What was on the wire lands now, after the kill, as on a real server.
        await until("every request on the wire was answered", settled);
      } finally {
        await admin.clearFaults();
      }
      const sidecars = removeEmptySidecars(stack.backend);
      const afterKill = await accountAndState(stack, token);

      // The recovery of docs/guides/interrupted-runs.md.
      await stack.run(["cancel", "--yes"]);
      // --print says what it would do and changes nothing.
      const printed = await recoverPendingCreates(stack, ["--print"]);
      expect(printed.code, printed.stderr).toBe(0);
      expect((await accountAndState(stack, token)).pending).toBe(afterKill.pending);
      const recovery = await recoverPendingCreates(stack);
      expect(recovery.code, recovery.stderr).toBe(0);
      const outcomes = [
        ...recovery.stderr.matchAll(/^nsp-discover: (adopt|absent|repeatable|ambiguous|unidentifiable|foreign): /gm),
      ].map((m) => m[1]!);
      expect(
        printed.stdout
          .trim()
          .split("\n")
          .map((line) => (JSON.parse(line) as { outcome: string }).outcome),
      ).toEqual(outcomes);
      const up = await stack.up();
      const after_ = await accountAndState(stack, token);
      await stack.preview(["--expect-no-changes"]);

      figures.push({
        point,
        program: RESOURCES,
        postsServedAtKill: servedAtKill,
        afterKill: {
          onServer: afterKill.server.length,
          tracked: afterKill.state.length,
          pendingOperations: afterKill.pending,
          emptySidecars: sidecars,
        },
        recovery: {
          adopted: outcomes.filter((o) => o === "adopt").length,
          cleared: outcomes.filter((o) => o === "absent" || o === "repeatable").length,
          undecided: outcomes.filter((o) => !["adopt", "absent", "repeatable"].includes(o)).length,
        },
        firstUp: up.stdout.match(/Resources:[\s\S]*?(?=\n\n)/)?.[0]?.replace(/\s+/g, " "),
        afterRecovery: {
          onServer: after_.server.length,
          tracked: after_.state.length,
          pendingOperations: after_.pending,
        },
        seconds: Math.round((Date.now() - started) / 1000),
      });

      expect(outcomes.filter((o) => !["adopt", "absent", "repeatable"].includes(o))).toEqual([]);
      expect(after_.pending).toBe(0);
      // Every object of the account is tracked once, and every tracked object exists.
      expect(after_.server).toEqual(after_.state);
      expect(new Set(after_.state).size).toBe(after_.state.length);
      expect(after_.state.length).toBe(RESOURCES);
    },
  );
});
