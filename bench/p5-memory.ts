// P5: the plugin's peak RSS (VmHWM) after 10,000 resource operations over gRPC against the
// emulator (rate limits off), against its RSS right after start.
import { secret, startPlugin } from "../test/helpers/plugin";
import { type PartResult, childPids, errorText, log, mapLimit, mb, procStatusKb, spawnEmulator } from "./lib";

const RECORD = "nsp:dns:Record";
const ZONE = "nsp:dns:Zone";
const OPS = 10_000;
const CONCURRENCY = 32;
const ZONES = 4;
/** One record's life: Check, Create, Read, Check (of the change), Update, Read, Delete. */
const OPS_PER_CYCLE = 7;

export async function p5(): Promise<PartResult> {
  const notes: string[] = [];
  const emu = await spawnEmulator(0);
  const before = childPids("provider.js");
  const plugin = await startPlugin();
  try {
    const pids = [...childPids("provider.js")].filter((p) => !before.has(p));
    if (pids.length !== 1) throw new Error(`P5: cannot tell the plugin's pid (candidates: ${pids.join(", ") || "none"})`);
    const pid = pids[0]!;
    const startRss = procStatusKb(pid, "VmRSS");
    const startHwm = procStatusKb(pid, "VmHWM");
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0 });

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
      const { inputs } = await op(() => plugin.check(ZONE, `z${z}`, { serviceId: String(emu.serviceId), name: `p5-${z}.example` }));
      zones.push((await op(() => plugin.create(ZONE, `z${z}`, inputs))).id);
    }
    const cycles = Math.ceil((OPS - ops) / OPS_PER_CYCLE);
    log(`P5: ${cycles} record lifecycles (${OPS_PER_CYCLE} operations each), ${CONCURRENCY} in flight`);
    const started = performance.now();
    const samples: number[] = [];
    const sampler = setInterval(() => {
      try {
        samples.push(procStatusKb(pid, "VmRSS"));
      } catch {}
    }, 1000);
    await mapLimit(Array.from({ length: cycles }, (_, i) => i), CONCURRENCY, async (i) => {
      const name = `r${i}`;
      const zoneId = zones[i % ZONES]!;
      const news = { zoneId, name: `host${i}`, type: i % 2 ? "A" : "TXT", content: i % 2 ? `10.5.${Math.floor(i / 250) % 250}.${(i % 250) + 1}` : `v=bench${i} ${"x".repeat(i % 200)}` };
      const checked = await op(() => plugin.check(RECORD, name, news));
      const created = await op(() => plugin.create(RECORD, name, checked.inputs));
      const read = await op(() => plugin.read(RECORD, name, created.id, created.properties, checked.inputs));
      const changed = await op(() => plugin.check(RECORD, name, { ...news, ttl: 600 }, checked.inputs));
      const updated = await op(() => plugin.update(RECORD, name, created.id, read.properties, changed.inputs, false, checked.inputs));
      await op(() => plugin.read(RECORD, name, created.id, updated, changed.inputs));
      await op(() => plugin.delete(RECORD, name, created.id, updated));
    }).finally(() => clearInterval(sampler));
    const elapsed = performance.now() - started;
    const peak = procStatusKb(pid, "VmHWM");
    const endRss = procStatusKb(pid, "VmRSS");
    const stats = await emu.control.stats();
    if (failed) notes.push(`P5: ${failed} operations failed, first: ${firstError}`);
    notes.push(
      `P5: ${ops} operations (${failed} failed) in ${(elapsed / 1000).toFixed(1)} s, ${stats.total} API requests; plugin pid ${pid}: ` +
        `RSS at start ${mb(startRss)} (VmHWM ${mb(startHwm)}), RSS at the end ${mb(endRss)}, peak RSS ${mb(peak)}; ` +
        `RSS sampled every second: min ${mb(Math.min(...samples))}, max ${mb(Math.max(...samples))}`,
    );
    return {
      figures: [
        {
          name: `P5 plugin peak RSS after ${ops.toLocaleString("en")} ops`,
          measured: mb(peak),
          baseline: `${mb(startRss)} (RSS after start)`,
          ratio: `${(peak / startRss).toFixed(2)}×`,
          goal: "≤ 150 MB",
          met: peak <= 150 * 1024 && failed === 0,
        },
      ],
      notes,
    };
  } finally {
    await plugin.stop();
    await emu.stop();
  }
}
