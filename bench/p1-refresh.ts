// P1: requests to refresh the 1,000 records of one zone, batched (one paged list) against one GET
// per record (batchReads: false). Counted by the emulator.
import { secret, startPlugin } from "../test/helpers/plugin";
import { type PartResult, errorText, log, mapLimit, spawnEmulator, x } from "./lib";

const RECORD = "nsp:dns:Record";
const N = 1000;
const PAGE = 500;
const CONCURRENCY = 32;

interface ApiRecord {
  id: number;
  zone_id: number;
  name: string;
  type: string;
  content: string;
  ttl: number;
  enabled: boolean;
  proxied: boolean;
  weight: number | null;
  health_check: string | null;
  created_at: string;
}

export async function p1(): Promise<PartResult> {
  const notes: string[] = [];
  const emu = await spawnEmulator(0);
  try {
    log(`P1: creating a zone and ${N} records directly through the emulator API`);
    const zone = await emu.setupControl.post<{ id: number }>("/dns/zones", {
      service_id: emu.serviceId,
      name: "p1-refresh.example",
    });
    const zoneId = String(zone.id);
    const created = await mapLimit(
      Array.from({ length: N }, (_, i) => i),
      16,
      (i) =>
        emu.setupControl.post<ApiRecord>(`/dns/zones/${zoneId}/records`, {
          name: `host${i}`,
          type: "A",
          content: `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`,
          ttl: 300,
        }),
    );
    const records = created.map((r) => {
      if (r.status === "rejected") throw r.reason;
      return r.value;
    });

    // What the engine holds for each record: the inputs and the state the last up wrote.
    const held = records.map((r) => {
      const inputs = {
        zoneId,
        name: r.name,
        type: r.type,
        content: r.content,
        ttl: r.ttl,
        enabled: true,
        proxied: false,
      };
      return { id: String(r.id), inputs, properties: { ...inputs, createdAt: r.created_at } };
    });

    const refresh = async (batchReads: boolean) => {
      const plugin = await startPlugin();
      try {
        await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: 0, batchReads });
        await emu.control.resetStats();
        const started = performance.now();
        const reads = await mapLimit(held, CONCURRENCY, (h, i) =>
          plugin.read(RECORD, `r${i}`, h.id, h.properties, h.inputs),
        );
        const elapsed = performance.now() - started;
        const stats = await emu.control.stats();
        let wrong = 0;
        let failed = 0;
        reads.forEach((res, i) => {
          if (res.status === "rejected") {
            if (failed++ === 0) notes.push(`P1 (batchReads ${batchReads}): a Read failed: ${errorText(res.reason)}`);
            return;
          }
          const want = records[i]!;
          const p = res.value.properties;
          if (
            res.value.id !== String(want.id) ||
            p.name !== want.name ||
            p.content !== want.content ||
            p.type !== want.type ||
            p.ttl !== want.ttl ||
            String(p.zoneId) !== zoneId
          ) {
            if (wrong++ === 0)
              notes.push(
                `P1 (batchReads ${batchReads}): Read of ${want.id} returned ${JSON.stringify({ id: res.value.id, ...p })}`,
              );
          }
        });
        notes.push(
          `P1 batchReads=${batchReads}: ${stats.total} request(s) (${Object.entries(stats.byRoute)
            .map(([k, v]) => `${k}: ${v}`)
            .join(", ")}), ` +
            `${N - failed - wrong}/${N} Reads returned the right record, ${failed} failed, ${wrong} wrong; ${(elapsed / 1000).toFixed(1)} s`,
        );
        return { requests: stats.total, ok: failed === 0 && wrong === 0, elapsed };
      } finally {
        await plugin.stop();
      }
    };

    log(`P1: refreshing ${N} records with batchReads on, ${CONCURRENCY} Reads in flight`);
    const batched = await refresh(true);
    log(`P1: refreshing ${N} records with batchReads off (baseline)`);
    const unbatched = await refresh(false);

    const cap = Math.ceil(N / PAGE) + 2;
    const fewer = batched.requests > 0 ? unbatched.requests / batched.requests : Infinity;
    return {
      figures: [
        {
          name: "P1 refresh 1,000 records: requests",
          measured: String(batched.requests),
          baseline: `${unbatched.requests} (batchReads: false)`,
          ratio: `${(batched.requests / unbatched.requests).toFixed(4)} (${x(fewer)} fewer)`,
          goal: `≤ ${cap} and ≥ 50× fewer`,
          met: batched.requests <= cap && fewer >= 50,
        },
        {
          name: "P1 every Read returned its record",
          measured: batched.ok ? `${N}/${N}` : "NO (see notes)",
          baseline: unbatched.ok ? `${N}/${N}` : "NO (see notes)",
          ratio: "-",
          goal: "all right, both runs",
          met: batched.ok && unbatched.ok,
        },
      ],
      notes,
    };
  } finally {
    await emu.stop();
  }
}
