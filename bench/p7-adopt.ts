// P7: adopting an account of 5 zones × 1,000 records plus one or two of every other kind:
// nsp-discover's requests and wall time, then the Reads `pulumi import --file` makes (over gRPC,
// as the engine makes them), at the API's 300/min quota. Baseline, from the same run: one GET per
// object (batchReads: false), measured on a second emulator without a quota, since at 300/min it
// would take one minute per 300 objects.
import { ApiClient } from "../provider/src/client";
import { discover, type ImportEntry } from "../provider/src/discover/discover";
import { resources } from "../provider/src/modules/all-definitions";
import { seedAccount } from "../test/helpers/account-seed";
import { secret, startPlugin } from "../test/helpers/plugin";
import { type PartResult, type SpawnedEmulator, errorText, log, mapLimit, sec, spawnEmulator, x } from "./lib";

const ZONES = 5;
const RECORDS = 5000;
const PAGE = 500;
const QUOTA = 300;
/** Reads in flight, as the engine's default parallelism gives during an import. */
const CONCURRENCY = 16;

interface Run {
  requests: number;
  rateLimited: number;
  failed: number;
  ms: number;
}

async function seeded(rateLimit: number): Promise<SpawnedEmulator> {
  const emu = await spawnEmulator(rateLimit);
  await seedAccount(emu.setupControl, { zones: ZONES, records: RECORDS, prefix: "p7" });
  await emu.control.resetStats();
  return emu;
}

async function discoverRun(emu: SpawnedEmulator): Promise<{ run: Run; entries: ImportEntry[]; leftOut: number }> {
  const client = new ApiClient({ baseUrl: emu.baseUrl, token: emu.token, requestsPerMinute: QUOTA });
  await emu.control.resetStats();
  const t0 = performance.now();
  try {
    const result = await discover(client, resources, {});
    const ms = performance.now() - t0;
    const stats = await emu.control.stats();
    return { run: { requests: stats.total, rateLimited: client.stats().rateLimited, failed: 0, ms }, entries: result.file.resources, leftOut: result.leftOut.length };
  } finally {
    await client.close();
  }
}

async function importReads(emu: SpawnedEmulator, entries: readonly ImportEntry[], batchReads: boolean, requestsPerMinute: number, notes: string[]): Promise<Run> {
  const plugin = await startPlugin();
  try {
    await plugin.configure({ apiToken: secret(emu.token), baseUrl: emu.baseUrl, requestsPerMinute, batchReads });
    await emu.control.resetStats();
    const t0 = performance.now();
    const reads = await mapLimit(entries, CONCURRENCY, (e) => plugin.read(e.type, e.name, e.id));
    const ms = performance.now() - t0;
    const stats = await emu.control.stats();
    const failures = reads.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    if (failures.length) notes.push(`P7 (batchReads ${batchReads}): ${failures.length} Reads failed, first: ${errorText(failures[0]!.reason)}`);
    return { requests: stats.total, rateLimited: stats.rateLimited, failed: failures.length, ms };
  } finally {
    await plugin.stop();
  }
}

export async function p7(): Promise<PartResult> {
  const notes: string[] = [];
  log(`P7: seeding ${ZONES} zones × ${RECORDS / ZONES} records and the other kinds (emulator quota ${QUOTA}/min)`);
  const emu = await seeded(QUOTA);
  let disc: Awaited<ReturnType<typeof discoverRun>>;
  let batched: Run;
  try {
    log("P7: nsp-discover");
    disc = await discoverRun(emu);
    log(`P7: the import's Reads of ${disc.entries.length} objects, batchReads on`);
    batched = await importReads(emu, disc.entries, true, QUOTA, notes);
  } finally {
    await emu.stop();
  }
  log("P7: baseline, one GET per object (batchReads off), on an emulator without a quota");
  const bare = await seeded(0);
  let baseline: Run;
  try {
    baseline = await importReads(bare, (await discoverRun(bare)).entries, false, 0, notes);
  } finally {
    await bare.stop();
  }

  const objects = disc.entries.length;
  const records = disc.entries.filter((e) => e.type === "nsp:dns:Record").length;
  const zones = disc.entries.filter((e) => e.type === "nsp:dns:Zone").length;
  const others = objects - records - zones;
  const readsCap = Math.ceil(records / PAGE) + 2 * zones + others;
  const atQuota = (requests: number) => sec((requests / QUOTA) * 60_000);
  notes.push(
    `P7: ${objects} objects in the file (${records} records, ${zones} zones, ${others} others), ${disc.leftOut} left out as owned or made by the API; ` +
      `discovery ${disc.run.requests} requests in ${sec(disc.run.ms)}; import Reads ${batched.requests} requests in ${sec(batched.ms)}; ` +
      `baseline ${baseline.requests} GETs in ${sec(baseline.ms)} without a quota (${atQuota(baseline.requests)} at ${QUOTA}/min)`,
  );
  return {
    figures: [
      {
        name: "P7 discovery: requests",
        measured: String(disc.run.requests),
        baseline: `${objects} (one GET per object)`,
        ratio: `${x(objects / Math.max(1, disc.run.requests))} fewer`,
        goal: "≤ 60",
        met: disc.run.requests <= 60,
      },
      {
        name: "P7 discovery: wall time",
        measured: sec(disc.run.ms),
        baseline: `${atQuota(objects)} (one GET per object at ${QUOTA}/min, computed)`,
        ratio: "-",
        goal: "-",
        met: undefined,
      },
      {
        name: "P7 import Reads: requests",
        measured: String(batched.requests),
        baseline: `${baseline.requests} (batchReads: false)`,
        ratio: `${x(baseline.requests / Math.max(1, batched.requests))} fewer`,
        goal: `≤ ${readsCap} (ceil(records/500) + 2/zone + 1/other)`,
        met: batched.requests <= readsCap && batched.failed === 0,
      },
      {
        name: "P7 import Reads: wall time",
        measured: `${sec(batched.ms)} at ${QUOTA}/min`,
        baseline: `${sec(baseline.ms)} without a quota; ${atQuota(baseline.requests)} at ${QUOTA}/min`,
        ratio: "-",
        goal: "-",
        met: undefined,
      },
      {
        name: "P7 429s surfaced at 300/min",
        measured: `${disc.run.rateLimited + batched.rateLimited} 429 answers, ${batched.failed} failed Reads`,
        baseline: "-",
        ratio: "-",
        goal: "0 failures",
        met: batched.failed === 0,
      },
    ],
    notes,
  };
}
