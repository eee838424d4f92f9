// P2: wall time to create a zone and 1,000 records under a quota of Q requests per minute
// (emulator --rate-limit Q, plugin requestsPerMinute: Q), against the floor.
import { secret, startPlugin } from "../test/helpers/plugin";
import { type PartResult, errorText, log, mapLimit, resetRateLimit, sec, spawnEmulator } from "./lib";

const RECORD = "nsp:dns:Record";
const ZONE = "nsp:dns:Zone";
const N = 1000;
const CONCURRENCY = 64;

/** Q: chosen so that the run, after the emulator's initial burst of Q, takes about a minute. */
export const P2_DEFAULT_Q = 500;

export async function p2(q: number = P2_DEFAULT_Q): Promise<PartResult> {
  const notes: string[] = [];
  const emu = await spawnEmulator(q);
  const plugin = await startPlugin();
  try {
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute: q });
    const zoneInputs = (
      await plugin.check(ZONE, "zone", { serviceId: String(emu.serviceId), name: "p2-quota.example" })
    ).inputs;
    // The setup requests used a different token (its own bucket); start both buckets full and the counts at zero.
    await resetRateLimit(emu.baseUrl);
    await emu.control.resetStats();

    log(
      `P2: creating a zone and ${N} records at ${CONCURRENCY} in flight under ${q}/min (about ${(((N + 1 - q) / q) * 60).toFixed(0)} s)`,
    );
    const started = performance.now();
    const zone = await plugin.create(ZONE, "zone", zoneInputs);
    // As the engine steps each resource: Check (no request), then Create.
    const results = await mapLimit(
      Array.from({ length: N }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const { inputs } = await plugin.check(RECORD, `r${i}`, {
          zoneId: zone.id,
          name: `host${i}`,
          type: "A",
          content: `10.2.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        });
        return plugin.create(RECORD, `r${i}`, inputs);
      },
    );
    const elapsed = performance.now() - started;
    const stats = await emu.control.stats();

    const errors = results
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => errorText(r.reason));
    const surfaced429 = errors.filter((e) => /rate_limited|429/.test(e)).length;
    if (errors.length) notes.push(`P2: ${errors.length} Create errors, first: ${errors[0]}`);
    const live = (await emu.setupControl.list(`/dns/zones/${zone.id}/records`)).length;

    // Requests that spent a unit of the bucket (a 429 spends nothing).
    const spent = stats.total - stats.rateLimited;
    const floorIssue = (N / q) * 60_000;
    const floorBurst = (Math.max(0, spent - q) / q) * 60_000;
    notes.push(
      `P2 Q=${q}/min: ${stats.total} requests reached the emulator (${Object.entries(stats.byRoute)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ")}), ` +
        `${stats.rateLimited} answered 429; ${live}/${N} records exist; wall ${sec(elapsed)}. ` +
        `Floors: N/Q = ${sec(floorIssue)}; burst-adjusted (${spent} requests − the bucket's initial ${q}) / Q = ${sec(floorBurst)}.`,
    );
    return {
      figures: [
        {
          name: `P2 create 1,000 records @ ${q}/min: wall vs N/Q`,
          measured: sec(elapsed),
          baseline: `${sec(floorIssue)} (N/Q)`,
          ratio: `${(elapsed / floorIssue).toFixed(3)}×`,
          goal: "≤ 1.05×",
          met: elapsed <= 1.05 * floorIssue,
        },
        {
          name: "P2 ... wall vs burst-adjusted floor",
          measured: sec(elapsed),
          baseline: `${sec(floorBurst)} ((${spent}−${q})/Q)`,
          ratio: `${(elapsed / floorBurst).toFixed(3)}×`,
          goal: "≤ 1.05×",
          met: elapsed <= 1.05 * floorBurst,
        },
        {
          name: "P2 failed operations",
          measured: String(errors.length),
          baseline: `${N} Creates`,
          ratio: "-",
          goal: "0",
          met: errors.length === 0 && live === N,
        },
        {
          name: "P2 429s surfaced (server sent)",
          measured: `${surfaced429} (${stats.rateLimited})`,
          baseline: "-",
          ratio: "-",
          goal: "0 surfaced",
          met: surfaced429 === 0,
        },
      ],
      notes,
    };
  } finally {
    await plugin.stop();
    await emu.stop();
  }
}
