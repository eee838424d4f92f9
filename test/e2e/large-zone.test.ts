// One nsp:dns:ZoneRecords of 20,000 records through the real pulumi CLI against the emulator: up,
// a no-change preview, a 5-record change, refresh, and a 30% cut that maxDeletePercent refuses
// before any write. Request counts come from the emulator: each command stays within
// ceil(N/page)+2 reads plus the writes its change needs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorProcess, Stack, type EmulatorProcess } from "./harness";

const N = 20_000;
const PAGE = 500;
const MAX_READS = Math.ceil(N / PAGE) + 2;

let emulator: EmulatorProcess;
let stack: Stack | undefined;

beforeAll(async () => {
  emulator = await startEmulatorProcess(["--rate-limit", "0"]);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

interface Rec {
  name: string;
  type: string;
  content: string;
  ttl: number;
}

function records(n: number): Rec[] {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? { name: `host${i}`, type: "A", content: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, ttl: 3600 }
      : { name: `txt${i}`, type: "TXT", content: `v=e2e${i}`, ttl: 300 },
  );
}

// The project file holds only the name and the plugin; the program is Main.yaml beside it, as
// Pulumi YAML allows. The CLI parses Pulumi.yaml (and checks it against its schema) on every
// command, even `stack init`: with 20,000 records in it, that alone is seconds of CPU per command.
const PROJECT = Stack.yamlPluginHead("nsp-large-zone");

function program(list: Rec[]): string {
  const lines = [
    "config:",
    "  svcId:",
    "    type: integer",
    "resources:",
    "  zone:",
    "    type: nsp:dns:Zone",
    '    properties: { serviceId: "${svcId}", name: large.example }',
    "  records:",
    "    type: nsp:dns:ZoneRecords",
    "    properties:",
    '      zoneId: "${zone.id}"',
    "      records:",
    ...list.map((r) => `        - { name: ${r.name}, type: ${r.type}, content: ${JSON.stringify(r.content)}, ttl: ${r.ttl} }`),
  ];
  return `${lines.join("\n")}\n`;
}

describe(`a ${N.toLocaleString("en")}-record zone as one nsp:dns:ZoneRecords`, () => {
  // Five pulumi commands over a 20,000-element property: most of their time is the engine's (the
  // plugin's part is bench P3's), and on a loaded machine they can outlast the suite's 5 minutes.
  it("goes up, previews no change, takes a 5-record change, refreshes, and refuses a 30% cut before writing", { timeout: 1_200_000 }, async () => {
    const api = emulator.control();
    const serviceId = (await api.services()).find((s) => s.type === "auth_dns")!.id;
    const all = records(N);
    const dir = Stack.yamlProject(PROJECT);
    const rewrite = (list: Rec[]) => writeFileSync(join(dir, "Main.yaml"), program(list));
    rewrite(all);
    stack = await Stack.init(dir);
    await stack.useAccount(emulator.baseUrl, api.token, { svcId: String(serviceId) });
    const counted = async <T>(run: () => Promise<T>) => {
      await api.resetStats();
      const result = await run();
      const s = await api.stats();
      return { result, reads: s.total - s.mutating, writes: s.mutating, byRoute: s.byRoute };
    };

    const up = await counted(() => stack!.up());
    const zoneId = (await api.list<{ id: number; name: string }>("/dns/zones")).find((z) => z.name === "large.example")!.id;
    const live = () => api.list<Rec & { id: number }>(`/dns/zones/${zoneId}/records`);
    expect(await live()).toHaveLength(N);
    // The zone's create, one list of the (empty) zone, and the records in imports of at most 512 KiB.
    expect(up.reads).toBeLessThanOrEqual(MAX_READS);
    expect(up.byRoute["POST /dns/zones/:id/import"]).toBeGreaterThanOrEqual(1);
    expect(up.byRoute["POST /dns/zones/:id/records"]).toBeUndefined();

    const preview = await counted(() => stack!.preview(["--expect-no-changes"]));
    expect(preview.writes).toBe(0);

    // Five TTLs change: five patches, or one import with replace when the whole zone fits one.
    const changedAt = [0, 4001, 8002, 12003, 19999];
    const changed = all.map((r, i) => (changedAt.includes(i) ? { ...r, ttl: 120 } : r));
    rewrite(changed);
    const change = await counted(() => stack!.up());
    expect(change.reads).toBeLessThanOrEqual(MAX_READS);
    expect(change.writes).toBeGreaterThanOrEqual(1);
    expect(change.writes).toBeLessThanOrEqual(5);
    const after = await live();
    expect(after).toHaveLength(N);
    expect(after.filter((r) => r.ttl === 120).map((r) => r.name).sort()).toEqual(changedAt.map((i) => all[i]!.name).sort());

    const refresh = await counted(() => stack!.refresh(["--expect-no-changes"]));
    expect(refresh.writes).toBe(0);
    expect(refresh.reads).toBeLessThanOrEqual(MAX_READS);

    // A 30% cut: refused by maxDeletePercent (20%) after one listing, before any write.
    rewrite(changed.slice(0, Math.floor(N * 0.7)));
    const cut = await counted(() => stack!.run(["up", "--yes", "--skip-preview"], { allowFailure: true }));
    expect(cut.result.code).not.toBe(0);
    expect(cut.result.stdout + cut.result.stderr).toMatch(/maxDeletePercent: this change would delete 6000 of the 20000 records .*\(30%\)/);
    expect(cut.writes).toBe(0);
    expect(cut.reads).toBeLessThanOrEqual(MAX_READS);
    expect(await live()).toHaveLength(N);
  });
});
