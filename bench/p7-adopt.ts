// P7: adopting a large account from nothing to a no-change preview, the README's way, with the
// real commands: 100 zones of 1,000 records, a CA with ROAs and an edge site with rules, on the
// emulator at the API's 300 requests a minute. `nsp-discover > import.json`, then
// `nsp-discover --import import.json --out Main.yaml` in a fresh Pulumi YAML project (file
// backend), then `pulumi preview --expect-no-changes`, each timed with the requests the emulator
// counted. The token's bucket is emptied first, as a token in use is: a token idle for a minute
// starts with 300 requests in hand, and would beat the floor below by that much. Baseline: the
// floor the quota sets, discovery's requests at 300 a minute (nothing can read the account
// faster); the import and the preview add their own requests and what the engine takes.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Stack, pulumiAvailable } from "../test/e2e/harness/pulumi-cli";
import {
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

const execFileAsync = promisify(execFile);

const ZONES = 100;
const RECORDS_PER_ZONE = 1000;
const ROAS = 10;
const RULES = 5;
const QUOTA = 300;
const GOAL_MS = 5 * 60_000;

/** The i-th record of a zone: addresses, text, mail and aliases, as a zone of a real account mixes them. */
function recordLine(i: number): string {
  switch (i % 5) {
    case 0:
      return `a${i} 300 IN A 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
    case 1:
      return `v6-${i} 300 IN AAAA 2001:db8::${i.toString(16)}`;
    case 2:
      return `txt${i} 3600 IN TXT "site verification ${i}"`;
    case 3:
      return `mx${i} 3600 IN MX 10 mx${i}.example.net.`;
    default:
      return `www${i} 300 IN CNAME a${i - 4}`;
  }
}

async function seed(emu: SpawnedEmulator): Promise<void> {
  const api = emu.setupControl;
  for (let z = 0; z < ZONES; z++) {
    const zone = await api.post<{ id: number }>("/dns/zones", { service_id: emu.serviceId, name: `p7-${z}.example` });
    const text = `${Array.from({ length: RECORDS_PER_ZONE }, (_, i) => recordLine(i)).join("\n")}\n`;
    const added = await api.post<{ added: number }>(`/dns/zones/${zone.id}/import`, { text, mode: "apply" });
    if (added.added !== RECORDS_PER_ZONE)
      throw new Error(`zone ${zone.id}: the import added ${added.added} of ${RECORDS_PER_ZONE} records`);
  }
  const ca = await api.post<{ id: number }>("/rpki/cas", { handle: "p7-ca", asns: [64500] });
  for (let r = 0; r < ROAS; r++)
    await api.post(`/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: `10.${r}.0.0/16`, max_length: 24 });
  const site = await api.post<{ id: number }>("/cdn/sites", {
    hostname: "shop.p7.example",
    origin: "origin.example.net",
  });
  const countries = ["NL", "DE", "FR", "BE", "LU"];
  for (let r = 0; r < RULES; r++)
    await api.post("/security/rules", {
      site_id: site.id,
      field: "country",
      op: "in",
      value: countries[r],
      action: "block",
    });
}

interface Step {
  ms: number;
  requests: number;
  rateLimited: number;
}

/** Empties the token's bucket with cheap reads, as a token other work keeps busy has it. */
async function drain(emu: SpawnedEmulator): Promise<void> {
  await resetRateLimit(emu.baseUrl);
  for (let i = 0; i < QUOTA; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, QUOTA - i) }, () =>
        fetch(`${emu.baseUrl}/me`, { headers: { authorization: `Bearer ${emu.token}` } }).then((r) => r.arrayBuffer()),
      ),
    );
  }
}

/** Runs `step` with the emulator's counts zeroed first; the bucket goes on from the step before. */
async function measured(emu: SpawnedEmulator, step: () => Promise<unknown>): Promise<Step> {
  await emu.control.resetStats();
  const t0 = performance.now();
  await step();
  const ms = performance.now() - t0;
  const stats = await emu.control.stats();
  return { ms, requests: stats.total, rateLimited: stats.rateLimited };
}

export async function p7(): Promise<PartResult> {
  if (!pulumiAvailable())
    return {
      figures: [
        notAvailable(
          "P7 adopting 100 zones of 1,000 records",
          "the pulumi CLI is not on PATH (scripts/install-pulumi.sh)",
        ),
      ],
      notes: [],
    };
  const notes: string[] = [];
  const emu = await spawnEmulator(QUOTA);
  const work = mkdtempSync(join(tmpdir(), "nsp-bench-p7-"));
  let stack: Stack | undefined;
  try {
    log(
      `P7: seeding ${ZONES} zones × ${RECORDS_PER_ZONE} records, a CA with ${ROAS} ROAs, a site with ${RULES} rules (emulator quota ${QUOTA}/min)`,
    );
    await seed(emu);
    const account = { NSP_API_TOKEN: emu.token, NSP_BASE_URL: emu.baseUrl };
    const nspDiscover = (args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
      execFileAsync(process.execPath, [join(ROOT, "bin", "nsp-discover"), ...args], {
        cwd,
        env: { ...env, ...account },
        encoding: "utf8",
        maxBuffer: 1 << 30,
      });

    // The project and its stack, as the README has the reader make them first.
    stack = await Stack.init(Stack.yamlProject(Stack.yamlPluginHead("p7-adopted")), { env: account, stack: "dev" });
    const file = join(work, "import.json");
    await drain(emu);
    log("P7: nsp-discover > import.json, the token's bucket empty");
    const discovery = await measured(emu, async () =>
      writeFileSync(
        file,
        (await nspDiscover(["--report", join(work, "left-out.json")], work, { PATH: process.env.PATH })).stdout,
      ),
    );
    const objects = (JSON.parse(readFileSync(file, "utf8")) as { resources: { type: string }[] }).resources;
    log(`P7: nsp-discover --import import.json --out Main.yaml (${objects.length} objects)`);
    const imported = await measured(emu, () =>
      nspDiscover(["--import", file, "--out", "Main.yaml", "--stack", stack!.stack], stack!.dir, stack!.env),
    );
    log("P7: pulumi preview --expect-no-changes");
    let previewOk = true;
    const preview = await measured(emu, async () => {
      const r = await stack!.run(["preview", "--expect-no-changes"], { allowFailure: true });
      if (r.code !== 0) {
        previewOk = false;
        notes.push(
          `P7: the first preview was not a no-change one (exit ${r.code}): ${(r.stdout + r.stderr).slice(-2000)}`,
        );
      }
    });

    const program = readFileSync(join(stack.dir, "Main.yaml"), "utf8");
    const zoneRecords = objects.filter((o) => o.type === "nsp:dns:ZoneRecords").length;
    const total = discovery.ms + imported.ms + preview.ms;
    const floorMs = (discovery.requests / QUOTA) * 60_000;
    const allRequests = discovery.requests + imported.requests + preview.requests;
    const allFloorMs = (allRequests / QUOTA) * 60_000;
    notes.push(
      `P7: ${ZONES * RECORDS_PER_ZONE} records in ${ZONES} zones; ${objects.length} objects in the file (${zoneRecords} nsp:dns:ZoneRecords as zone files); ` +
        (`discovery ${discovery.requests} requests in ${sec(discovery.ms)}, import ${imported.requests} in ` +
          `${sec(imported.ms)}, first preview ${preview.requests} in ${sec(preview.ms)}; `) +
        (`Main.yaml ${program.split("\n").length} lines ` +
          `(${(statSync(join(stack.dir, "Main.yaml")).size / 1024 / 1024).toFixed(1)} MiB); 429s: ${discovery.rateLimited + imported.rateLimited + preview.rateLimited}`),
    );
    const step = (name: string, s: Step) => ({
      name: `P7 ${name}`,
      measured: `${sec(s.ms)}, ${s.requests} requests`,
      baseline: `${sec((s.requests / QUOTA) * 60_000)} (its requests at ${QUOTA}/min)`,
      ratio: "-",
      goal: "-",
      met: undefined,
    });
    return {
      figures: [
        {
          name: "P7 discovery: nsp-discover > import.json",
          measured: `${sec(discovery.ms)}, ${discovery.requests} requests`,
          baseline: `${sec(floorMs)} (the floor: its requests at ${QUOTA}/min)`,
          ratio: `${x(discovery.ms / floorMs)} the floor`,
          goal: "-",
          met: undefined,
        },
        step("import: nsp-discover --import", imported),
        step("first preview: pulumi preview --expect-no-changes", preview),
        {
          name: `P7 from nothing to a no-change preview (${ZONES} zones × ${RECORDS_PER_ZONE} records)`,
          measured: `${sec(total)}, ${allRequests} requests`,
          baseline: `${sec(floorMs)} (discovery's requests at ${QUOTA}/min); all ${allRequests} requests: ${sec(allFloorMs)}`,
          ratio: `${x(total / floorMs)} discovery's floor`,
          goal: `< ${sec(GOAL_MS)}, first preview no change`,
          met: total < GOAL_MS && previewOk,
        },
      ],
      notes,
    };
  } finally {
    stack?.cleanup();
    rmSync(work, { recursive: true, force: true });
    await emu.stop();
  }
}
