// One nsp:dns:ZoneRecords of 20,000 records through the real pulumi CLI against the emulator, in a
// zone that also holds a record made through the API: up, a no-change preview, a 5-record change,
// refresh, a 30% cut that maxDeletePercent refuses before any write; then the cut allowed, a change
// of 30% of the records' data and the resource's delete, each in bulk (ceil(N/page)+4 requests, the
// change 2·ceil(N/page)+4) with the outside record kept with its id; and a destroy whose
// ZoneRecords has `deletedWith` the zone, which sends the zone's delete and nothing for the records.
// Request counts come from the emulator.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorProcess, Stack, type EmulatorProcess } from "./harness/pulumi-cli";

const N = 20_000;
const PAGE = 500;
const MAX_READS = Math.ceil(N / PAGE) + 2;
/** The list, then the zone-file import with replace and its preview, with two to spare. */
const BULK_BOUND = Math.ceil(N / PAGE) + 4;
const OUTSIDE = { name: "outside", type: "TXT", content: "made through the API" };

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

interface ProgramOptions {
  maxDeletePercent?: number;
  /** The ZoneRecords is deleted with the zone (Pulumi's deletedWith, and the zone's forceDestroy): its own delete is skipped. */
  deletedWithZone?: boolean;
}

/** The program; without a list, the zone alone (the ZoneRecords removed, so `up` deletes it). */
function program(list: Rec[] | undefined, opts: ProgramOptions = {}): string {
  const lines = [
    "config:",
    "  svcId:",
    "    type: integer",
    "resources:",
    "  zone:",
    "    type: nsp:dns:Zone",
    // A zone holding records the program does not delete first is deleted only with forceDestroy.
    `    properties: { serviceId: "\${svcId}", name: large.example${opts.deletedWithZone ? ", forceDestroy: true" : ""} }`,
  ];
  if (list === undefined) return `${lines.join("\n")}\n`;
  lines.push(
    "  records:",
    "    type: nsp:dns:ZoneRecords",
    ...(opts.deletedWithZone ? ['    options: { deletedWith: "${zone}" }'] : []),
    "    properties:",
    '      zoneId: "${zone.id}"',
    ...(opts.maxDeletePercent === undefined ? [] : [`      maxDeletePercent: ${opts.maxDeletePercent}`]),
    "      records:",
    ...list.map(
      (r) => `        - { name: ${r.name}, type: ${r.type}, content: ${JSON.stringify(r.content)}, ttl: ${r.ttl} }`,
    ),
  );
  return `${lines.join("\n")}\n`;
}

const counted = async <T>(run: () => Promise<T>) => {
  const api = emulator.control();
  await api.resetStats();
  const result = await run();
  const s = await api.stats();
  return { result, reads: s.total - s.mutating, writes: s.mutating, total: s.total, byRoute: s.byRoute };
};

let dir = "";
let zoneId = 0;
let outsideId = 0;
/** The records at the end of the first test: its 30% cut refused. */
let current: Rec[] = [];
const rewrite = (list: Rec[] | undefined, opts?: ProgramOptions) =>
  writeFileSync(join(dir, "Main.yaml"), program(list, opts));
const live = () => emulator.control().list<Rec & { id: number }>(`/dns/zones/${zoneId}/records`);
/** The zone's records other than the outside one, after checking that one is there with its id. */
const owned = async () => {
  const all = await live();
  expect(all.find((r) => r.name === OUTSIDE.name)).toMatchObject({ ...OUTSIDE, id: outsideId });
  return all.filter((r) => r.id !== outsideId);
};

describe(`a ${N.toLocaleString("en")}-record zone as one nsp:dns:ZoneRecords`, () => {
  // Five pulumi commands over a 20,000-element property: most of their time is the engine's (the
  // plugin's part is bench P3's), and on a loaded machine they can outlast the suite's 5 minutes.
  it("goes up, previews no change, takes a 5-record change, refreshes, and refuses a 30% cut before writing", {
    timeout: 1_200_000,
  }, async () => {
    const api = emulator.control();
    const serviceId = (await api.services()).find((s) => s.type === "auth_dns")!.id;
    const all = records(N);
    dir = Stack.yamlProject(PROJECT);
    rewrite(all);
    stack = await Stack.init(dir);
    await stack.useAccount(emulator.baseUrl, api.token, { svcId: String(serviceId) });

    const up = await counted(() => stack!.up());
    zoneId = (await api.list<{ id: number; name: string }>("/dns/zones")).find((z) => z.name === "large.example")!.id;
    expect(await live()).toHaveLength(N);
    // A record the resource does not own, made through the API: every later step keeps it.
    outsideId = (await api.post<{ id: number }>(`/dns/zones/${zoneId}/records`, OUTSIDE)).id;
    // The zone's create, one list of the (empty) zone, and the records in imports of at most 512 KiB.
    expect(up.reads).toBeLessThanOrEqual(MAX_READS);
    expect(up.byRoute["POST /dns/zones/:id/import"]).toBeGreaterThanOrEqual(1);
    expect(up.byRoute["POST /dns/zones/:id/records"]).toBeUndefined();

    const preview = await counted(() => stack!.preview(["--expect-no-changes"]));
    expect(preview.writes).toBe(0);

    // Five TTLs change: five patches, or one import with replace and its preview.
    const changedAt = [0, 4001, 8002, 12003, 19999];
    const changed = all.map((r, i) => (changedAt.includes(i) ? { ...r, ttl: 120 } : r));
    rewrite(changed);
    const change = await counted(() => stack!.up());
    expect(change.reads).toBeLessThanOrEqual(MAX_READS);
    expect(change.writes).toBeGreaterThanOrEqual(1);
    expect(change.writes).toBeLessThanOrEqual(5);
    const after = await owned();
    expect(after).toHaveLength(N);
    expect(
      after
        .filter((r) => r.ttl === 120)
        .map((r) => r.name)
        .sort(),
    ).toEqual(changedAt.map((i) => all[i]!.name).sort());

    const refresh = await counted(() => stack!.refresh(["--expect-no-changes"]));
    expect(refresh.writes).toBe(0);
    expect(refresh.reads).toBeLessThanOrEqual(MAX_READS);

    // A 30% cut: refused by maxDeletePercent (20%) after one listing, before any write.
    rewrite(changed.slice(0, Math.floor(N * 0.7)));
    const cut = await counted(() => stack!.run(["up", "--yes", "--skip-preview"], { allowFailure: true }));
    expect(cut.result.code).not.toBe(0);
    expect(cut.result.stdout + cut.result.stderr).toMatch(
      /maxDeletePercent: this change would delete 6000 of the 20000 records .*\(30%\)/,
    );
    expect(cut.writes).toBe(0);
    expect(cut.reads).toBeLessThanOrEqual(MAX_READS);
    expect(await owned()).toHaveLength(N);
    current = changed;
  });

  it("cuts 30% when allowed, changes 30% of the data and deletes the resource in bulk, keeping the outside " +
    "record; with deletedWith a destroy deletes only the zone", {
    timeout: 1_200_000,
  }, async () => {
    expect(current).toHaveLength(N);
    const noRecordCalls = (byRoute: Record<string, number>) =>
      Object.keys(byRoute).filter((k) => /records\/:rid/.test(k));

    const kept = current.slice(0, Math.floor(N * 0.7));
    rewrite(kept, { maxDeletePercent: 30 });
    const cut = await counted(() => stack!.up());
    expect(cut.total).toBeLessThanOrEqual(BULK_BOUND);
    expect(noRecordCalls(cut.byRoute)).toEqual([]);
    expect((await owned()).length).toBe(kept.length);

    // The data of three records in ten changes: re-added by the import with replace.
    const changed = kept.map((r, i) =>
      i % 10 < 3 ? { ...r, content: r.type === "A" ? `10.200.${(i >> 8) & 255}.${i & 255}` : `v=changed${i}` } : r,
    );
    rewrite(changed, { maxDeletePercent: 30 });
    const change = await counted(() => stack!.up());
    expect(change.total).toBeLessThanOrEqual(2 * Math.ceil(N / PAGE) + 4);
    expect(noRecordCalls(change.byRoute)).toEqual([]);
    const liveContent = new Set((await owned()).map((r) => `${r.name} ${r.content}`));
    expect(liveContent.size).toBe(changed.length);
    expect(changed.every((r) => liveContent.has(`${r.name} ${r.content}`))).toBe(true);

    // The ZoneRecords leaves the program: its delete is one import whose text is the outside record.
    rewrite(undefined);
    const removed = await counted(() => stack!.up());
    expect(removed.total).toBeLessThanOrEqual(BULK_BOUND);
    expect(noRecordCalls(removed.byRoute)).toEqual([]);
    expect(await owned()).toEqual([]);

    // Records again, deleted with their zone (whose forceDestroy the same up sets): the destroy
    // sends the zone's delete and nothing for the records, which the zone's delete takes.
    rewrite(changed.slice(0, 1_000), { deletedWithZone: true });
    await stack!.up();
    expect(await owned()).toHaveLength(1_000);
    const destroy = await counted(() => stack!.destroy());
    expect(Object.keys(destroy.byRoute).filter((k) => /records|import/.test(k))).toEqual([]);
    expect(destroy.writes).toBe(1);
    expect(destroy.byRoute["DELETE /dns/zones/:id"]).toBe(1);
    expect((await emulator.control().list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain(
      "large.example",
    );
    process.stderr.write(
      `large-zone requests: 30% cut ${cut.total}, 30% data change ${change.total}, delete ` +
        `${removed.total} (bounds ${BULK_BOUND}, ${2 * Math.ceil(N / PAGE) + 4}, ${BULK_BOUND}); destroy ` +
        `with deletedWith ${destroy.total}\n`,
    );
  });
});
