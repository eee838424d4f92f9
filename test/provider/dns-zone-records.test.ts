// nsp:dns:ZoneRecords through the built plugin binary over gRPC, against a live emulator; request
// counts come from the emulator's /_emulator/stats.
import { isDeepStrictEqual } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import { initFailure, secret, startPlugin } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ZR = "nsp:dns:ZoneRecords";
const RECORD = "nsp:dns:Record";

type Obj = Record<string, unknown>;
interface Rec {
  name: string;
  type: string;
  content: string;
  ttl: number;
}
interface ApiRecord extends Rec {
  id: number;
  enabled: boolean;
  proxied: boolean;
}

const token = `svc_${"cd34".repeat(8)}`;
const provider = useProvider({ emulator: { accounts: [{ name: "demo", token }] }, config: { requestsPerMinute: 0 } });
const { control, plugin, checked, anotherPlugin } = provider;
let serviceId: number;

beforeAll(async () => {
  // Rate limits off on both sides: the counts below are the requests themselves.
  serviceId = (await control.services()).find((s) => s.type === "auth_dns")!.id;
});

async function createZone(name: string): Promise<string> {
  return String((await control.post<{ id: number }>("/dns/zones", { service_id: serviceId, name })).id);
}

const apiRecords = (zoneId: string) => control.list<ApiRecord>(`/dns/zones/${zoneId}/records`);

/** `n` records of several types, written the sloppy ways a program may write them. */
function manyRecords(n: number): Obj[] {
  return Array.from({ length: n }, (_, i) => {
    switch (i % 5) {
      case 0:
        return { name: `Host${i}`, type: "A", content: `10.0.${Math.floor(i / 250)}.${i % 250}` };
      case 1:
        return { name: `host${i}`, type: "AAAA", content: `2001:DB8:0::${i.toString(16)}`, ttl: 600 };
      case 2:
        return { name: `alias${i}`, type: "CNAME", content: `Host${i - 2}.zr.example.` };
      case 3:
        return { name: `txt${i}`, type: "TXT", content: `"v=test${i}; spaces  kept"`, ttl: 300 };
      default:
        return { type: "MX", content: `${i}  mx${i}.example.net` };
    }
  });
}

async function requests<T>(run: () => Promise<T>): Promise<{
  result: T;
  total: number;
  mutating: number;
  byRoute: Record<string, number>;
  faults: Record<string, number>;
}> {
  await control.resetStats();
  const result = await run();
  const s = await control.stats();
  return { result, total: s.total, mutating: s.mutating, byRoute: s.byRoute, faults: s.faults };
}

describe("nsp:dns:ZoneRecords over gRPC", () => {
  it("refuses to delete more than maxDeletePercent of its records unless the program raises it", async () => {
    const zoneId = await createZone("guard.example");
    const program = Array.from({ length: 30 }, (_, i) => ({ name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` }));
    const inputs = await checked(ZR, { zoneId, records: program });
    const created = await plugin.create(ZR, "guard", inputs);

    const shrunk = await checked(ZR, { zoneId, records: program.slice(0, 10) });
    const refused = await requests(() =>
      plugin.update(ZR, "guard", zoneId, created.properties, shrunk, false, inputs).catch((e: Error) => e),
    );
    expect(refused.result).toBeInstanceOf(Error);
    expect(String((refused.result as Error).message)).toMatch(
      /maxDeletePercent: this change would delete 20 of the 30 records .*\(67%\).*more than maxDeletePercent \(20%\)/,
    );
    expect(refused.mutating).toBe(0);
    expect(await apiRecords(zoneId)).toHaveLength(30);

    const allowed = await checked(ZR, { zoneId, records: program.slice(0, 10), maxDeletePercent: 70 });
    const upd = await requests(() => plugin.update(ZR, "guard", zoneId, created.properties, allowed, false, inputs));
    // The list, then the import with replace and its preview.
    expect(upd.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 });
    expect(await apiRecords(zoneId)).toHaveLength(10);

    // Only the threshold changes: the provider's own setting, nothing is sent.
    const lowered = await checked(ZR, { zoneId, records: program.slice(0, 10), maxDeletePercent: 5 });
    const d = await plugin.diff(ZR, "guard", zoneId, upd.result, lowered, allowed);
    expect(d.diffs).toEqual(["maxDeletePercent"]);
    expect((await requests(() => plugin.update(ZR, "guard", zoneId, upd.result, lowered, false, allowed))).total).toBe(
      0,
    );

    // A create that adopts existing records of its sets is guarded too.
    const zone2 = await createZone("guard2.example");
    for (let i = 0; i < 12; i++)
      await control.post(`/dns/zones/${zone2}/records`, { name: "www", type: "A", content: `198.51.100.${i + 1}` });
    const adopt = await checked(ZR, { zoneId: zone2, records: [{ name: "www", type: "A", content: "198.51.100.1" }] });
    await expect(plugin.create(ZR, "adopt", adopt)).rejects.toThrow(/delete 11 of the 12 records/);
    const adopted = await plugin.create(ZR, "adopt", { ...adopt, maxDeletePercent: 100 });
    expect((await plugin.read(ZR, "adopt", zone2, adopted.properties, adopt)).properties.records).toEqual(
      adopt.records,
    );
    expect(await apiRecords(zone2)).toHaveLength(1);
    await control.delete(`/dns/zones/${zoneId}`);
    await control.delete(`/dns/zones/${zone2}`);
  });

  it("sees drift made through the API on Read, and repairs it without touching other records", async () => {
    const zoneId = await createZone("drift.example");
    const program = [
      { name: "www", type: "A", content: "192.0.2.1" },
      { name: "www", type: "A", content: "192.0.2.2" },
      { type: "MX", content: "10 mx.drift.example" },
      { type: "TXT", content: "v=spf1 -all" },
      { name: "ftp", type: "CNAME", content: "www.drift.example" },
    ];
    const inputs = await checked(ZR, { zoneId, records: program });
    const created = await plugin.create(ZR, "drift", inputs);
    const byContent = async (content: string) => (await apiRecords(zoneId)).find((r) => r.content === content)!;

    // Changed, added to an owned set, deleted; and a record of a set the resource does not own.
    await control.patch(`/dns/zones/${zoneId}/records/${(await byContent("192.0.2.1")).id}`, { ttl: 120 });
    await control.post(`/dns/zones/${zoneId}/records`, { name: "www", type: "A", content: "192.0.2.3" });
    await control.delete(`/dns/zones/${zoneId}/records/${(await byContent("v=spf1 -all")).id}`);
    const foreign = await control.post<ApiRecord>(`/dns/zones/${zoneId}/records`, {
      name: "other",
      type: "A",
      content: "192.0.2.9",
    });

    const refreshed = await plugin.read(ZR, "drift", zoneId, created.properties, inputs);
    expect(refreshed.properties.records).toEqual([
      { name: "@", type: "MX", content: "10 mx.drift.example", ttl: 3600 },
      { name: "ftp", type: "CNAME", content: "www.drift.example", ttl: 3600 },
      { name: "www", type: "A", content: "192.0.2.1", ttl: 120 },
      { name: "www", type: "A", content: "192.0.2.2", ttl: 3600 },
      { name: "www", type: "A", content: "192.0.2.3", ttl: 3600 },
    ]);
    expect(refreshed.properties.recordSets).toEqual(["@ MX", "ftp CNAME", "www A"]);
    expect(refreshed.inputs.records).toEqual(refreshed.properties.records);
    const d = await plugin.diff(ZR, "drift", zoneId, refreshed.properties, inputs, refreshed.inputs);
    expect(d).toMatchObject({ changes: true, diffs: ["records"] });

    // The repair (a TTL back, a record deleted, one added) is one import with replace after its
    // preview; the foreign record is in the text, so it keeps its id.
    const repair = await requests(() =>
      plugin.update(ZR, "drift", zoneId, refreshed.properties, inputs, false, refreshed.inputs),
    );
    expect(repair.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 });
    expect((await plugin.read(ZR, "drift", zoneId, repair.result, inputs)).properties.records).toEqual(inputs.records);
    expect((await apiRecords(zoneId)).find((r) => r.name === "other")).toMatchObject({
      id: foreign.id,
      content: "192.0.2.9",
    });

    // What the zone file does not carry is left alone: a proxied record stays proxied, and a
    // disabled record (not served, so not exported) is enabled again rather than duplicated.
    const www1 = await byContent("192.0.2.1");
    await control.patch(`/dns/zones/${zoneId}/records/${www1.id}`, { proxied: true });
    await control.patch(`/dns/zones/${zoneId}/records/${(await byContent("192.0.2.2")).id}`, { enabled: false });
    const seen = await plugin.read(ZR, "drift", zoneId, repair.result, inputs);
    expect((seen.properties.records as Rec[]).map((r) => r.content)).not.toContain("192.0.2.2");
    const fix = await requests(() => plugin.update(ZR, "drift", zoneId, seen.properties, inputs, false, seen.inputs));
    expect(fix.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "PATCH /dns/zones/:id/records/:rid": 1 });
    const live = await apiRecords(zoneId);
    expect(live.filter((r) => r.content === "192.0.2.2")).toHaveLength(1);
    expect(live.find((r) => r.id === www1.id)).toMatchObject({ proxied: true });
    expect((await plugin.read(ZR, "drift", zoneId, fix.result, inputs)).properties.records).toEqual(inputs.records);

    // Delete with another record in the zone: an import with replace whose text is that record alone.
    const del = await requests(() => plugin.delete(ZR, "drift", zoneId, fix.result));
    expect(del.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 });
    expect((await apiRecords(zoneId)).map((r) => r.id)).toEqual([foreign.id]);

    // The zone deleted through the API: Read reports the resource gone.
    await control.delete(`/dns/zones/${zoneId}`);
    expect((await plugin.read(ZR, "drift", zoneId, fix.result, inputs)).id).toBe("");
  });

  it("cuts and changes many records in bulk beside records it does not own, patching those with API-only attributes", async () => {
    const zoneId = await createZone("bulk.example");
    const outside = await control.post<ApiRecord>(`/dns/zones/${zoneId}/records`, {
      name: "outside",
      type: "TXT",
      content: "made through the API",
      weight: 5,
    });
    const program = Array.from({ length: 20 }, (_, i) => ({ name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` }));
    const inputs = await checked(ZR, { zoneId, records: program });
    const created = await plugin.create(ZR, "bulk", inputs);
    const byName = async () => new Map((await apiRecords(zoneId)).map((r) => [r.name, r]));
    const proxied = (await byName()).get("h0")!;
    await control.patch(`/dns/zones/${zoneId}/records/${proxied.id}`, { proxied: true });

    // Six records cut, six records' data changed (h0 among them, proxied): the list, the preview,
    // the import with replace and one patch, where record calls would take twelve.
    const cutAndChanged = program.slice(0, 14).map((r, i) => (i < 6 ? { ...r, content: `198.51.100.${i + 1}` } : r));
    const news = await checked(ZR, { zoneId, records: cutAndChanged, maxDeletePercent: 30 });
    const upd = await requests(() => plugin.update(ZR, "bulk", zoneId, created.properties, news, false, inputs));
    expect(upd.byRoute).toEqual({
      "GET /dns/zones/:id/records": 1,
      "POST /dns/zones/:id/import": 2,
      "PATCH /dns/zones/:id/records/:rid": 1,
    });
    const after = await byName();
    expect(after.get("outside")).toMatchObject({ id: outside.id, weight: 5, content: "made through the API" });
    expect(after.get("h0")).toMatchObject({ id: proxied.id, proxied: true, content: "198.51.100.1" });
    expect((await plugin.read(ZR, "bulk", zoneId, upd.result, news)).properties.records).toEqual(news.records);

    // Deleting the resource: one import whose text is the outside record alone.
    const del = await requests(() => plugin.delete(ZR, "bulk", zoneId, upd.result));
    expect(del.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 });
    expect(await apiRecords(zoneId)).toEqual([expect.objectContaining({ id: outside.id, weight: 5 })]);
    await control.delete(`/dns/zones/${zoneId}`);
  });

  it("goes record by record, and says how long that takes, when the import's preview shows replace doing something else", async () => {
    const zoneId = await createZone("rewrite.example");
    const outside = await control.post<ApiRecord>(`/dns/zones/${zoneId}/records`, {
      name: "outside",
      type: "A",
      content: "198.51.100.9",
    });
    const program = Array.from({ length: 20 }, (_, i) => ({ name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` }));
    const paced = await anotherPlugin({ requestsPerMinute: 300 });
    const inputs = await checked(ZR, { zoneId, records: program });
    const created = await paced.create(ZR, "rewrite", inputs);
    // An API whose replace deletes every record and adds every line anew would give the outside
    // record a new id; the preview says so (two added where one was meant), and nothing is imported.
    await control.setAlternatives(["replace-rewrites"]);
    try {
      const cut = await checked(ZR, {
        zoneId,
        records: program.slice(0, 15).concat([{ name: "new", type: "A", content: "192.0.2.99" }]),
        maxDeletePercent: 30,
      });
      const upd = await requests(() => paced.update(ZR, "rewrite", zoneId, created.properties, cut, false, inputs));
      expect(upd.byRoute).toEqual({
        "GET /dns/zones/:id/records": 1,
        "POST /dns/zones/:id/import": 2,
        "DELETE /dns/zones/:id/records/:rid": 5,
      });
      expect(paced.engineLogs.join("\n")).toMatch(
        /zone \d+: the preview of the zone-file import with replace says it would add 17, keep 0, delete 21 where this change needs add 1, keep 16, delete 5; nothing was imported, and the change goes one request per record instead: 6 requests, about 2 seconds at requestsPerMinute 300/,
      );
      expect((await apiRecords(zoneId)).find((r) => r.name === "outside")).toMatchObject({ id: outside.id });
      expect((await paced.read(ZR, "rewrite", zoneId, upd.result, cut)).properties.records).toEqual(cut.records);
      // The delete takes the same way: one request per record, and the outside record stays.
      const del = await requests(() => paced.delete(ZR, "rewrite", zoneId, upd.result));
      expect(del.byRoute).toEqual({
        "GET /dns/zones/:id/records": 1,
        "POST /dns/zones/:id/import": 1,
        "DELETE /dns/zones/:id/records/:rid": 16,
      });
      expect((await apiRecords(zoneId)).map((r) => r.id)).toEqual([outside.id]);
    } finally {
      await control.setAlternatives([]);
    }
    await control.delete(`/dns/zones/${zoneId}`);
  });

  it("finishes a change whose answer was lost, without adding records twice", async () => {
    const zoneId = await createZone("lost.example");
    const inputs = await checked(ZR, {
      zoneId,
      records: Array.from({ length: 5 }, (_, i) => ({ name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` })),
    });
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/import$", count: 1 });
    try {
      const created = await requests(() => plugin.create(ZR, "lost", inputs));
      expect(created.result.properties.records).toEqual(inputs.records);
      // The import was applied but its answer lost; the second round lists the zone and finds nothing left to do.
      expect(created.byRoute).toEqual({ "GET /dns/zones/:id/records": 2, "POST /dns/zones/:id/import": 1 });
      expect(created.faults).toEqual({ reset_after: 1 });
    } finally {
      await control.clearFaults();
    }
    expect(await apiRecords(zoneId)).toHaveLength(5);
    await control.delete(`/dns/zones/${zoneId}`);
  });

  it("keeps in the state the patches an update sent before it failed half-way, so the next update sends only the rest", async () => {
    const zoneId = await createZone("halfway.example");
    await control.post(`/dns/zones/${zoneId}/records`, { name: "other", type: "A", content: "198.51.100.1" });
    const program = Array.from({ length: 8 }, (_, i) => ({ name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` }));
    const inputs = await checked(ZR, { zoneId, records: program });
    const created = await plugin.create(ZR, "halfway", inputs);
    // Proxied records keep their proxy only when patched: the change goes record by record.
    for (const r of await apiRecords(zoneId))
      if (r.name !== "other") await control.patch(`/dns/zones/${zoneId}/records/${r.id}`, { proxied: true });
    const changed = await checked(ZR, { zoneId, records: program.map((r) => ({ ...r, ttl: 120 })) });

    // The records are patched in order, h0 to h7, and the sixth PATCH always fails. The client does
    // not retry here; a 5xx may have been applied, so each of the three rounds reads the zone again
    // and finds h5 still to do.
    const sixth = (await apiRecords(zoneId)).find((r) => r.name === "h5")!;
    const noRetries = await startPlugin();
    let partial: ReturnType<typeof initFailure>;
    try {
      await noRetries.configure({
        apiToken: secret(provider.emulator.token),
        baseUrl: provider.emulator.baseUrl,
        requestsPerMinute: 0,
        maxRetries: 0,
      });
      await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["PATCH"], path: `/records/${sixth.id}$` });
      const failed = await requests(() =>
        noRetries.update(ZR, "halfway", zoneId, created.properties, changed, false, inputs).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        ),
      );
      expect(failed.byRoute).toEqual({ "GET /dns/zones/:id/records": 3, "PATCH /dns/zones/:id/records/:rid": 5 + 3 });
      expect(failed.faults).toEqual({ error5xx: 3 });
      partial = initFailure(failed.result!);
    } finally {
      await control.clearFaults();
      await noRetries.stop();
    }
    // The partial state the engine keeps: the five records patched, the other three as they were.
    expect(partial.id).toBe(zoneId);
    expect(partial.reasons[0]).toMatch(/zone \d+: 5 change request\(s\) went through before this failure/);
    expect(partial.properties.records).toEqual(
      (inputs.records as Rec[]).map((r, i) => ({ ...r, ttl: i < 5 ? 120 : r.ttl })),
    );
    expect(partial.properties.maxDeletePercent).toBe(20);

    // The next up diffs the program against that state: three records to change, and only their PATCHes are sent.
    const d = await plugin.diff(ZR, "halfway", zoneId, partial.properties, changed, changed);
    expect(Object.keys(d.detailed).sort()).toEqual(["records[5]", "records[6]", "records[7]"]);
    const next = await requests(() =>
      plugin.update(ZR, "halfway", zoneId, partial.properties, changed, false, changed),
    );
    expect(next.byRoute).toEqual({ "GET /dns/zones/:id/records": 1, "PATCH /dns/zones/:id/records/:rid": 3 });
    expect((await apiRecords(zoneId)).filter((r) => r.name !== "other").map((r) => r.ttl)).toEqual(Array(8).fill(120));
    await control.delete(`/dns/zones/${zoneId}`);
  });

  it("refuses a zone file of another zone before any write, and turns a list into a zone file without a write", async () => {
    const zoneId = await createZone("switch.example");
    const records = [ok, { type: "MX", content: "10 mx.example.net" }];
    const listed = await checked(ZR, { zoneId, records });
    const created = await plugin.create(ZR, "switch", listed);

    const other = await checked(ZR, { zoneId, zoneFile: "$ORIGIN other.example.\nwww 3600 IN A 192.0.2.1\n" });
    const refused = await requests(() =>
      plugin.update(ZR, "switch", zoneId, created.properties, other, false, listed).catch((e: Error) => e),
    );
    expect(String(refused.result)).toMatch(
      /zoneFile: its \$ORIGIN other\.example\. is not the name of zone \d+ \(switch\.example\.\)/,
    );
    expect(refused.mutating).toBe(0);

    // The same records as a file: a change of form, which lists the zone, finds nothing to do, and keeps the form.
    const asFile = await checked(ZR, {
      zoneId,
      zoneFile: "$ORIGIN switch.example.\n@ IN MX 10 mx.example.net.\nwww IN A 192.0.2.1\n",
    });
    expect((await plugin.diff(ZR, "switch", zoneId, created.properties, asFile, listed)).diffs.sort()).toEqual([
      "records",
      "zoneFile",
    ]);
    const switched = await requests(() =>
      plugin.update(ZR, "switch", zoneId, created.properties, asFile, false, listed),
    );
    expect(switched.byRoute).toEqual({ "GET /dns/zones/:id": 1, "GET /dns/zones/:id/records": 1 });
    expect(switched.result.zoneFile).toBe(asFile.zoneFile);
    expect(switched.result.records).toBeUndefined();
    const refreshed = await plugin.read(ZR, "switch", zoneId, switched.result, asFile);
    expect(refreshed.properties.zoneFile).toBe(
      "$ORIGIN switch.example.\n@ 3600 IN MX 10 mx.example.net.\nwww 3600 IN A 192.0.2.1\n",
    );
    expect(refreshed.inputs).toEqual(asFile);

    // A record added through the API to an owned set is drift the file shows, and the next update deletes it.
    await control.post(`/dns/zones/${zoneId}/records`, { name: "www", type: "A", content: "192.0.2.99" });
    const drifted = await plugin.read(ZR, "switch", zoneId, refreshed.properties, asFile);
    expect(drifted.inputs.zoneFile).toMatch(/www 3600 IN A 192\.0\.2\.99\n/);
    expect((await plugin.diff(ZR, "switch", zoneId, drifted.properties, asFile, drifted.inputs)).diffs).toEqual([
      "zoneFile",
    ]);
    await plugin.update(ZR, "switch", zoneId, drifted.properties, asFile, false, drifted.inputs);
    expect((await apiRecords(zoneId)).map((r) => r.content).sort()).toEqual(["10 mx.example.net", "192.0.2.1"]);
    await control.delete(`/dns/zones/${zoneId}`);
  });

  it("names the record a duplicate repeats, and only that record", async () => {
    const ok = { name: "www", type: "A", content: "192.0.2.1" };
    const { failures } = await plugin.check(ZR, "bad", {
      zoneId: "1",
      records: [ok, { name: "x", type: "A", content: "192.0.2.2" }, { ...ok, name: "WWW", ttl: 60 }],
    });
    expect(failures.map((f) => f.property)).toEqual(["records[2]"]);
    expect(failures[0]!.reason).toMatch(/duplicates records\[0\] \(www A 192\.0\.2\.1\)/);
  });
});

const ok = { name: "www", type: "A", content: "192.0.2.1" };
let rowZones = 0;

/** A list of exactly `n` elements with these among them, in whatever order Check keeps. */
const holding = (n: number, items: Obj[]) =>
  expect.toSatisfy(
    (list: Obj[]) => list.length === n && items.every((item) => list.some((x) => isDeepStrictEqual(x, item))),
    `${n} records with the ${items.length} given among them`,
  );

const program = manyRecords(200);
// Two added, two changed, two removed.
const changedProgram = program
  .filter((r) => r.name !== "Host0" && r.name !== "txt3")
  .map((r) => (r.name === "Host5" ? { ...r, content: "10.0.0.255" } : r.name === "txt8" ? { ...r, ttl: 120 } : r))
  .concat([
    { name: "new1", type: "A", content: "192.0.2.1" },
    { name: "new2", type: "TXT", content: "hello" },
  ]);
const apiRecordAsChecked = { name: "api", type: "A", content: "198.51.100.7", ttl: 3600 };
// Another resource's record in the zone, for a name the list does not have.
let apiRecord: { id: string; properties: Obj; inputs: Obj } | undefined;

lifecycle(provider, [
  {
    type: ZR,
    create: async () => ({ zoneId: await createZone("zr.example"), records: program }),
    // Check canonicalises and sorts: the order in the program does not matter.
    checkedAs: (given) => ({
      zoneId: given.zoneId,
      maxDeletePercent: 20,
      records: holding(200, [
        { name: "host0", type: "A", content: "10.0.0.0", ttl: 3600 },
        { name: "host1", type: "AAAA", content: "2001:db8::1", ttl: 600 },
        { name: "alias2", type: "CNAME", content: "host0.zr.example", ttl: 3600 },
        { name: "txt3", type: "TXT", content: "v=test3; spaces  kept", ttl: 300 },
        { name: "@", type: "MX", content: "4 mx4.example.net", ttl: 3600 },
      ]),
    }),
    checkedSame: { records: [...program].reverse() },
    unknownOutput: "recordSets",
    // A handful of requests for 200 records: one list (for ids and what is there) and one import; a Read is one export.
    createRequests: { "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 1 },
    readRequests: { "GET /dns/zones/:id/export": 1 },
    idPattern: (inputs) => inputs.zoneId,
    outputs: { recordSets: expect.arrayContaining(["@ MX"]) },
    stableReads: true,
    afterCreate: async ({ id }) => expect(await apiRecords(id)).toHaveLength(200),
    update: [
      // One import with replace, after the list and the import's preview.
      {
        inputs: { records: changedProgram },
        requests: { "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 },
      },
      {
        // With another resource's record in the zone the import with replace still does it: that
        // record is a line of the text, and stays as it was.
        before: async ({ inputs }) => {
          const apiInputs = await checked(RECORD, {
            zoneId: inputs.zoneId,
            name: "api",
            type: "A",
            content: "198.51.100.7",
          });
          apiRecord = { ...(await plugin.create(RECORD, "api", apiInputs)), inputs: apiInputs };
        },
        inputs: {
          records: changedProgram
            .filter((r) => r.name !== "Host10")
            .map((r) => (r.name === "host1" ? { ...r, ttl: 60 } : r))
            .concat([{ name: "new3", type: "A", content: "192.0.2.3" }]),
        },
        requests: { "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 },
        after: async () =>
          expect(
            (await plugin.read(RECORD, "api", apiRecord!.id, apiRecord!.properties, apiRecord!.inputs)).properties,
          ).toEqual(apiRecord!.properties),
      },
    ],
    replace: { zoneId: "999999" },
    // Import by zone id adopts every record the zone serves, the other resource's too.
    imported: (inputs) => ({ zoneId: inputs.zoneId, records: holding(201, [...inputs.records, apiRecordAsChecked]) }),
    importAdopts: ["records"],
    importRequests: { "GET /dns/zones/:id/export": 1 },
    // A scoped id adopts only some sets, and keeps that id, which the zone's id is not: generated programs refer to the zone.
    moreImports: (inputs, id) => [
      [
        `${id}/api:A,new1`,
        {
          zoneId: inputs.zoneId,
          records: [apiRecordAsChecked, { name: "new1", type: "A", content: "192.0.2.1", ttl: 3600 }],
        },
      ],
    ],
    badImportIds: () => [["zr.example", /must be a zone id/]],
    apiPath: (_inputs, id) => `/dns/zones/${id}`,
    // Without the other record, the delete clears the zone with one import of empty text.
    beforeDelete: () => plugin.delete(RECORD, "api", apiRecord!.id, apiRecord!.properties),
    deleteRequests: { "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 2 },
    afterDelete: async ({ id }) => expect(await apiRecords(id)).toEqual([]),
    readAfterDelete: { records: [] },
    skip: {
      delete: "the zone stays, and a Read finds it with none of the records",
      drift: "the row below, and the drift test above",
      bad: "the row below",
    },
  },
  {
    type: ZR,
    create: async () => ({
      zoneId: await createZone(`lc${++rowZones}.example`),
      records: [ok, { type: "MX", content: "10 mx.example.net" }],
    }),
    unknownOutput: "recordSets",
    // Records as Check writes them: sorted, with the default TTL.
    update: {
      records: [
        { name: "@", type: "MX", content: "10 mx.example.net", ttl: 3600 },
        { name: "www", type: "A", content: "192.0.2.2", ttl: 3600 },
        { name: "www", type: "TXT", content: "hello", ttl: 300 },
      ],
    },
    replace: { zoneId: "999999" },
    // The zone itself: the drift test deletes it, which takes the records with it.
    apiPath: (_inputs, id) => `/dns/zones/${id}`,
    exists: async (inputs) => (await apiRecords(inputs.zoneId)).length > 0,
    readAfterDelete: { records: [] },
    bad: [
      [{ zoneId: "1", records: [ok, { ...ok, content: "not-an-ip" }] }, "records[1].content"],
      [{ zoneId: "1", records: [{ ...ok, ttl: 30 }] }, "records[0].ttl"],
      [{ zoneId: "1", records: [{ ...ok, name: "my host" }] }, "records[0].name"],
      [{ zoneId: "1", records: [{ ...ok, type: "SPF" }] }, "records[0].type"],
      [{ zoneId: "1", records: [{ type: "NS", content: "ns1.example.net" }] }, "records[0].name"],
      [{ zoneId: "1", records: [{ type: "TXT", content: "two\nlines" }] }, "records[0].content"],
      [{ zoneId: "1", records: [ok, { type: "MX", content: "mail.example.com" }] }, "records[1].content"],
      [{ zoneId: "1", records: [ok], maxDeletePercent: 150 }, "maxDeletePercent"],
      [{ zoneId: "zone", records: [ok] }, "zoneId"],
      [{ zoneId: "1" }, "records"],
    ],
    skip: {
      delete:
        "the zone stays, and a Read finds it with none of the records (the row above checks what the delete removes)",
      "drift edit":
        "an edit through the API is of one record, by an id the row cannot name; the drift test above edits, " +
        "adds and deletes records",
    },
  },
  {
    type: ZR,
    create: async () => ({ zoneId: await createZone("zonefile.example"), zoneFile: zoneFileOf("zonefile.example") }),
    // The text is kept as the program wrote it; the records it holds are what is compared.
    checkedAs: (given) => ({ zoneId: given.zoneId, maxDeletePercent: 20, zoneFile: given.zoneFile }),
    // The same records reordered, absolute and without the service's lines or comments: no change.
    equivalent: {
      zoneFile: [
        "$ORIGIN zonefile.example.",
        "zonefile.example. 300 IN TXT v=spf1 -all",
        "ftp.zonefile.example. 600 IN CNAME www.zonefile.example.",
        "www 300 IN A 192.0.2.2",
        "@ 3600 IN MX 10 MX.example.net.",
        "www 300 IN A 192.0.2.1",
      ].join("\n"),
    },
    unknownOutput: "recordSets",
    // The zone's name for the file's $ORIGIN, the list and one import.
    createRequests: { "GET /dns/zones/:id": 1, "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 1 },
    readRequests: { "GET /dns/zones/:id/export": 1 },
    idPattern: (inputs) => inputs.zoneId,
    outputs: { recordSets: ["@ MX", "@ TXT", "ftp CNAME", "www A"] },
    afterCreate: async ({ id, state }) => {
      expect((await apiRecords(id)).map((r) => `${r.name} ${r.type} ${r.content} ${r.ttl}`).sort()).toEqual([
        "@ MX 10 mx.example.net 3600",
        "@ TXT v=spf1 -all 300",
        "ftp CNAME www.zonefile.example 600",
        "www A 192.0.2.1 300",
        "www A 192.0.2.2 300",
      ]);
      // A Read gives the zone's file in canonical form, which is the program's text to the engine.
      const read = await plugin.read(ZR, "zf", id, state, { zoneId: id, zoneFile: state.zoneFile });
      expect(read.properties.records).toBeUndefined();
      expect(read.properties.zoneFile).toBe(
        [
          "$ORIGIN zonefile.example.",
          "@ 3600 IN MX 10 mx.example.net.",
          '@ 300 IN TXT "v=spf1 -all"',
          "ftp 600 IN CNAME www.zonefile.example.",
          "www 300 IN A 192.0.2.1",
          "www 300 IN A 192.0.2.2",
          "",
        ].join("\n"),
      );
      expect(read.inputs.zoneFile).toBe(state.zoneFile);
    },
    update: [
      {
        inputs: { zoneFile: `${zoneFileOf("zonefile.example")}new 300 IN AAAA 2001:db8::1\n` },
        requests: { "GET /dns/zones/:id": 1, "GET /dns/zones/:id/records": 1, "POST /dns/zones/:id/import": 1 },
        outputs: { recordSets: ["@ MX", "@ TXT", "ftp CNAME", "new AAAA", "www A"] },
      },
    ],
    replace: { zoneId: "999999" },
    apiPath: (_inputs, id) => `/dns/zones/${id}`,
    exists: async (inputs) => (await apiRecords(inputs.zoneId)).length > 0,
    readAfterDelete: { zoneFile: "$ORIGIN zonefile.example.\n" },
    // The zone goes too, so that the drift walk can make its zone of the same name.
    afterDelete: ({ id }) => control.delete(`/dns/zones/${id}`),
    bad: [
      [{ zoneId: "1", zoneFile: "www 300 IN A 192.0.2.1\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\nwww 300 IN A not-an-ip\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\nwww 30 IN A 192.0.2.1\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: '$ORIGIN a.example.\nwww 300 IN SPF "v=spf1"\n' }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\nwww.b.example. 300 IN A 192.0.2.1\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\nwww 300 IN A 192.0.2.1\nwww 600 IN A 192.0.2.1\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\n$INCLUDE other.zone\n" }, "zoneFile"],
      [{ zoneId: "1", zoneFile: "$ORIGIN a.example.\nwww 300 IN A 192.0.2.1\n", records: [ok] }, "zoneFile"],
    ],
    skip: {
      import:
        "an import by id writes a records list (the rows above); nsp-discover writes a large zone as " +
        "zoneFile, which test/provider/discover.test.ts imports",
      delete:
        "the zone stays, and a Read finds it with none of the records (the first row checks what the delete removes)",
      "drift edit":
        "an edit through the API is of one record, by an id the row cannot name; the drift test above edits, " +
        "adds and deletes records",
    },
  },
]);

/** A zone file as a person writes one: comments, the SOA and apex NS it ignores, relative names and a $TTL. */
function zoneFileOf(zone: string): string {
  return [
    `$ORIGIN ${zone}.`,
    "$TTL 300",
    `@   IN SOA ns1.old.example. hostmaster.${zone}. ( 2024010101 7200 3600 1209600 3600 )`,
    "@   IN NS  ns1.old.example.",
    "www IN A 192.0.2.1  ; the web server",
    "www IN A 192.0.2.2",
    "ftp 600 IN CNAME www",
    "@   3600 IN MX 10 mx.example.net.",
    '@   IN TXT "v=spf1 -all"',
    "",
  ].join("\n");
}
