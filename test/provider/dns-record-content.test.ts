// nsp:dns:Record and nsp:dns:ZoneRecords through the built plugin binary over gRPC, against a live
// emulator: ids given as numbers, ignoreChanges in Update, and record data that the API stores in
// another spelling than the program wrote, which must never show as a change.
import { beforeAll, describe, expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const RECORD = "nsp:dns:Record";
const ZR = "nsp:dns:ZoneRecords";

const { control, plugin, checked } = useProvider({ account: "demo", config: { requestsPerMinute: 0 } });
let serviceId: number;
let zoneId: string;
beforeAll(async () => {
  serviceId = (await control.services()).find((s) => s.type === "auth_dns")!.id;
  zoneId = String(
    (await control.post<{ id: number }>("/dns/zones", { service_id: serviceId, name: "content.example" })).id,
  );
});

const LONG_TXT = `v=DKIM1; k=rsa; p=${"A".repeat(300)}`;

// What a program may write -> what the API returns for it.
const SPELLINGS: [type: string, written: string, returned: string][] = [
  ["A", "192.0.2.7", "192.0.2.7"],
  ["AAAA", "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
  ["AAAA", "2001:DB8:0:1:0:0:0:AB", "2001:db8:0:1::ab"],
  ["CNAME", "Target.Example.COM.", "target.example.com"],
  ["CNAME", "target.example.com", "target.example.com"],
  ["ALIAS", "lb.Example.net.", "lb.example.net"],
  ["NS", "NS1.delegated.example.", "ns1.delegated.example"],
  ["PTR", "host.example.org", "host.example.org"],
  ["PTR", "Host.Example.org.", "host.example.org"],
  ["MX", "10 Mail.Example.COM.", "10 mail.example.com"],
  ["MX", "010   mx2.example.com", "10 mx2.example.com"],
  ["SRV", "10 60 5060 SIP.example.com.", "10 60 5060 sip.example.com"],
  ["CAA", '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
  ["CAA", "0 ISSUEWILD letsencrypt.org", '0 issuewild "letsencrypt.org"'],
  ["TXT", LONG_TXT, LONG_TXT],
  ["TXT", `"${LONG_TXT.slice(0, 255)}" "${LONG_TXT.slice(255)}"`, LONG_TXT],
  ["TXT", 'say "hello" to \\ them', 'say "hello" to \\ them'],
  ["TXT", '"v=spf1 include:_spf.example.com ~all"', "v=spf1 include:_spf.example.com ~all"],
  ["HTTPS", '1 . ALPN="h2,h3" port=443', "1 . alpn=h2,h3 port=443"],
  ["SVCB", "1 Svc.Example.net. alpn=h2", "1 svc.example.net alpn=h2"],
];

// Real changes: each must still diff.
const CHANGES: [type: string, before: string, after: string][] = [
  ["AAAA", "2001:db8::1", "2001:db8::2"],
  ["CNAME", "a.example.com", "b.example.com."],
  ["MX", "10 mail.example.com", "20 mail.example.com"],
  ["SRV", "10 60 5060 sip.example.com", "10 60 5061 sip.example.com"],
  ["CAA", '0 issue "letsencrypt.org"', '0 issue "pki.goog"'],
  ["TXT", "hello", "Hello"],
  ["TXT", '"a" "b"', "a b"],
  ["HTTPS", "1 . alpn=h2", "1 . alpn=h3"],
];

describe("ids given as numbers", () => {
  it("Check takes a number for an id property and keeps the string id", async () => {
    const zone = await plugin.check(ZONE, "z", { serviceId, name: "numeric-id.example" });
    expect(zone.failures).toEqual([]);
    expect(zone.inputs.serviceId).toBe(String(serviceId));
    const rec = await plugin.check(RECORD, "r", { zoneId: Number(zoneId), type: "A", content: "192.0.2.1" });
    expect(rec.failures).toEqual([]);
    expect(rec.inputs.zoneId).toBe(zoneId);
    const zr = await plugin.check(ZR, "zr", { zoneId: Number(zoneId), records: [] });
    expect(zr.failures).toEqual([]);
    expect(zr.inputs.zoneId).toBe(zoneId);
    const fn = await plugin.invoke("nsp:dns:getZone", { id: Number(zoneId) });
    expect(fn.failures).toEqual([]);
    expect(fn.result).toMatchObject({ id: zoneId, name: "content.example" });
  });

  it("refuses a number that is no id, naming the property", async () => {
    for (const bad of [-1, 0, 2.5]) {
      const { failures } = await plugin.check(RECORD, "r", { zoneId: bad, type: "A", content: "192.0.2.1" });
      expect(failures).toEqual([{ property: "zoneId", reason: "must be the numeric id of an existing object" }]);
    }
  });
});

describe("ignoreChanges in Update", () => {
  it("leaves an ignored property out of the patch", async () => {
    const inputs = await checked(RECORD, { zoneId, name: "ignored", type: "A", content: "192.0.2.1", ttl: 600 });
    const created = await plugin.create(RECORD, "ign", inputs);
    const news = { ...inputs, content: "192.0.2.2", ttl: 300 };
    await control.resetStats();
    const state = await plugin.update(RECORD, "ign", created.id, created.properties, news, false, inputs, ["ttl"]);
    const stats = await control.stats();
    expect(stats.byMethod.PATCH).toBe(1);
    const live = await control.get<{ content: string; ttl: number }>(`/dns/zones/${zoneId}/records/${created.id}`);
    expect(live).toMatchObject({ content: "192.0.2.2", ttl: 600 });
    expect(state).toMatchObject({ content: "192.0.2.2", ttl: 600 });
  });

  it("sends no request when only ignored properties changed", async () => {
    const inputs = await checked(RECORD, { zoneId, name: "ignored2", type: "A", content: "192.0.2.3" });
    const created = await plugin.create(RECORD, "ign2", inputs);
    await control.resetStats();
    await plugin.update(
      RECORD,
      "ign2",
      created.id,
      created.properties,
      { ...inputs, ttl: 120, content: "192.0.2.4" },
      false,
      inputs,
      ["ttl", "content"],
    );
    expect((await control.stats()).mutating).toBe(0);
    expect(await control.get(`/dns/zones/${zoneId}/records/${created.id}`)).toMatchObject({
      content: "192.0.2.3",
      ttl: 3600,
    });
  });
});

describe("nsp:dns:Record data in another spelling", () => {
  it.each(SPELLINGS)("%s %j is stored as %j and never diffs", async (type, written, returned) => {
    const name = `s-${type.toLowerCase()}-${SPELLINGS.findIndex((s) => s[1] === written)}`;
    const inputs = await checked(RECORD, { zoneId, name: name.toUpperCase(), type, content: written });
    expect(inputs.content).toBe(written);
    const created = await plugin.create(RECORD, name, inputs);
    expect(created.properties.content).toBe(returned);
    expect(await plugin.diff(RECORD, name, created.id, created.properties, inputs, inputs)).toMatchObject({
      changes: false,
      diffs: [],
    });

    // Refresh keeps the program's spelling in the inputs and the API's in the state.
    const read = await plugin.read(RECORD, name, created.id, created.properties, inputs);
    expect(read.properties.content).toBe(returned);
    expect(read.inputs.content).toBe(written);
    expect(await plugin.diff(RECORD, name, created.id, read.properties, inputs, read.inputs)).toMatchObject({
      changes: false,
      diffs: [],
    });

    // A program written in the API's spelling matches too, and an update leaves the record alone.
    const canonical = await checked(RECORD, { zoneId, name, type, content: returned });
    expect(await plugin.diff(RECORD, name, created.id, read.properties, canonical, read.inputs)).toMatchObject({
      changes: false,
    });
    await control.resetStats();
    await plugin.update(RECORD, name, created.id, read.properties, canonical, false, read.inputs);
    expect((await control.stats()).mutating).toBe(0);
  });

  it.each(CHANGES)("%s %j -> %j is a change that reaches the API", async (type, before, after) => {
    const name = `c-${type.toLowerCase()}-${CHANGES.findIndex((c) => c[2] === after)}`;
    const inputs = await checked(RECORD, { zoneId, name, type, content: before });
    const created = await plugin.create(RECORD, name, inputs);
    const news = await checked(RECORD, { ...inputs, content: after });
    const d = await plugin.diff(RECORD, name, created.id, created.properties, news, inputs);
    expect(d).toMatchObject({ changes: true, diffs: ["content"], replaces: [] });
    const updated = await plugin.update(RECORD, name, created.id, created.properties, news, false, inputs);
    expect(updated.content).not.toBe(created.properties.content);
    expect(await plugin.diff(RECORD, name, created.id, updated, news, news)).toMatchObject({ changes: false });
  });
});

describe("nsp:dns:ZoneRecords data in another spelling", () => {
  it("converges on every record type through the zone-file import", async () => {
    const zr = String(
      (await control.post<{ id: number }>("/dns/zones", { service_id: serviceId, name: "zr-content.example" })).id,
    );
    const records = SPELLINGS.filter(([type]) => type !== "NS").map(([type, content], i) => ({
      name: i % 2 ? `Mixed${i}` : `n${i}`,
      type,
      content,
    }));
    records.push(
      { name: "@", type: "MX", content: "5 Apex.Example.COM." },
      { name: "*", type: "A", content: "192.0.2.99" },
      { name: "sub", type: "NS", content: "NS1.other.example." },
    );
    const inputs = await checked(ZR, { zoneId: zr, records });
    const created = await plugin.create(ZR, "zr", inputs);
    const d = await plugin.diff(ZR, "zr", created.id, created.properties, inputs, inputs);
    expect(d.changes, JSON.stringify(d)).toBe(false);
    const read = await plugin.read(ZR, "zr", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(ZR, "zr", created.id, read.properties, inputs, read.inputs)).changes).toBe(false);
    // Every record the import wrote is in the API's canonical spelling, so the next plan changes nothing.
    const live = await control.list<{ type: string; content: string }>(`/dns/zones/${zr}/records`);
    expect(live).toHaveLength(records.length);
    await control.resetStats();
    await plugin.update(ZR, "zr", created.id, read.properties, inputs, false, read.inputs);
    expect((await control.stats()).mutating).toBe(0);
  });
});
