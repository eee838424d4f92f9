// P5: the plugin's peak RSS (VmHWM) after 10,000 resource operations over gRPC against the
// emulator (rate limits off), against its RSS right after start. A second, diagnostic run caps
// V8's old space (--max-old-space-size): finishing under the cap shows how much of the peak is
// live data and how much garbage V8 chose not to collect yet.
import { secret, startPlugin } from "../test/helpers/plugin";
import {
  type Figure,
  type PartResult,
  type SpawnedEmulator,
  childPids,
  errorText,
  log,
  mapLimit,
  mb,
  procStatusKb,
  spawnEmulator,
} from "./lib";

const RECORD = "nsp:dns:Record";
const ZONE = "nsp:dns:Zone";
const OPS = 10_000;
const CONCURRENCY = 32;
const ZONES = 4;
/** One record's life: Check, Create, Read, Check (of the change), Update, Read, Delete. */
const OPS_PER_CYCLE = 7;
const DIAGNOSTIC_OLD_SPACE_MB = 64;

interface Workload {
  ops: number;
  failed: number;
  firstError: string;
  pid: number;
  startRss: number;
  peak: number;
  endRss: number;
  minSample: number;
  maxSample: number;
  elapsed: number;
  requests: number;
}

async function workload(emu: SpawnedEmulator, tag: string, slug: string, env: NodeJS.ProcessEnv): Promise<Workload> {
  const before = childPids("provider.mjs");
  const plugin = await startPlugin(env);
  try {
    const pids = [...childPids("provider.mjs")].filter((p) => !before.has(p));
    if (pids.length !== 1)
      throw new Error(`P5: cannot tell the plugin's pid (candidates: ${pids.join(", ") || "none"})`);
    const pid = pids[0]!;
    const startRss = procStatusKb(pid, "VmRSS");
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0 });
    await emu.control.resetStats();

    let ops = 0;
    let failed = 0;
    let firstError = "";
    const op = async <T>(run: () => Promise<T>): Promise<T> => {
      ops++;
      try {
        return await run();
      } catch (e) {
        failed++;
        firstError ||= errorText(e);
        throw e;
      }
    };

    // The zones' own Check and Create count as operations too.
    const zones: string[] = [];
    for (let z = 0; z < ZONES; z++) {
      const { inputs, failures } = await op(() =>
        plugin.check(ZONE, `z${z}`, { serviceId: String(emu.serviceId), name: `p5-${slug}-${z}.example` }),
      );
      if (failures.length) throw new Error(`P5: zone Check failed: ${JSON.stringify(failures)}`);
      zones.push((await op(() => plugin.create(ZONE, `z${z}`, inputs))).id);
    }
    const cycles = Math.ceil((OPS - ops) / OPS_PER_CYCLE);
    log(`P5 ${tag}: ${cycles} record lifecycles (${OPS_PER_CYCLE} operations each), ${CONCURRENCY} in flight`);
    const started = performance.now();
    const samples: number[] = [];
    const sampler = setInterval(() => {
      try {
        samples.push(procStatusKb(pid, "VmRSS"));
      } catch {}
    }, 1000);
    await mapLimit(
      Array.from({ length: cycles }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const name = `r${i}`;
        const zoneId = zones[i % ZONES]!;
        const news = {
          zoneId,
          name: `host${i}`,
          type: i % 2 ? "A" : "TXT",
          content: i % 2 ? `10.5.${Math.floor(i / 250) % 250}.${(i % 250) + 1}` : `v=bench${i} ${"x".repeat(i % 200)}`,
        };
        const checked = await op(() => plugin.check(RECORD, name, news));
        const created = await op(() => plugin.create(RECORD, name, checked.inputs));
        const read = await op(() => plugin.read(RECORD, name, created.id, created.properties, checked.inputs));
        const changed = await op(() => plugin.check(RECORD, name, { ...news, ttl: 600 }, checked.inputs));
        const updated = await op(() =>
          plugin.update(RECORD, name, created.id, read.properties, changed.inputs, false, checked.inputs),
        );
        await op(() => plugin.read(RECORD, name, created.id, updated, changed.inputs));
        await op(() => plugin.delete(RECORD, name, created.id, updated));
      },
    ).finally(() => clearInterval(sampler));
    const elapsed = performance.now() - started;
    const peak = procStatusKb(pid, "VmHWM");
    const endRss = procStatusKb(pid, "VmRSS");
    const requests = (await emu.control.stats()).total;
    if (samples.length === 0) samples.push(endRss);
    return {
      ops,
      failed,
      firstError,
      pid,
      startRss,
      peak,
      endRss,
      minSample: Math.min(...samples),
      maxSample: Math.max(...samples),
      elapsed,
      requests,
    };
  } finally {
    await plugin.stop();
  }
}

function describe(tag: string, w: Workload): string {
  return (
    `P5 ${tag}: ${w.ops} operations (${w.failed} failed${w.failed ? `, first: ${w.firstError}` : ""}) ` +
    `in ${(w.elapsed / 1000).toFixed(1)} s, ${w.requests} API requests; ` +
    `plugin pid ${w.pid}: RSS after start ${mb(w.startRss)}, at the end ${mb(w.endRss)}, peak (VmHWM) ${mb(w.peak)}; ` +
    `RSS sampled every second: ${mb(w.minSample)} .. ${mb(w.maxSample)}`
  );
}

export async function p5(): Promise<PartResult> {
  const emu = await spawnEmulator(0);
  try {
    const main = await workload(emu, "as the engine starts it", "default", {});
    const cappedTag = `with --max-old-space-size=${DIAGNOSTIC_OLD_SPACE_MB}`;
    // The plugin may run out of heap under the cap (that would mean the live data is larger).
    const capped = await workload(emu, cappedTag, "capped", {
      NODE_OPTIONS: `--max-old-space-size=${DIAGNOSTIC_OLD_SPACE_MB}`,
    }).catch((e: unknown) => errorText(e));
    const figures: Figure[] = [
      {
        name: `P5 plugin peak RSS after ${main.ops.toLocaleString("en")} ops`,
        measured: mb(main.peak),
        baseline: `${mb(main.startRss)} (RSS after start)`,
        ratio: `${(main.peak / main.startRss).toFixed(2)}×`,
        goal: "≤ 150 MB",
        met: main.peak <= 150 * 1024 && main.failed === 0,
      },
      typeof capped === "string"
        ? {
            name: `P5 (diagnostic) same, old space ≤ ${DIAGNOSTIC_OLD_SPACE_MB} MB`,
            measured: "did not finish",
            baseline: "-",
            ratio: "-",
            goal: "- (live data vs garbage)",
            met: undefined,
          }
        : {
            name: `P5 (diagnostic) same, old space ≤ ${DIAGNOSTIC_OLD_SPACE_MB} MB`,
            measured: capped.failed ? `${mb(capped.peak)}, ${capped.failed} failed` : mb(capped.peak),
            baseline: `${mb(capped.startRss)} (RSS after start)`,
            ratio: `${(capped.peak / capped.startRss).toFixed(2)}×`,
            goal: "- (live data vs garbage)",
            met: undefined,
          },
    ];
    return {
      figures,
      notes: [
        describe("as the engine starts it", main),
        typeof capped === "string" ? `P5 ${cappedTag}: did not finish: ${capped}` : describe(cappedTag, capped),
      ],
    };
  } finally {
    await emu.stop();
  }
}
