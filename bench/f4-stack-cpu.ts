// F4: where one stack's CPU goes in a no-change `up` of the fleet's customer program, process by
// process, and what two other ways of running the same program cost:
//
// - TypeScript (examples/fleet), run as nsp-fleet runs it: `pulumi up --yes --skip-preview
//   --config customer=<JSON> --json`, the partner token checked beforehand (NSP_VERIFIED_TOKEN_ENV),
//   Node's compile cache warm, the passphrase secrets manager;
// - Pulumi YAML (examples/fleet-yaml), partner mode, the records as one nsp:dns:ZoneRecords, the
//   customer given as config paths (`--config-path`), the partner token in NSP_API_TOKEN;
// - the Automation API with an inline program (the same program as a function in the caller's
//   process, `@pulumi/pulumi/automation`): a long-lived process that runs the stack's `up` again and
//   again, as a worker would run one stack after another. Its CPU per `up` is its own CPU in that
//   `up` (the program, run in-process) plus the children it reaped (the CLI and the plugins).
//
// Each: the stack created once, one no-change `up` to warm up, then RUNS measured. The processes
// of a command are read from /proc every 10 ms (each one's last reading: up to 10 ms of a process's
// end can be missed, shown as "unattributed"), and the command's total is exact: this process's
// reaped children's CPU. All use the plugin installed in PULUMI_HOME (as a user's project does; a
// YAML program would otherwise start a plugin process in every command only for its schema), a
// local file backend, and the emulator with no request limit.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  prepareProject,
  pulumiAvailable,
  pulumiEnv,
  pulumiHome,
  startEmulatorProcess,
} from "../test/e2e/harness/pulumi-cli";
import { reapedChildrenCpuMs } from "./f1-fleet";
import { type Figure, type PartResult, ROOT, log, median, notAvailable, sec } from "./lib";

const RUNS = 3;
/** The customer of each variant: one emulator account serves them all, each its own subject. */
const customer = (ref: string) => ({
  ref,
  zone: `${ref}.fleet.example`,
  records: [{ name: "www", type: "A", content: "192.0.2.10", ttl: 300 }],
});

type Kind = "pulumi CLI" | "language host" | "program" | "plugin" | "other";
const KINDS: Kind[] = ["pulumi CLI", "language host", "program", "plugin", "other"];

function kindOf(cmdline: string): Kind {
  const [exe = "", ...rest] = cmdline.split("\0");
  const args = rest.join(" ");
  if (/pulumi-language-/.test(exe)) return "language host";
  if (/(^|\/)pulumi$/.test(exe)) return "pulumi CLI";
  if (/provider\.mjs|pulumi-resource-nsp/.test(`${exe} ${args}`)) return "plugin";
  if (/(^|\/)node$/.test(exe)) return "program";
  return "other";
}

/** Runs a command, sampling its process tree; its exact CPU and each kind's share, in ms. */
async function sampled(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ totalMs: number; byKind: Record<Kind, number>; output: string; code: number | null }> {
  const cpu0 = reapedChildrenCpuMs();
  const child = spawn(command, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const seen = new Map<number, { kind: Kind; ms: number }>();
  const sample = () => {
    const parents = new Map<number, number>();
    const stats = new Map<number, string[]>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        parents.set(Number(entry), Number(f[1]));
        stats.set(Number(entry), f);
      } catch {
        // Ended meanwhile.
      }
    }
    const mine = new Set([child.pid!]);
    // Descendants: repeat until no new one (a process's children may be listed before it).
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of parents)
        if (mine.has(ppid) && !mine.has(pid)) {
          mine.add(pid);
          grew = true;
        }
    }
    for (const pid of mine) {
      const f = stats.get(pid);
      if (!f) continue;
      let entry = seen.get(pid);
      if (!entry) {
        let cmdline = "";
        try {
          cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        } catch {
          continue;
        }
        entry = { kind: kindOf(cmdline), ms: 0 };
        seen.set(pid, entry);
      }
      // Its own user and system time (not its reaped children's: they are counted themselves).
      entry.ms = ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    }
  };
  const timer = setInterval(sample, 10);
  const code = await new Promise<number | null>((r) => child.on("close", r));
  clearInterval(timer);
  const totalMs = reapedChildrenCpuMs() - cpu0;
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  for (const { kind, ms } of seen.values()) byKind[kind] += ms;
  return { totalMs, byKind, output, code };
}

/** The plugin of this tree installed in a PULUMI_HOME, as `pulumi plugin install` lays out a release archive. */
function installPlugin(home: string): void {
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const dir = join(home, "plugins", `resource-nsp-v${version}`);
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, "bin", "pulumi-resource-nsp"), join(dir, "pulumi-resource-nsp"));
  cpSync(join(ROOT, "dist", "plugin"), join(dir, "plugin"), { recursive: true });
  mkdirSync(join(home, "schemas"), { recursive: true });
  cpSync(join(ROOT, "dist", "plugin", "schema.json"), join(home, "schemas", `nsp-${version}.json`));
}

/** The project's Pulumi.yaml without its `plugins:` block: the engine takes the installed plugin. */
function withoutPluginPath(dir: string): void {
  const file = join(dir, "Pulumi.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^plugins:\n(?:[ \t]+.*\n)+/m, ""));
}

/** The customer as config paths, for the YAML program (a YAML object config cannot come as one JSON string). */
function configPaths(value: unknown, prefix: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => configPaths(v, `${prefix}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => configPaths(v, `${prefix}.${k}`));
  return ["--config", `${prefix}=${String(value)}`];
}

/** The Automation API's inline program: the customer program of examples/fleet as a function, run again and again. */
const AUTOMATION = `
const { readFileSync } = require("node:fs");
const pulumi = require("@pulumi/pulumi");
const { LocalWorkspace } = require("@pulumi/pulumi/automation");
const nsp = require("@nsp/pulumi");

function program() {
  const customer = new pulumi.Config().requireObject("customer");
  const baseUrl = process.env.NSP_BASE_URL || undefined;
  const partnerToken = pulumi.secret(process.env.NSP_PARTNER_TOKEN);
  const partner = new nsp.Provider("partner", { apiToken: partnerToken, baseUrl });
  const subject = new nsp.partner.Subject("subject", { externalRef: customer.ref }, { provider: partner });
  const provider = new nsp.Provider("customer", { apiToken: partnerToken, partnerSubject: subject.id, baseUrl });
  const zone = new nsp.dns.Zone("zone", { name: customer.zone }, { provider });
  for (const r of customer.records || []) new nsp.dns.Record(r.type.toLowerCase() + "-" + r.name, { zoneId: zone.id, name: r.name, type: r.type.toUpperCase(), content: r.content, ttl: r.ttl }, { provider });
  const mail = new nsp.mail.Domain("mail", { zoneId: zone.id, name: customer.zone }, { provider });
  return { zoneId: zone.id, mailDomainId: mail.id, nameServers: zone.nameServers };
}

/** CPU of this process and of the children it reaped, in ms. */
function cpu() {
  const f = readFileSync("/proc/self/stat", "utf8").replace(/^.*\\) /, "").split(" ");
  const own = process.cpuUsage();
  return { own: (own.user + own.system) / 1000, children: ((Number(f[13]) + Number(f[14])) * 1000) / 100 };
}

(async () => {
  const [workDir, runs] = [process.argv[2], Number(process.argv[3])];
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "c1", projectName: "nsp-fleet", program },
    { workDir, projectSettings: { name: "nsp-fleet", runtime: "nodejs" }, envVars: {} },
  );
  await stack.setConfig("customer", { value: process.env.CUSTOMER_JSON });
  for (let i = 0; i < runs + 2; i++) {
    const a = cpu();
    const r = await stack.up({});
    const b = cpu();
    process.stdout.write(JSON.stringify({ i, changes: r.summary.resourceChanges, ownMs: b.own - a.own, childrenMs: b.children - a.children }) + "\\n");
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

interface Variant {
  name: string;
  totalMs: number;
  byKind: Record<Kind, number>;
}

export async function f4(): Promise<PartResult> {
  const name = "F4 a stack's no-change up";
  if (!process.env.PATH?.includes(".cache/nsp")) {
    process.env.PATH = `${execFileSync("bash", ["scripts/install-pulumi.sh"], { cwd: ROOT, encoding: "utf8" }).trim()}:${process.env.PATH}`;
  }
  if (!pulumiAvailable())
    return {
      figures: [notAvailable(name, "the pulumi CLI v3.259.0 is not available (scripts/install-pulumi.sh)")],
      notes: [],
    };
  const emulator = await startEmulatorProcess(["--account", "partner"]);
  const scratch = mkdtempSync(join(tmpdir(), "nsp-bench-f4-"));
  const home = pulumiHome(join(scratch, "home"));
  installPlugin(home);
  const dirs: string[] = [];
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    const base: NodeJS.ProcessEnv = {
      ...pulumiEnv(home, ""),
      NSP_BASE_URL: emulator.baseUrl,
      NSP_PARTNER_TOKEN: emulator.accounts.partner!,
      // As nsp-fleet runs a stack: the partner token checked once by the worker, and Node's compile cache.
      NSP_VERIFIED_TOKEN_ENV: "NSP_PARTNER_TOKEN",
      NODE_COMPILE_CACHE: join(scratch, "compile-cache"),
    };
    const variants: Variant[] = [];
    const cli = async (label: string, dir: string, env: NodeJS.ProcessEnv, upArgs: string[]) => {
      const run = (args: string[]) => sampled("pulumi", [...args, "--non-interactive"], { cwd: dir, env });
      const init = await run(["stack", "init", "c1"]);
      if (init.code !== 0) throw new Error(`${label}: stack init: ${init.output}`);
      const results: Awaited<ReturnType<typeof sampled>>[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const r = await run(["up", "--yes", "--skip-preview", ...upArgs, "--json", "--stack", "c1"]);
        if (r.code !== 0) throw new Error(`${label}: up: ${r.output.slice(-3000)}`);
        // The first creates, the second warms up.
        if (i >= 2) results.push(r);
      }
      const byKind = Object.fromEntries(KINDS.map((k) => [k, median(results.map((r) => r.byKind[k]))])) as Record<
        Kind,
        number
      >;
      variants.push({ name: label, totalMs: median(results.map((r) => r.totalMs)), byKind });
    };

    log("F4: TypeScript, the CLI");
    for (const d of ["state-ts", "state-js", "state-yaml", "state-auto"]) mkdirSync(join(scratch, d));
    const ts = prepareProject("fleet");
    dirs.push(ts);
    withoutPluginPath(ts);
    await cli(
      "TypeScript (examples/fleet), CLI",
      ts,
      { ...base, PULUMI_BACKEND_URL: `file://${join(scratch, "state-ts")}` },
      ["--config", `customer=${JSON.stringify(customer("ts"))}`],
    );

    log("F4: TypeScript compiled to JavaScript beforehand, the CLI");
    const js = prepareProject("fleet");
    dirs.push(js);
    withoutPluginPath(js);
    execFileSync(
      process.execPath,
      [
        join(ROOT, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        "tsconfig.json",
        "--noEmit",
        "false",
        "--outDir",
        ".",
      ],
      { cwd: js },
    );
    writeFileSync(
      join(js, "Pulumi.yaml"),
      readFileSync(join(js, "Pulumi.yaml"), "utf8").replace(
        /^runtime: nodejs$/m,
        "runtime:\n  name: nodejs\n  options:\n    typescript: false",
      ),
    );
    writeFileSync(
      join(js, "package.json"),
      readFileSync(join(js, "package.json"), "utf8").replace('"main": "index.ts"', '"main": "index.js"'),
    );
    await cli(
      "TypeScript compiled to JavaScript beforehand, CLI",
      js,
      { ...base, PULUMI_BACKEND_URL: `file://${join(scratch, "state-js")}` },
      ["--config", `customer=${JSON.stringify(customer("js"))}`],
    );

    log("F4: YAML, the CLI");
    const yaml = join(scratch, "yaml");
    cpSync(join(ROOT, "examples", "fleet-yaml"), yaml, { recursive: true });
    withoutPluginPath(yaml);
    await cli(
      "Pulumi YAML (examples/fleet-yaml), CLI",
      yaml,
      {
        ...base,
        NSP_API_TOKEN: emulator.accounts.partner!,
        PULUMI_BACKEND_URL: `file://${join(scratch, "state-yaml")}`,
      },
      ["--config-path", ...configPaths(customer("yaml"), "customer")],
    );

    log("F4: TypeScript, the Automation API's inline program");
    const auto = join(scratch, "auto");
    mkdirSync(join(auto, "work"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(auto, "node_modules"), "dir");
    writeFileSync(join(auto, "run.js"), AUTOMATION);
    const t0 = reapedChildrenCpuMs();
    const out = execFileSync(process.execPath, [join(auto, "run.js"), join(auto, "work"), String(RUNS)], {
      cwd: auto,
      env: {
        ...base,
        PULUMI_BACKEND_URL: `file://${join(scratch, "state-auto")}`,
        CUSTOMER_JSON: JSON.stringify(customer("auto")),
      },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const autoProcessMs = reapedChildrenCpuMs() - t0;
    const ups = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { i: number; changes: Record<string, number>; ownMs: number; childrenMs: number });
    const measured = ups.filter((u) => u.i >= 2);
    const own = median(measured.map((u) => u.ownMs));
    const children = median(measured.map((u) => u.childrenMs));
    notes.push(
      `F4 Automation API: the caller's process took ${sec(autoProcessMs)} in all for ${ups.length} ups (its start, the create and the warm-up included); ` +
        (`per no-change up: ${sec(own)} in the caller's process (the inline program and the Automation API), ` +
          `${sec(children)} in the CLI and plugins it started (medians of ${measured.length}); `) +
        (`first up (create, modules loaded): ${sec(ups[0]!.ownMs)} + ${sec(ups[0]!.childrenMs)}; changes of ` +
          `the measured ups: ${JSON.stringify(measured.map((u) => u.changes))}.`),
    );
    variants.push({
      name: "TypeScript, Automation API inline program (long-lived caller)",
      totalMs: own + children,
      byKind: { "pulumi CLI": NaN, "language host": 0, program: own, plugin: NaN, other: NaN },
    });

    const ref = variants[0]!;
    for (const v of variants) {
      const parts = KINDS.filter((k) => !Number.isNaN(v.byKind[k]) && v.byKind[k] > 0).map(
        (k) => `${k} ${sec(v.byKind[k])}`,
      );
      const attributed = KINDS.reduce((sum, k) => sum + (Number.isNaN(v.byKind[k]) ? 0 : v.byKind[k]), 0);
      notes.push(
        `F4 ${v.name}: ${sec(v.totalMs)} CPU a no-change up (median of ${RUNS}): ${parts.join(", ")}${Number.isNaN(v.byKind.plugin) ? `, the CLI and plugins ${sec(v.totalMs - v.byKind.program)}` : `, unattributed ${sec(v.totalMs - attributed)}`}.`,
      );
      figures.push({
        name: `${name}: CPU, ${v.name} (baseline: TypeScript, CLI)`,
        measured: sec(v.totalMs),
        baseline: sec(ref.totalMs),
        ratio: `${(v.totalMs / ref.totalMs).toFixed(2)}×`,
        goal: "-",
        met: undefined,
      });
    }
    return { figures, notes };
  } finally {
    await emulator.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
