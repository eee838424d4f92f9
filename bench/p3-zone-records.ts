// P3: nsp:dns:ZoneRecords at 1,000, 10,000 and 100,000 records (--p3-sizes=... picks others).
// Per size, a fresh plugin takes the zone (which also holds one record made through the API, not
// the resource's) through what a user's commands ask of it: up (Check and Create), refresh (Read),
// a no-change preview (Check and Diff), a 5-record change (Check, Diff, Update), a 30% cut that
// maxDeletePercent refuses, the same cut allowed, and destroy (Delete). Measured: requests (reads
// and writes, by the emulator), wall time and the plugin's peak RSS (VmHWM). Baselines from the
// same run: the bound ceil(N/page)+2 reads plus the writes the change needs (a cut and a destroy
// take two: the preview of the import with replace and the import); the 1,000-record zone's time;
// the plugin's RSS after start; and at 1,000, the same zone as 1,000 nsp:dns:Record creates.
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { DEFAULT_PAGE_SIZE } from "../provider/src/client/paging";
import { MAX_IMPORT_BYTES } from "../provider/src/modules/dns/zone-records";
import { zoneFileChunks, type ZoneRecord } from "../provider/src/modules/dns/zone-records-plan";
import { installStructCodec } from "../provider/src/plugin/struct-codec";
import { secret, startPlugin, type PluginHandle } from "../test/helpers/plugin";
import {
  type Figure,
  type PartResult,
  type SpawnedEmulator,
  childPids,
  errorText,
  log,
  mapLimit,
  mb,
  notAvailable,
  procStatusKb,
  sec,
  spawnEmulator,
  x,
} from "./lib";

const ZR = "nsp:dns:ZoneRecords";
const RECORD = "nsp:dns:Record";
export const P3_DEFAULT_SIZES = [1_000, 10_000, 100_000];
const BASELINE_N = 1_000;
const CONCURRENCY = 64;
const CHANGED = 5;
const CUT_PERCENT = 30;
/** The preview of the zone-file import with replace, and the import. */
const BULK_WRITES = 2;
const STEP_NAMES = [
  "up",
  "refresh",
  "no-change preview",
  `${CHANGED} changed`,
  `${CUT_PERCENT}% cut refused`,
  `${CUT_PERCENT}% cut allowed`,
  "destroy",
];

type Obj = Record<string, unknown>;

/** The zone a program would declare: A, AAAA, CNAME, TXT and MX records, already in canonical form. */
function zoneRecords(zoneName: string, n: number): ZoneRecord[] {
  return Array.from({ length: n }, (_, i) => {
    switch (i % 5) {
      case 0:
        return {
          name: `host${i}`,
          type: "A",
          content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          ttl: 3600,
        };
      case 1:
        return {
          name: `host${i}`,
          type: "AAAA",
          content: `2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`,
          ttl: 600,
        };
      case 2:
        return { name: `alias${i}`, type: "CNAME", content: `host${i - 2}.${zoneName}`, ttl: 3600 };
      case 3:
        return { name: `txt${i}`, type: "TXT", content: `v=bench${i}`, ttl: 300 };
      default:
        return { name: `mail${i}`, type: "MX", content: `10 mx${i}.example.net`, ttl: 3600 };
    }
  });
}

async function registered(plugin: PluginHandle): Promise<boolean> {
  const res = await plugin.call<providerPb.GetSchemaRequest, providerPb.GetSchemaResponse>(
    "getSchema",
    new providerPb.GetSchemaRequest(),
  );
  const schema = JSON.parse(res.getSchema()) as { resources?: Record<string, unknown> };
  return Boolean(schema.resources?.[ZR]);
}

interface Step {
  name: string;
  reads: number;
  writes: number;
  /** Reads and writes the step may take: ceil(N/page)+2 reads, and at most the writes its change needs. */
  maxReads: number;
  maxWrites: number;
  ms: number;
  /** The plugin's peak RSS (VmHWM) when the step ended: which step set the peak. */
  hwm: number;
  ok: boolean;
  detail: string;
}

interface SizeRun {
  n: number;
  steps: Step[];
  ms: number;
  startRss: number;
  peakRss: number;
}

async function counted(
  emu: SpawnedEmulator,
  run: () => Promise<string | boolean>,
): Promise<{ reads: number; writes: number; ms: number; result: string | boolean; routes: string }> {
  await emu.control.resetStats();
  const t0 = performance.now();
  const result = await run();
  const ms = performance.now() - t0;
  const s = await emu.control.stats();
  return {
    reads: s.total - s.mutating,
    writes: s.mutating,
    ms,
    result,
    routes: Object.entries(s.byRoute)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", "),
  };
}

async function runSize(emu: SpawnedEmulator, n: number, notes: string[]): Promise<SizeRun> {
  const zoneName = `p3-${n}.example`;
  const zoneId = String(
    (await emu.setupControl.post<{ id: number }>("/dns/zones", { service_id: emu.serviceId, name: zoneName })).id,
  );
  const records = zoneRecords(zoneName, n);
  // Not the resource's: every step must leave it as it is, with its id.
  const outside = await emu.setupControl.post<{ id: number }>(`/dns/zones/${zoneId}/records`, {
    name: "outside",
    type: "TXT",
    content: "made through the API",
  });
  const maxReads = Math.ceil(n / DEFAULT_PAGE_SIZE) + 2;
  const before = childPids("provider.mjs");
  const plugin = await startPlugin();
  const steps: Step[] = [];
  try {
    const pids = [...childPids("provider.mjs")].filter((p) => !before.has(p));
    if (pids.length !== 1)
      throw new Error(`P3: cannot tell the plugin's pid (candidates: ${pids.join(", ") || "none"})`);
    const pid = pids[0]!;
    const startRss = procStatusKb(pid, "VmRSS");
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0 });
    // `verify` runs after the count, so that its own reads of the zone are not counted.
    const step = async (
      name: string,
      maxWrites: number,
      run: () => Promise<string | boolean>,
      verify: () => Promise<string | boolean> = async () => true,
    ) => {
      log(`P3 ${n}: ${name}`);
      const c = await counted(emu, run);
      const verdict = c.result === true ? await verify() : c.result;
      const ok = verdict === true && c.reads <= maxReads && c.writes <= maxWrites;
      steps.push({
        name,
        reads: c.reads,
        writes: c.writes,
        maxReads,
        maxWrites,
        ms: c.ms,
        hwm: procStatusKb(pid, "VmHWM"),
        ok,
        detail: verdict === true ? c.routes : `${verdict}; ${c.routes}`,
      });
    };
    const check = async (list: ZoneRecord[], olds?: Obj, more: Obj = {}) => {
      const { inputs, failures } = await plugin.check(ZR, "zone", { zoneId, records: list, ...more }, olds);
      if (failures.length) throw new Error(`P3: Check failed: ${JSON.stringify(failures.slice(0, 3))}`);
      return inputs;
    };
    const liveRecords = () => emu.setupControl.list<{ id: number; name: string }>(`/dns/zones/${zoneId}/records`);
    /** True when the zone holds `owned` records of the resource and the outside record, unchanged. */
    const holds = async (owned: number): Promise<string | boolean> => {
      const all = await liveRecords();
      if (!all.some((r) => r.id === outside.id && r.name === "outside"))
        return "the outside record is gone or has a new id";
      return all.length === owned + 1 || `${all.length - 1}/${owned} records live`;
    };

    let inputs: Obj = {};
    let state: Obj = {};
    await step(
      "up",
      zoneFileChunks(records, MAX_IMPORT_BYTES).length,
      async () => {
        inputs = await check(records);
        const created = await plugin.create(ZR, "zone", inputs);
        state = created.properties;
        return true;
      },
      () => holds(n),
    );
    await step("refresh", 0, async () => {
      const read = await plugin.read(ZR, "zone", zoneId, state, inputs);
      state = read.properties;
      return (
        JSON.stringify(read.properties.records) === JSON.stringify(inputs.records) ||
        "the records read back differ from the inputs"
      );
    });
    await step("no-change preview", 0, async () => {
      const again = await check(records, inputs);
      const d = await plugin.diff(ZR, "zone", zoneId, state, again, inputs);
      return !d.changes || `Diff found changes: ${d.diffs.join(", ")}`;
    });
    const changed = records.map((r, i) =>
      i % Math.floor(n / CHANGED) === 0 && i / Math.floor(n / CHANGED) < CHANGED ? { ...r, ttl: 120 } : r,
    );
    await step(`${CHANGED} changed`, CHANGED, async () => {
      const news = await check(changed, inputs);
      const d = await plugin.diff(ZR, "zone", zoneId, state, news, inputs);
      if (!d.changes || Object.keys(d.detailed).length !== CHANGED)
        return `Diff: ${Object.keys(d.detailed).length} entries`;
      state = await plugin.update(ZR, "zone", zoneId, state, news, false, inputs);
      inputs = news;
      return true;
    });
    const cut = changed.slice(0, Math.floor((changed.length * (100 - CUT_PERCENT)) / 100));
    await step(
      `${CUT_PERCENT}% cut refused`,
      0,
      async () => {
        const news = await check(cut, inputs);
        return plugin.update(ZR, "zone", zoneId, state, news, false, inputs).then(
          () => "the cut was applied",
          (e: unknown) => (/maxDeletePercent/.test(errorText(e)) ? true : `failed otherwise: ${errorText(e)}`),
        );
      },
      () => holds(n),
    );
    await step(
      `${CUT_PERCENT}% cut allowed`,
      BULK_WRITES,
      async () => {
        const news = await check(cut, inputs, { maxDeletePercent: CUT_PERCENT });
        state = await plugin.update(ZR, "zone", zoneId, state, news, false, inputs);
        inputs = news;
        return true;
      },
      () => holds(cut.length),
    );
    await step(
      "destroy",
      BULK_WRITES,
      async () => {
        await plugin.delete(ZR, "zone", zoneId, state);
        return true;
      },
      () => holds(0),
    );
    const peakRss = procStatusKb(pid, "VmHWM");
    notes.push(
      ...steps.map(
        (s) =>
          `P3 ${n.toLocaleString("en")} ${s.name}: ${s.reads} reads (≤ ${s.maxReads}), ${s.writes} writes (≤ ` +
          `${s.maxWrites}), ${sec(s.ms)}, plugin peak RSS so far ${mb(s.hwm)}${s.ok ? "" : " NOT OK"} [${s.detail}]`,
      ),
    );
    return { n, steps, ms: steps.reduce((a, s) => a + s.ms, 0), startRss, peakRss };
  } finally {
    await plugin.stop();
    await emu.setupControl.delete(`/dns/zones/${zoneId}`).catch(() => undefined);
  }
}

/** The same 1,000 records as one nsp:dns:Record each: creates, and their refresh without batching. */
async function recordBaseline(emu: SpawnedEmulator, notes: string[]): Promise<{ creates: number; refresh: number }> {
  const recZone = "p3-records.example";
  const recZoneId = String(
    (await emu.setupControl.post<{ id: number }>("/dns/zones", { service_id: emu.serviceId, name: recZone })).id,
  );
  const plugin = await startPlugin();
  const unbatched = await startPlugin();
  try {
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0 });
    await unbatched.configure({
      apiToken: secret(emu.token),
      baseUrl: emu.baseUrl,
      requestsPerMinute: 0,
      batchReads: false,
    });
    log(`P3 baseline: ${BASELINE_N} ${RECORD} creates, ${CONCURRENCY} in flight`);
    const held: { id: string; inputs: Obj; properties: Obj }[] = [];
    const creates = await counted(emu, async () => {
      const results = await mapLimit(zoneRecords(recZone, BASELINE_N), CONCURRENCY, async (r, i) => {
        const checked = await plugin.check(RECORD, `r${i}`, { zoneId: recZoneId, ...r });
        const created = await plugin.create(RECORD, `r${i}`, checked.inputs);
        held[i] = { id: created.id, inputs: checked.inputs, properties: created.properties };
      });
      const failed = results.filter((r) => r.status === "rejected");
      if (failed.length)
        notes.push(
          `P3 baseline: ${failed.length} Record creates failed, first: ${errorText((failed[0] as PromiseRejectedResult).reason)}`,
        );
      return true;
    });
    log(`P3 baseline: refresh of the ${BASELINE_N} records with batchReads off`);
    const refresh = await counted(emu, async () => {
      await mapLimit(held.filter(Boolean), 32, (h, i) => unbatched.read(RECORD, `r${i}`, h.id, h.properties, h.inputs));
      return true;
    });
    notes.push(
      `P3 baseline: ${creates.reads + creates.writes} requests to create, ${refresh.reads + refresh.writes} to refresh`,
    );
    return { creates: creates.reads + creates.writes, refresh: refresh.reads + refresh.writes };
  } finally {
    await plugin.stop();
    await unbatched.stop();
  }
}

const stepText = (r: SizeRun, f: (s: Step) => string) => r.steps.map(f).join(" / ");

export async function p3(sizes: readonly number[] = P3_DEFAULT_SIZES): Promise<PartResult> {
  // This harness stands in for the engine, which decodes 100,000 records in well under a second;
  // google-protobuf's own Struct would take it a minute, so it uses the plugin's codec.
  installStructCodec();
  const notes: string[] = [];
  const emu = await spawnEmulator(0);
  try {
    const probe = await startPlugin();
    try {
      if (!(await registered(probe))) {
        const why = `${ZR} is not registered in the plugin`;
        return { figures: [notAvailable("P3 ZoneRecords", why)], notes: [`P3: ${why}`] };
      }
    } finally {
      await probe.stop();
    }
    const runs: SizeRun[] = [];
    const figures: Figure[] = [];
    for (const n of [...sizes].sort((a, b) => a - b)) {
      try {
        runs.push(await runSize(emu, n, notes));
      } catch (e) {
        notes.push(`P3 ${n.toLocaleString("en")} could not run: ${errorText(e)}`);
        figures.push({
          name: `P3 ZoneRecords ${n.toLocaleString("en")} records`,
          measured: "ERROR",
          baseline: "-",
          ratio: "-",
          goal: "-",
          met: false,
        });
      }
    }
    const timeBase = runs.find((r) => r.n === BASELINE_N) ?? runs[0];
    notes.push(`P3 steps, in order: ${STEP_NAMES.join(" / ")}`);
    for (const r of runs) {
      const label = `P3 ZoneRecords ${r.n.toLocaleString("en")} records`;
      const bound = stepText(r, (s) => `${s.maxReads}+${s.maxWrites}`);
      figures.push(
        {
          name: `${label}: reads+writes per step`,
          measured: stepText(r, (s) => `${s.reads}+${s.writes}`),
          baseline: `${bound} (ceil(N/${DEFAULT_PAGE_SIZE})+2 reads + the writes needed)`,
          ratio: x(Math.max(...r.steps.map((s) => (s.reads + s.writes) / (s.maxReads + s.maxWrites)))),
          goal: "each step within its bound",
          met: r.steps.every((s) => s.ok),
        },
        {
          name: `${label}: wall time, all steps (each step)`,
          measured: `${sec(r.ms)} (${stepText(r, (s) => sec(s.ms))})`,
          baseline: timeBase ? `${sec(timeBase.ms)} (${timeBase.n.toLocaleString("en")} records)` : "-",
          ratio: timeBase ? `${x(r.ms / timeBase.ms)} for ${x(r.n / timeBase.n)} the records` : "-",
          goal: "grows no faster than the records (ratio ≤ records ratio × 1.5)",
          met: timeBase ? r.ms / timeBase.ms <= (r.n / timeBase.n) * 1.5 : undefined,
        },
        {
          name: `${label}: plugin peak RSS`,
          measured: mb(r.peakRss),
          baseline: `${mb(r.startRss)} (RSS after start)`,
          ratio: `${(r.peakRss / r.startRss).toFixed(2)}×`,
          goal: r.n <= BASELINE_N ? "≤ 150 MB" : "≤ 250 MB",
          met: r.peakRss <= (r.n <= BASELINE_N ? 150 : 250) * 1024,
        },
      );
    }
    const small = runs.find((r) => r.n === BASELINE_N);
    if (small) {
      const base = await recordBaseline(emu, notes);
      const up = small.steps[0]!;
      const refresh = small.steps[1]!;
      figures.push(
        {
          name: "P3 ZoneRecords apply 1,000 records: requests",
          measured: String(up.reads + up.writes),
          baseline: `${base.creates} (1,000 Record creates)`,
          ratio: `${((up.reads + up.writes) / base.creates).toFixed(4)} (${x(base.creates / (up.reads + up.writes))} fewer)`,
          goal: "≤ 3",
          met: up.ok && up.reads + up.writes <= 3,
        },
        {
          name: "P3 ZoneRecords refresh 1,000 records: requests",
          measured: String(refresh.reads + refresh.writes),
          baseline: `${base.refresh} (unbatched Record refresh)`,
          ratio: `${((refresh.reads + refresh.writes) / base.refresh).toFixed(4)} (${x(base.refresh / (refresh.reads + refresh.writes))} fewer)`,
          goal: "≤ 1",
          met: refresh.ok && refresh.reads + refresh.writes <= 1,
        },
      );
    }
    return { figures, notes };
  } finally {
    await emu.stop();
  }
}
