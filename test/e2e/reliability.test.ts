// Reliability with the real pulumi CLI: injected faults, preview without writes, cancellation,
// parallel writes to one zone, and secrets in every artefact (verbose engine log included).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { until } from "../helpers/until";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

let emulator: EmulatorProcess;
/** The emulator's demo account: the control endpoints (faults, stats, accounts) are global. */
let admin: EmulatorControl;
const stacks: Stack[] = [];
const results = mkdtempSync(join(tmpdir(), "nsp-reliability-"));

beforeAll(async () => {
  // The request rate is not what is tested here; 429 storms are injected as faults instead.
  emulator = await startEmulatorProcess(["--rate-limit", "0"]);
  admin = emulator.control();
});

afterAll(async () => {
  for (const s of stacks) s.cleanup();
  await emulator?.stop();
  rmSync(results, { recursive: true, force: true });
});

/** A stack in an emulator account of its own, so that what it made can be counted exactly. */
async function newStack(program: string): Promise<{ stack: Stack; api: EmulatorControl }> {
  const token = await admin.addAccount(`reliability${stacks.length}`);
  const stack = await Stack.init(Stack.yamlProject(program), {
    env: { NSP_STATS_FILE: join(results, `stats-${stacks.length}.jsonl`) },
  });
  stacks.push(stack);
  // The emulator runs without a rate limit, so the plugin's own request budget is off too: after
  // an injected 429 it would otherwise pace the rest of the run at the API's documented 300 a
  // minute. The 429s themselves, and their Retry-After, are still honoured.
  await stack.useAccount(emulator.baseUrl, token, { "nsp:requestsPerMinute": "0" });
  return { stack, api: new EmulatorControl(emulator.baseUrl, token) };
}

/** What the plugins of a stack's runs did: requests, retries, 429s seen. */
function pluginStats(stack: Stack): { requests: number; retries: number; rateLimited: number } {
  const lines = readFileSync(join(results, `stats-${stacks.indexOf(stack)}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { requests: number; retries: number; rateLimited: number });
  return lines.reduce((a, b) => ({
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
    rateLimited: a.rateLimited + b.rateLimited,
  }));
}

const HEADER = `${Stack.yamlProgramHead("nsp-reliability")}resources:
`;

/** A zone and its A records host0..host{n-1}, with the given content for each. */
function zoneWithRecords(key: string, zoneName: string, contents: string[]): string {
  let out = `  ${key}:\n    type: nsp:dns:Zone\n    properties: { serviceId: "\${authDns[0].id}", name: ${zoneName} }\n`;
  contents.forEach((content, i) => {
    out += `  ${key}-r${i}:\n    type: nsp:dns:Record\n    properties: { zoneId: "\${${key}.id}", name: host${i}, type: A, content: ${content}, ttl: 300 }\n`;
  });
  return out;
}

/** 202 resources of eight types: zones, records, DNSSEC, transfer settings, CAs, ROAs, sites, rules. */
function mixedProgram(): string {
  let out = HEADER;
  for (let z = 0; z < 5; z++) {
    out += zoneWithRecords(
      `z${z}`,
      `z${z}.faults.example`,
      Array.from({ length: 30 }, (_, i) => `198.51.${z}.${i + 1}`),
    );
    out += `  z${z}-dnssec:\n    type: nsp:dns:ZoneDnssec\n    properties: { zoneId: "\${z${z}.id}", enabled: true }\n`;
    out +=
      `  z${z}-transfer:\n    type: nsp:dns:ZoneTransfer\n    properties: { zoneId: "\${z${z}.id}", ` +
      `allow: [192.0.2.${z + 1}], notify: [192.0.2.${z + 1}] }\n`;
  }
  for (let c = 0; c < 2; c++) {
    out += `  ca${c}:\n    type: nsp:rpki:Ca\n    properties: { handle: faults-ca-${c}, asns: [${64500 + c}] }\n`;
    for (let r = 0; r < 10; r++) {
      out +=
        `  ca${c}-roa${r}:\n    type: nsp:rpki:Roa\n    properties: { caId: "\${ca${c}.id}", asn: ` +
        `${64500 + c}, prefix: 10.${c}.${r}.0/24, maxLength: 24 }\n`;
    }
  }
  for (let s = 0; s < 5; s++) {
    out += `  site${s}:\n    type: nsp:cdn:Site\n    properties: { hostname: site${s}.faults-cdn.example, origin: 203.0.113.${s + 1}, forceHttps: true }\n`;
    for (let r = 0; r < 2; r++) {
      out +=
        `  site${s}-rule${r}:\n    type: nsp:security:Rule\n    properties: { siteId: "\${site${s}.id}", ` +
        `field: asn, op: in, value: AS${64600 + r}, action: block }\n`;
    }
  }
  return out;
}

interface StateResource {
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

async function stateResources(stack: Stack): Promise<StateResource[]> {
  return (await stack.exportState()).deployment.resources.filter((r) => r.type.startsWith("nsp:"));
}

interface Reconciliation {
  /** Server objects looked at. */
  checked: number;
  /** Server objects with the same identity as another (a create made twice), and ids the state holds twice. */
  duplicates: number;
  /** Server objects the state does not know. */
  orphans: number;
  /** State resources the server does not have. */
  missing: number;
}

/** Every server object of the account whose parent the stack made, counted against the state; asserts none doubled, orphaned or missing. */
async function serverMatchesState(stack: Stack, api: EmulatorControl): Promise<Reconciliation> {
  const state = await stateResources(stack);
  const tally: Reconciliation = { checked: 0, duplicates: 0, orphans: 0, missing: 0 };
  const compare = <T extends { id: number }>(type: string, objects: T[], identity: (o: T) => string): T[] => {
    const stateIds = state.filter((r) => r.type === type).map((r) => r.id!);
    const inState = new Set(stateIds);
    const onServer = new Set(objects.map((o) => String(o.id)));
    tally.checked += objects.length;
    tally.duplicates += objects.length - new Set(objects.map(identity)).size + stateIds.length - inState.size;
    tally.orphans += [...onServer].filter((id) => !inState.has(id)).length;
    tally.missing += [...inState].filter((id) => !onServer.has(id)).length;
    return objects;
  };
  const zones = compare("nsp:dns:Zone", await api.list<{ id: number; name: string }>("/dns/zones"), (z) => z.name);
  const records: { id: number; name: string; type: string; content: string; zone: number }[] = [];
  for (const z of zones)
    records.push(
      ...(
        await api.list<{ id: number; name: string; type: string; content: string }>(`/dns/zones/${z.id}/records`)
      ).map((r) => ({ ...r, zone: z.id })),
    );
  compare("nsp:dns:Record", records, (r) => `${r.zone} ${r.name} ${r.type} ${r.content}`);
  const cas = compare("nsp:rpki:Ca", await api.list<{ id: number; handle: string }>("/rpki/cas"), (c) => c.handle);
  const roas: { id: number; ca_id: number; asn: number; prefix: string }[] = [];
  for (const c of cas)
    roas.push(
      ...(await api.list<{ id: number; ca_id: number; asn: number; prefix: string }>(`/rpki/cas/${c.id}/roas`)),
    );
  compare("nsp:rpki:Roa", roas, (r) => `${r.ca_id} ${r.asn} ${r.prefix}`);
  const sites = (await api.list<{ id: number; hostname: string; dns_mode: string }>("/cdn/sites")).filter(
    (s) => s.dns_mode === "cname",
  );
  compare("nsp:cdn:Site", sites, (s) => s.hostname);
  compare(
    "nsp:security:Rule",
    await api.list<{ id: number; site_id: number; field: string; value: string }>("/security/rules"),
    (r) => `${r.site_id} ${r.field} ${r.value}`,
  );
  expect({ duplicates: tally.duplicates, orphans: tally.orphans, missing: tally.missing }).toEqual({
    duplicates: 0,
    orphans: 0,
    missing: 0,
  });
  return tally;
}

describe("with the real pulumi CLI", () => {
  it(
    "converges a 202-resource stack under 20% injected faults in at most one rerun of up, with no " +
      "duplicate, orphan or missing object",
    async () => {
      const { stack, api } = await newStack(mixedProgram());
      await api.resetStats();
      await api.setFaults({
        rate: 0.2,
        kinds: ["error5xx", "reset_before", "reset_after", "timeout", "rate_limit_storm", "latency"],
        status: 503,
        timeoutMs: 1500,
        latencyMs: 300,
        seed: 7,
      });
      // A fault can outlast a resource's retries, so the first up may fail; what it made must then
      // be in the state, so that the one rerun (itself under faults) finishes the job.
      const ups = [await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true })];
      if (ups[0]!.code !== 0) ups.push(await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true }));
      const reruns = ups.length - 1;
      expect(ups.at(-1)!.code, ups.at(-1)!.stdout + ups.at(-1)!.stderr).toBe(0);
      const { faults, total } = await api.stats();
      await api.clearFaults();
      const { checked, duplicates, orphans, missing } = await serverMatchesState(stack, api);
      expect((await stateResources(stack)).length).toBe(202);

      await api.setFaults({
        rate: 0.2,
        kinds: ["error5xx", "reset_before", "reset_after", "timeout", "rate_limit_storm", "latency"],
        status: 503,
        timeoutMs: 1500,
        latencyMs: 300,
        seed: 8,
      });
      await stack.preview(["--expect-no-changes"]);
      await api.clearFaults();

      const plugin = pluginStats(stack);
      const injected = Object.values(faults).reduce((a, b) => a + b, 0);
      const figures = {
        resources: 202,
        reruns,
        requestsServed: total,
        faultsInjected: injected,
        faults,
        pluginRequests: plugin.requests,
        retries: plugin.retries,
        rateLimitedSeen: plugin.rateLimited,
        serverObjectsChecked: checked,
        duplicates,
        orphans,
        missing,
      };
      console.log(`reliability figures: ${JSON.stringify(figures)}`);
      // About one request in five was hit (a fault's retry can be hit again).
      expect(injected / total).toBeGreaterThan(0.12);
      expect(plugin.retries).toBeGreaterThan(0);
      await stack.destroy();
    },
  );

  it("sends no mutating request during a preview with creates, updates and deletes", async () => {
    const { stack, api } = await newStack(
      HEADER +
        zoneWithRecords("z", "preview.example", ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4", "192.0.2.5"]),
    );
    await stack.up();
    // A new zone; the zone's settings and two records changed; one record gone.
    const after =
      HEADER +
      zoneWithRecords("z", "preview.example", ["192.0.2.1", "192.0.2.99", "192.0.2.3", "192.0.2.44"]).replace(
        "name: preview.example }",
        "name: preview.example, negativeTtl: 900 }",
      ) +
      zoneWithRecords("y", "preview-new.example", []);
    writeFileSync(join(stack.dir, "Pulumi.yaml"), Stack.yamlProgramText(after));
    await api.resetStats();
    const preview = await stack.preview();
    expect(preview.stdout).toMatch(/\+ 1 to create/);
    expect(preview.stdout).toMatch(/~ 3 to update/);
    expect(preview.stdout).toMatch(/- 1 to delete/);
    const stats = await api.stats();
    expect(stats.total).toBeGreaterThan(0); // it did read
    expect(stats.mutating).toBe(0);
    await stack.destroy();
  });

  it("creates 50 records of one zone in parallel, then updates all 50 in parallel, ending exactly as the program says", async () => {
    const contents = (n: number) => Array.from({ length: 50 }, (_, i) => `10.${n}.0.${i + 1}`);
    const { stack, api } = await newStack(HEADER + zoneWithRecords("z", "parallel.example", contents(1)));
    await stack.up(["--parallel", "64"]);
    writeFileSync(
      join(stack.dir, "Pulumi.yaml"),
      Stack.yamlProgramText(HEADER + zoneWithRecords("z", "parallel.example", contents(2))),
    );
    const second = await stack.up(["--parallel", "64"]);
    expect(second.stdout).toMatch(/~ 50 updated/);
    const zoneId = (await stateResources(stack)).find((r) => r.type === "nsp:dns:Zone")!.id!;
    const live = await api.list<{ name: string; type: string; content: string; ttl: number }>(
      `/dns/zones/${zoneId}/records`,
    );
    expect(live.map((r) => `${r.name} ${r.type} ${r.content} ${r.ttl}`).sort()).toEqual(
      contents(2)
        .map((c, i) => `host${i} A ${c} 300`)
        .sort(),
    );
    await stack.preview(["--expect-no-changes"]);
    await stack.destroy();
  });

  it("stops cleanly on Ctrl-C in the middle of the creates, and the next up converges with nothing lost or doubled", async () => {
    const contents = Array.from({ length: 40 }, (_, i) => `172.16.0.${i + 1}`);
    const { stack, api } = await newStack(HEADER + zoneWithRecords("z", "cancel.example", contents));
    // The emulator answers the first PASSED record creates and holds every later one unwritten
    // until the test lets it go: whenever the interrupt lands, exactly PASSED records exist and
    // the rest are still to make.
    const PASSED = 12;
    await api.resetStats();
    await api.setFaults({
      rate: 1,
      kinds: ["timeout"],
      timeoutMs: 3_600_000,
      methods: ["POST"],
      path: "/records$",
      after: PASSED,
    });
    const run = stack.start(["up", "--yes", "--skip-preview", "--parallel", "4"]);
    let output = "";
    for (const stream of [run.child.stdout!, run.child.stderr!])
      stream.on("data", (d: Buffer) => (output += d.toString()));
    let exited = false;
    const done = run.done.finally(() => (exited = true));
    await until(async () => ((await api.stats()).faults.timeout ?? 0) > 0);
    run.child.kill("SIGINT");
    await until(() => /cancel/i.test(output));
    // Interrupt seen: the held creates are dropped (the plugin finds them absent and, cancelled,
    // makes no other attempt; one it does make is held and dropped again), as a dead server's would.
    await until(async () => {
      await fetch(`${api.root}/_emulator/faults/release`, { method: "POST" });
      return exited;
    });
    const interrupted = await done;
    await api.clearFaults();
    expect(interrupted.code).not.toBe(0);
    expect(interrupted.stdout + interrupted.stderr).toMatch(/cancel/i);
    const partial = (await stateResources(stack)).filter((r) => r.type === "nsp:dns:Record").length;
    expect(partial).toBe(PASSED);
    await serverMatchesState(stack, api);

    await stack.up();
    await serverMatchesState(stack, api);
    const zoneId = (await stateResources(stack)).find((r) => r.type === "nsp:dns:Zone")!.id!;
    const live = await api.list<{ name: string }>(`/dns/zones/${zoneId}/records`);
    expect(live).toHaveLength(40);
    expect(new Set(live.map((r) => r.name)).size).toBe(40);
    console.log(
      `cancellation: ${partial} of 40 records were in the state after Ctrl-C; the next up made the other ${40 - partial}`,
    );
    await stack.destroy();
  });
});

describe("secrets", () => {
  it(
    "leave no plaintext token or one-time secret in the state, the plugin's stderr or error messages; the " +
      "verbose engine log has them only in the engine's own RPC dumps",
    async () => {
      // The token comes from the environment here, as pipelines pass it; the plugin reads it there,
      // so it never travels through the engine.
      const token = emulator.accounts.demo!;
      const stack = await Stack.init(prepareProject("yaml"), {
        env: { NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl, NSP_DEBUG: "1" },
      });
      stacks.push(stack);
      // The engine's most verbose log, with the plugin's stderr in it, for an up and a refresh.
      const verbose = ["-v=9", "--logtostderr", "--logflow"];
      const up = await stack.run(["up", "--yes", "--skip-preview", ...verbose]);
      const refresh = await stack.run(["refresh", "--yes", "--skip-preview", ...verbose]);
      expect(up.stderr.length).toBeGreaterThan(10_000);
      const tsigKey = (await stack.outputs(true)).tsigKey as string;
      expect(tsigKey.length).toBeGreaterThan(16);
      // An error from the API: a zone that already exists.
      await admin.post("/dns/zones", {
        service_id: (await admin.services()).find((s) => s.type === "auth_dns")!.id,
        name: "taken.example",
      });
      await stack.setConfig("zoneName", "taken.example");
      const failed = await stack.run(["up", "--yes", "--skip-preview", ...verbose], { allowFailure: true });
      expect(failed.code).not.toBe(0);
      expect(failed.stdout + failed.stderr).toMatch(/conflict/);

      const logs = [up, refresh, failed].map((r) => r.stdout + r.stderr).join("\n");
      const linesWith = (text: string, secret: string) => text.split("\n").filter((l) => l.includes(secret));
      const hits = {
        stateAndConfig: linesWith(stack.artefacts(), token).length + linesWith(stack.artefacts(), tsigKey).length,
        tokenInLogs: linesWith(logs, token).length,
        oneTimeSecretInLogs: linesWith(logs, tsigKey).length,
      };
      // Pulumi v3.259's engine prints every property it marshals at -v=9, secrets included
      // (sdk/go/common/resource/plugin/rpc.go, "Marshaling property for RPC"): a secret output must
      // reach the engine to be encrypted into the state. Nothing else may show it.
      const engineDumps = linesWith(logs, tsigKey).filter((l) => /(Un)?[Mm]arshaling property for RPC/.test(l));
      console.log(
        `plaintext hits: ${JSON.stringify(hits)}, of which in the engine's own RPC dumps: ${engineDumps.length} (scanned ${logs.length} characters of logs)`,
      );
      expect(hits.stateAndConfig).toBe(0);
      expect(hits.tokenInLogs).toBe(0);
      expect(linesWith(logs, tsigKey).length).toBe(engineDumps.length);
      await stack.setConfig("zoneName", "yaml.example");
      await stack.destroy();
    },
  );
});
