// P3: nsp:dns:ZoneRecords. Requests to apply a 1,000-record zone (Create) and to diff it against
// live (Read), against the same zone as 1,000 nsp:dns:Record creates and their unbatched refresh.
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { secret, startPlugin, type PluginHandle } from "../test/helpers/plugin";
import { type Figure, type PartResult, errorText, log, mapLimit, notAvailable, spawnEmulator, x } from "./lib";

const ZR = "nsp:dns:ZoneRecords";
const RECORD = "nsp:dns:Record";
const N = 1000;
const CONCURRENCY = 64;

type Obj = Record<string, unknown>;

/** The zone a program would declare: A, AAAA, CNAME, TXT and MX records. */
function zoneRecords(zoneName: string): { name: string; type: string; content: string; ttl: number }[] {
  return Array.from({ length: N }, (_, i) => {
    switch (i % 5) {
      case 0:
        return { name: `host${i}`, type: "A", content: `10.3.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 3600 };
      case 1:
        return { name: `host${i}`, type: "AAAA", content: `2001:db8::${i.toString(16)}`, ttl: 600 };
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
  const res = await plugin.call<providerPb.GetSchemaRequest, providerPb.GetSchemaResponse>("getSchema", new providerPb.GetSchemaRequest());
  const schema = JSON.parse(res.getSchema()) as { resources?: Record<string, unknown> };
  return Boolean(schema.resources?.[ZR]);
}

export async function p3(): Promise<PartResult> {
  const notes: string[] = [];
  const emu = await spawnEmulator(0);
  const plugin = await startPlugin();
  try {
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0 });
    let available = false;
    try {
      available = await registered(plugin);
    } catch (e) {
      notes.push(`P3: GetSchema failed: ${errorText(e)}`);
    }
    if (!available) {
      const why = `${ZR} is not registered in the plugin yet`;
      return { figures: [notAvailable("P3 ZoneRecords apply: requests", why), notAvailable("P3 ZoneRecords diff (Read): requests", why)], notes: [`P3: ${why}`] };
    }

    const count = async <T>(run: () => Promise<T>) => {
      await emu.control.resetStats();
      const result = await run();
      const s = await emu.control.stats();
      return { result, total: s.total, routes: Object.entries(s.byRoute).map(([k, v]) => `${k}: ${v}`).join(", ") };
    };

    // The whole zone as one resource.
    const zrZone = "p3-zone-records.example";
    const zrZoneId = String((await emu.setupControl.post<{ id: number }>("/dns/zones", { service_id: emu.serviceId, name: zrZone })).id);
    const { inputs, failures } = await plugin.check(ZR, "zone", { zoneId: zrZoneId, records: zoneRecords(zrZone) });
    if (failures.length) throw new Error(`P3: Check failed: ${JSON.stringify(failures.slice(0, 3))}`);
    log(`P3: ${ZR} Create with ${N} records`);
    const apply = await count(() => plugin.create(ZR, "zone", inputs));
    const live = (await emu.setupControl.list(`/dns/zones/${zrZoneId}/records`)).length;
    notes.push(`P3 ZoneRecords apply: ${apply.total} request(s) (${apply.routes}); ${live}/${N} records live`);
    log(`P3: ${ZR} Read (diff against live)`);
    const read = await count(() => plugin.read(ZR, "zone", apply.result.id, apply.result.properties, inputs));
    const readRecords = (read.result.properties.records as unknown[] | undefined)?.length ?? 0;
    const same = JSON.stringify(read.result.properties.records) === JSON.stringify(inputs.records);
    const diff = await plugin.diff(ZR, "zone", apply.result.id, read.result.properties, inputs, inputs);
    notes.push(`P3 ZoneRecords Read: ${read.total} request(s) (${read.routes}); ${readRecords} records read back, ${same ? "equal to" : "DIFFERENT from"} the inputs; Diff: ${diff.changes ? "changes" : "no changes"}`);

    // Baseline: the same zone as one nsp:dns:Record each.
    const recZone = "p3-records.example";
    const recZoneId = String((await emu.setupControl.post<{ id: number }>("/dns/zones", { service_id: emu.serviceId, name: recZone })).id);
    log(`P3 baseline: ${N} ${RECORD} creates, ${CONCURRENCY} in flight`);
    const held: { id: string; inputs: Obj; properties: Obj }[] = [];
    const creates = await count(() =>
      mapLimit(zoneRecords(recZone), CONCURRENCY, async (r, i) => {
        const checked = await plugin.check(RECORD, `r${i}`, { zoneId: recZoneId, ...r });
        const created = await plugin.create(RECORD, `r${i}`, checked.inputs);
        held[i] = { id: created.id, inputs: checked.inputs, properties: created.properties };
      }),
    );
    const createErrors = creates.result.filter((r) => r.status === "rejected");
    if (createErrors.length) notes.push(`P3 baseline: ${createErrors.length} Record creates failed, first: ${errorText((createErrors[0] as PromiseRejectedResult).reason)}`);
    notes.push(`P3 baseline apply: ${creates.total} requests (${creates.routes})`);

    log(`P3 baseline: refresh of the ${N} records with batchReads off`);
    const unbatched = await startPlugin();
    let refresh: { total: number; routes: string };
    try {
      await unbatched.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0, batchReads: false });
      refresh = await count(() => mapLimit(held.filter(Boolean), 32, (h, i) => unbatched.read(RECORD, `r${i}`, h.id, h.properties, h.inputs)));
    } finally {
      await unbatched.stop();
    }
    notes.push(`P3 baseline refresh: ${refresh.total} requests (${refresh.routes})`);

    const figures: Figure[] = [
      {
        name: "P3 ZoneRecords apply 1,000 records: requests",
        measured: String(apply.total),
        baseline: `${creates.total} (1,000 Record creates)`,
        ratio: `${(apply.total / creates.total).toFixed(4)} (${x(creates.total / apply.total)} fewer)`,
        goal: "≤ 3",
        met: apply.total <= 3 && live === N,
      },
      {
        name: "P3 ZoneRecords diff vs live (Read): requests",
        measured: String(read.total),
        baseline: `${refresh.total} (unbatched refresh)`,
        ratio: `${(read.total / refresh.total).toFixed(4)} (${x(refresh.total / read.total)} fewer)`,
        goal: "≤ 1",
        met: read.total <= 1 && same && !diff.changes,
      },
    ];
    return { figures, notes };
  } finally {
    await plugin.stop();
    await emu.stop();
  }
}
