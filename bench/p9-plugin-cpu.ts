// P9: the CPU of one plugin process through the calls the engine makes for a provider instance
// in a no-change `pulumi up` of one DNS record (Handshake, GetPluginInfo, CheckConfig,
// DiffConfig, Configure, a record's Check and Diff), median of several runs, against the plugin
// bundled from an earlier commit (--p9-base, default main) in the same run, runs alternating.
// The CPU is the process's own (process.cpuUsage(), read by bench/cpu-probe.cjs after each step).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { type PluginHandle, secret, startPlugin, urn } from "../test/helpers/plugin";
import { until } from "../test/helpers/until";
import { type PartResult, ROOT, log, median, ms, spawnEmulator, x } from "./lib";

export const P9_DEFAULT_BASE = "main";
const RUNS = 9;
const ZONE = "nsp:dns:Zone";
const RECORD = "nsp:dns:Record";
const PROBE = join(ROOT, "bench", "cpu-probe.cjs");

/** The ref's plugin, bundled as scripts/build.mjs bundles this tree's: a launcher to run it by. */
function bundleOf(ref: string, dir: string): string {
  const tree = join(dir, "tree");
  execFileSync("bash", [
    "-c",
    `mkdir -p "${tree}" && git -C "${ROOT}" archive "${ref}" provider package.json bin | tar -x -C "${tree}"`,
  ]);
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"), "dir");
  execFileSync(process.execPath, [join(ROOT, "scripts", "plugin-bundle.mjs"), tree, join(tree, "dist", "plugin")], {
    stdio: "inherit",
  });
  return join(tree, "bin", "pulumi-resource-nsp");
}

/** CPU µs of the plugin so far: asks the probe and waits for its line. */
async function cpuOf(plugin: PluginHandle): Promise<number> {
  const lines = () => plugin.stderr().match(/^cpu-probe \d+$/gm) ?? [];
  const before = lines().length;
  process.kill(plugin.pid, "SIGUSR2");
  await until(() => lines().length > before, 2);
  return Number(lines()[before]!.split(" ")[1]);
}

/** CPU µs of each step; `start` runs from spawn through GetPluginInfo. */
const STEPS = ["start", "checkConfig", "diffConfig", "configure", "check", "diff"] as const;
type Run = Record<(typeof STEPS)[number] | "total", number>;

async function run(
  executable: string,
  config: Record<string, unknown>,
  record: { id: string; inputs: Record<string, unknown>; state: Record<string, unknown> },
): Promise<Run> {
  const plugin = await startPlugin({ NODE_OPTIONS: `--require ${PROBE}` }, executable);
  try {
    const cpu: number[] = [];
    const step = async () => void cpu.push(await cpuOf(plugin));
    await plugin.call("handshake", new providerPb.ProviderHandshakeRequest());
    await plugin.call("getPluginInfo", new Empty());
    await step();
    await plugin.checkConfig(config);
    await step();
    const fromJs = (o: Record<string, unknown>) => Struct.fromJavaScript(o as never);
    await plugin.call(
      "diffConfig",
      new providerPb.DiffRequest()
        .setUrn(urn("pulumi:providers:nsp", "default"))
        .setType("pulumi:providers:nsp")
        .setOlds(fromJs(config))
        .setOldInputs(fromJs(config))
        .setNews(fromJs(config)),
    );
    await step();
    await plugin.configure(config);
    await step();
    const checked = await plugin.check(RECORD, "r", record.inputs, record.inputs);
    if (checked.failures.length) throw new Error(`P9: the record's Check failed: ${JSON.stringify(checked.failures)}`);
    await step();
    const diff = await plugin.diff(RECORD, "r", record.id, record.state, checked.inputs, record.inputs);
    if (diff.changes) throw new Error(`P9: the record's Diff found changes: ${diff.diffs.join(", ")}`);
    await step();
    const run = { total: cpu.at(-1)! } as Run;
    STEPS.forEach((name, i) => {
      run[name] = cpu[i]! - (cpu[i - 1] ?? 0);
    });
    return run;
  } finally {
    await plugin.stop();
  }
}

export async function p9(base: string): Promise<PartResult> {
  const dir = mkdtempSync(join(tmpdir(), "nsp-p9-"));
  const emu = await spawnEmulator(0);
  try {
    log(`P9: bundling the plugin of ${base}`);
    const baseline = bundleOf(base, dir);
    const current = join(ROOT, "bin", "pulumi-resource-nsp");
    const config = { apiToken: secret(emu.token), baseUrl: emu.baseUrl };
    const setup = await startPlugin({}, current);
    let record: { id: string; inputs: Record<string, unknown>; state: Record<string, unknown> };
    try {
      await setup.configure(config);
      const zone = await setup.create(
        ZONE,
        "z",
        (await setup.check(ZONE, "z", { serviceId: String(emu.serviceId), name: "p9.example" })).inputs,
      );
      const inputs = (await setup.check(RECORD, "r", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.1" }))
        .inputs;
      const created = await setup.create(RECORD, "r", inputs);
      record = { id: created.id, inputs, state: created.properties };
    } finally {
      await setup.stop();
    }
    // One untimed run of each, so that both are measured with their files in the page cache.
    await run(baseline, config, record);
    await run(current, config, record);
    const b: Run[] = [];
    const c: Run[] = [];
    log(`P9: ${RUNS} runs of each plugin, alternating`);
    for (let i = 0; i < RUNS; i++) {
      b.push(await run(baseline, config, record));
      c.push(await run(current, config, record));
    }
    const m = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key])) / 1000;
    const fmt = (runs: Run[], key: keyof Run) => runs.map((r) => (r[key] / 1000).toFixed(0)).join(" ");
    const figure = (name: string, key: keyof Run) => ({
      name: `P9 ${name} (median of ${RUNS})`,
      measured: ms(m(c, key)),
      baseline: `${ms(m(b, key))} (${base})`,
      ratio: x(m(c, key) / m(b, key)),
      // Against itself (base: this very commit) the ratio is 1× give or take the noise of the runs.
      goal: `≤ 1.05× (${base})`,
      met: m(c, key) <= m(b, key) * 1.05,
    });
    return {
      figures: [
        figure("plugin CPU: start, CheckConfig, DiffConfig, Configure, a record's Check and Diff", "total"),
        figure("plugin CPU of the first CheckConfig", "checkConfig"),
        figure("plugin CPU from spawn through GetPluginInfo", "start"),
      ],
      notes: [
        ...(["total", "checkConfig"] as const).flatMap((key) => [
          `P9 ${key} CPU ms, this tree: ${fmt(c, key)}`,
          `P9 ${key} CPU ms, ${base}: ${fmt(b, key)}`,
        ]),
        `P9 median CPU ms of each step, this tree: ${STEPS.map((key) => `${key} ${m(c, key).toFixed(0)}`).join(", ")}`,
        `P9 median CPU ms of each step, ${base}: ${STEPS.map((key) => `${key} ${m(b, key).toFixed(0)}`).join(", ")}`,
      ],
    };
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
