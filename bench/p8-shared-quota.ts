// P8: four stacks sharing one token: `pulumi up` of a zone and 150 records each, the four at
// once, with the real pulumi CLI (file backend), against the emulator at 600 requests a minute.
// The token's bucket is emptied first, as a token other stacks keep busy is, so the floor is
// exactly the requests the server counted / the quota. Baseline, from the same run: the same
// four ups with the pacing before shared pacing (NSP_QUOTA_PACING=local).
import { execFileSync } from "node:child_process";
import { Stack, pulumiAvailable } from "../test/e2e/harness/pulumi-cli";
import {
  type Figure,
  type PartResult,
  ROOT,
  type SpawnedEmulator,
  log,
  notAvailable,
  resetRateLimit,
  sec,
  spawnEmulator,
  x,
} from "./lib";

const STACKS = 4;
const RECORDS = 150;
const QUOTA = 600;

interface Run {
  pacing: "shared" | "local";
  wallMs: number;
  /** Requests that spent a unit of the bucket (a 429 spends nothing). */
  counted: number;
  rateLimited: number;
  failedUps: number;
  missingObjects: number;
  surfaced429: number;
  firstError?: string;
}

function program(i: number, serviceId: number): string {
  const lines = [
    Stack.yamlProgramText(
      `name: p8-stack-${i}\nruntime: yaml\nplugins:\n  providers:\n    - name: nsp\n      path: ../../bin\n`,
    ),
    "resources:",
    "  zone:",
    "    type: nsp:dns:Zone",
    `    properties: { serviceId: "${serviceId}", name: p8-${i}.example }`,
  ];
  for (let r = 0; r < RECORDS; r++) {
    lines.push(
      `  r${r}:`,
      "    type: nsp:dns:Record",
      `    properties: { zoneId: "\${zone.id}", name: host${r}, type: A, content: 10.8.${i}.${r + 1} }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Empties the token's bucket with cheap reads, then zeroes the counts. */
async function drain(emu: SpawnedEmulator): Promise<void> {
  await resetRateLimit(emu.baseUrl);
  for (let i = 0; i < QUOTA; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, QUOTA - i) }, () =>
        fetch(`${emu.baseUrl}/me`, { headers: { authorization: `Bearer ${emu.token}` } }).then((r) => r.arrayBuffer()),
      ),
    );
  }
  await emu.control.resetStats();
}

async function fourUps(pacing: Run["pacing"]): Promise<Run> {
  const emu = await spawnEmulator(QUOTA);
  const stacks: Stack[] = [];
  try {
    const env = { NSP_BASE_URL: emu.baseUrl, NSP_API_TOKEN: emu.token, NSP_QUOTA_PACING: pacing };
    for (let i = 0; i < STACKS; i++)
      stacks.push(await Stack.init(Stack.yamlProject(program(i, emu.serviceId)), { env, stack: `p8-${i}` }));
    await drain(emu);
    log(
      `P8 ${pacing}: ${STACKS} × pulumi up of a zone and ${RECORDS} records at once, one token, ${QUOTA}/min, bucket empty`,
    );
    const t0 = performance.now();
    const results = await Promise.all(
      stacks.map((s) => s.run(["up", "--yes", "--skip-preview"], { allowFailure: true })),
    );
    const wallMs = performance.now() - t0;
    const stats = await emu.control.stats();
    let missingObjects = 0;
    const zones = await emu.setupControl.list<{ id: number; name: string }>("/dns/zones");
    for (let i = 0; i < STACKS; i++) {
      const zone = zones.find((z) => z.name === `p8-${i}.example`);
      missingObjects += zone
        ? RECORDS - (await emu.setupControl.list(`/dns/zones/${zone.id}/records`)).length
        : RECORDS + 1;
    }
    const output = results.map((r) => `${r.stdout}\n${r.stderr}`).join("\n");
    const errorLines = output.split("\n").filter((l) => /\berror\b/i.test(l));
    const run: Run = {
      pacing,
      wallMs,
      counted: stats.total - stats.rateLimited,
      rateLimited: stats.rateLimited,
      failedUps: results.filter((r) => r.code !== 0).length,
      missingObjects,
      surfaced429: errorLines.filter((l) => /rate_limited|\b429\b/.test(l)).length,
    };
    if (errorLines[0]) run.firstError = errorLines[0].trim();
    return run;
  } finally {
    for (const s of stacks) s.cleanup();
    await emu.stop();
  }
}

export async function p8(): Promise<PartResult> {
  const name = `P8 ${STACKS} stacks × ${RECORDS} records, one token @ ${QUOTA}/min`;
  if (!process.env.PATH?.includes(".cache/nsp")) {
    process.env.PATH = `${execFileSync("bash", ["scripts/install-pulumi.sh"], { cwd: ROOT, encoding: "utf8" }).trim()}:${process.env.PATH}`;
  }
  if (!pulumiAvailable())
    return {
      figures: [notAvailable(name, "the pulumi CLI v3.259.0 is not available (scripts/install-pulumi.sh)")],
      notes: [],
    };
  const shared = await fourUps("shared");
  const local = await fourUps("local");
  const floor = (r: Run) => (r.counted / QUOTA) * 60_000;
  const pct = (r: Run) => (r.rateLimited / (r.counted + r.rateLimited)) * 100;
  const notes = [shared, local].map(
    (r) =>
      `P8 ${r.pacing} pacing (the real pulumi CLI, ${STACKS} stacks at once, the engine's default ` +
      `parallelism): wall ${sec(r.wallMs)}; the server counted ${r.counted} requests ` +
      (`(floor ${sec(floor(r))}) and answered ${r.rateLimited} with 429 (${pct(r).toFixed(1)}%); ` +
        `${r.failedUps} ups failed, ${r.missingObjects} objects missing, `) +
      `${r.surfaced429} 429 errors shown to the user${r.firstError ? `; first error line: ${r.firstError}` : ""}.`,
  );
  const figures: Figure[] = [
    {
      name: `${name}: failed operations (baseline: the old pacing)`,
      measured: String(shared.failedUps + shared.missingObjects),
      baseline: String(local.failedUps + local.missingObjects),
      ratio: "-",
      goal: "0",
      met: shared.failedUps === 0 && shared.missingObjects === 0,
    },
    {
      name: "P8 ... 429s surfaced to the user (baseline: the old pacing)",
      measured: String(shared.surfaced429),
      baseline: String(local.surfaced429),
      ratio: "-",
      goal: "0",
      met: shared.surfaced429 === 0,
    },
    {
      name: "P8 ... wall vs floor (counted requests / quota)",
      measured: `${sec(shared.wallMs)} (${(shared.wallMs / floor(shared)).toFixed(3)}× ${sec(floor(shared))})`,
      baseline: `${sec(local.wallMs)} (${(local.wallMs / floor(local)).toFixed(3)}× ${sec(floor(local))})`,
      ratio: x(shared.wallMs / local.wallMs),
      goal: "≤ 1.15× floor",
      met: shared.wallMs <= 1.15 * floor(shared),
    },
    {
      name: "P8 ... 429s the server sent, % of requests",
      measured: `${pct(shared).toFixed(2)}% (${shared.rateLimited})`,
      baseline: `${pct(local).toFixed(2)}% (${local.rateLimited})`,
      ratio: local.rateLimited ? x(shared.rateLimited / local.rateLimited) : "-",
      goal: "< 2%",
      met: pct(shared) < 2,
    },
  ];
  return { figures, notes };
}
