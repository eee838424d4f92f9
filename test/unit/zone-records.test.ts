import { describe, expect, it } from "vitest";
import { checkResource } from "../../provider/src/framework/engine/operations";
import { diffResource } from "../../provider/src/framework/engine/diff";
import {
  engineMessageProblem,
  parseZoneRecordsId,
  zoneFileRecords,
  zoneRecords,
} from "../../provider/src/modules/dns/zone-records";
import {
  bulkChange,
  canonicalContent,
  canonicalRecords,
  chooseStrategy,
  deleteLimitProblem,
  diffRecords,
  matchRecords,
  parseZoneFile,
  planZone,
  recordCallCount,
  renderZoneFile,
  WrittenChanges,
  zoneFileChunks,
  zoneFileContentProblem,
  type LiveRecord,
  type ZoneRecord,
} from "../../provider/src/modules/dns/zone-records-plan";
import { exportZone, parseZoneFile as emulatorParse } from "../../emulator/src/dns/bind";
import { storedContent } from "../../emulator/src/dns/records";
import { insertRecord } from "../../emulator/src/dns/records";
import { importZoneText } from "../../emulator/src/dns/zonefile-routes";
import { Store, type RecordRow, type RecordType, type ZoneRow } from "../../emulator/src/model/store";

const rec = (name: string, type: string, content: string, ttl = 3600): ZoneRecord => ({ name, type, content, ttl });
let nextId = 1;
const live = (r: ZoneRecord, extra: Partial<LiveRecord> = {}): LiveRecord => ({
  ...r,
  id: String(nextId++),
  enabled: true,
  apiDefaults: true,
  ...extra,
});

describe("canonical records", () => {
  it("spells data one way whatever its source", () => {
    expect(canonicalContent("CNAME", "Target.Example.NET.")).toBe("target.example.net");
    expect(canonicalContent("MX", " 10   Mail.Example.com. ")).toBe("10 mail.example.com");
    expect(canonicalContent("MX", "0 .")).toBe("0 .");
    expect(canonicalContent("SRV", "10 5 5060 sip.example.com.")).toBe("10 5 5060 sip.example.com");
    expect(canonicalContent("AAAA", "2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(canonicalContent("TXT", '"v=spf1" " -all"')).toBe("v=spf1 -all");
    expect(canonicalContent("TXT", "  spaces kept  ")).toBe("  spaces kept  ");
    expect(canonicalContent("CAA", '0  issue   "ca.example.net"')).toBe('0 issue "ca.example.net"');
    expect(canonicalContent("HTTPS", '1 . alpn="h2 h3"')).toBe('1 . alpn="h2 h3"');
  });

  it("agrees with the spelling the emulator stores, so that records it holds count as plain", () => {
    const written: [RecordType, string][] = [
      ["A", "192.0.2.1"],
      ["AAAA", "2001:0DB8:0000:0000:0000:0000:0000:0001"],
      ["CNAME", "Target.Example.NET."],
      ["ALIAS", "lb.example.net"],
      ["NS", "NS1.example.net."],
      ["PTR", "Host.example.org"],
      ["MX", "010 Mail.Example.com."],
      ["MX", "0 ."],
      ["SRV", "10 05 5060 SIP.example.com."],
      ["CAA", "0 ISSUE letsencrypt.org"],
      ["CAA", '128 iodef "mailto:ca@example.com"'],
      ["TXT", '"v=spf1" " -all"'],
      ["TXT", 'say "hi" \\ there'],
      ["HTTPS", '1 . ALPN="h2,h3" port=443'],
      ["HTTPS", '1 . alpn="h2 h3"'],
      ["SVCB", "2 Svc.Example.net. alpn=h2"],
    ];
    for (const [type, content] of written)
      expect(canonicalContent(type, content), `${type} ${content}`).toBe(storedContent(type, content));
  });

  it("sorts, so that order in the program does not matter", () => {
    const a = [rec("www", "A", "192.0.2.2"), rec("@", "MX", "10 MX.example.com."), rec("www", "A", "192.0.2.1", 300)];
    const sorted = canonicalRecords(a);
    expect(sorted).toEqual([
      rec("@", "MX", "10 mx.example.com"),
      rec("www", "A", "192.0.2.1", 300),
      rec("www", "A", "192.0.2.2"),
    ]);
    expect(canonicalRecords([...a].reverse())).toEqual(sorted);
  });

  it("refuses data a zone file cannot carry", () => {
    expect(zoneFileContentProblem("TXT", "a;b (c)")).toBeUndefined();
    expect(zoneFileContentProblem("TXT", "line\nbreak")).toMatch(/line breaks/);
    expect(zoneFileContentProblem("CAA", '0 iodef "mailto:a;b"')).toBeUndefined();
    expect(zoneFileContentProblem("HTTPS", "1 . alpn=h2;x")).toMatch(/outside double quotes/);
  });
});

describe("zone files", () => {
  const records = canonicalRecords([
    rec("@", "A", "192.0.2.1"),
    rec("@", "MX", "10 mx1.example.net", 300),
    rec("www", "CNAME", "example.com"),
    rec("*.dev", "AAAA", "2001:db8::5", 60),
    rec("_dmarc", "TXT", `v=DMARC1; p=reject; "quoted" \\ ${"x".repeat(300)}`),
    rec("_sip._tcp", "SRV", "10 5 5060 sip.example.com"),
    rec("@", "CAA", '0 issue "ca.example.net"'),
    rec("svc", "HTTPS", '1 . alpn="h2,h3"'),
    rec("sub", "NS", "ns1.other.example"),
  ]);

  it("reads back what it writes", () => {
    expect(canonicalRecords(parseZoneFile(renderZoneFile(records), "example.com"))).toEqual(records);
  });

  it("writes text the emulator's importer reads as the same records", () => {
    const parsed = emulatorParse(renderZoneFile(records), "example.com", { min: 60, max: 86400 });
    expect(parsed.skipped).toEqual([]);
    expect(canonicalRecords(parsed.records.map((p) => rec(p.name, p.type, p.content, p.ttl)))).toEqual(records);
  });

  it("reads the emulator's export, leaving out SOA, apex NS and disabled records", () => {
    const zone = { name: "example.com", serial: 2026010101, negative_ttl: 300 } as ZoneRow;
    const rows = records.map(
      (r, i) => ({ ...r, type: r.type as RecordType, id: i + 1, enabled: true }) as unknown as RecordRow,
    );
    rows.push({ ...rows[0]!, id: 99, name: "off", enabled: false });
    const text = exportZone(zone, rows, ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"]);
    expect(canonicalRecords(parseZoneFile(text, "example.com"))).toEqual(records);
    // The zone's name may also come from $ORIGIN alone.
    expect(canonicalRecords(parseZoneFile(text))).toEqual(records);
  });

  it("understands the BIND forms a hand-written file uses", () => {
    const text = [
      "$ORIGIN example.org.",
      "$TTL 1h ; default",
      "@   IN SOA ns1 hostmaster ( 1 7200 3600",
      "        1209600 300 )",
      "@   NS  ns1.elsewhere.",
      "www 300 IN A 192.0.2.1",
      "    IN 600 A 192.0.2.2",
      "mail IN MX 10 mx ; relative target",
      "old CH TXT ignored",
      "ds  DS 1 13 2 ABCD",
      "other.net. A 192.0.2.9",
      "$ORIGIN sub.example.org.",
      "api A 192.0.2.3",
    ].join("\n");
    expect(canonicalRecords(parseZoneFile(text, "example.org"))).toEqual([
      rec("api.sub", "A", "192.0.2.3"),
      rec("mail", "MX", "10 mx.example.org"),
      rec("www", "A", "192.0.2.1", 300),
      rec("www", "A", "192.0.2.2", 600),
    ]);
    expect(() => parseZoneFile("www A 192.0.2.1")).toThrow(/names no zone/);
  });
});

describe("matching and planning", () => {
  it("pairs exact matches, then TTL changes, then data changes within a set", () => {
    const current = [
      rec("www", "A", "192.0.2.1"),
      rec("www", "A", "192.0.2.2"),
      rec("www", "A", "192.0.2.3"),
      rec("ftp", "CNAME", "www.example.com"),
    ];
    const desired = [
      rec("www", "A", "192.0.2.1"),
      rec("www", "A", "192.0.2.2", 300),
      rec("www", "A", "192.0.2.9"),
      rec("mail", "A", "192.0.2.25"),
    ];
    expect(matchRecords(current, desired)).toEqual({
      kept: 1,
      changed: [
        [1, 1],
        [2, 2],
      ],
      added: [3],
      removed: [3],
    });
  });

  it("plans patches that keep a record's id, and touches only owned sets", () => {
    const off = live(rec("www", "A", "192.0.2.1"), { enabled: false, apiDefaults: false });
    const ttl = live(rec("www", "A", "192.0.2.2"));
    const gone = live(rec("www", "TXT", "old"));
    const foreign = live(rec("api", "A", "192.0.2.7"));
    const desired = canonicalRecords([
      rec("www", "A", "192.0.2.1"),
      rec("www", "A", "192.0.2.2", 300),
      rec("mail", "A", "192.0.2.25"),
    ]);
    const owned = new Set(["www A", "www TXT", "mail A"]);
    const plan = planZone([off, ttl, gone, foreign], desired, owned);
    expect(plan.existing).toEqual([off, ttl, gone]);
    expect(plan.foreign).toEqual([foreign]);
    expect(plan.create).toEqual([rec("mail", "A", "192.0.2.25")]);
    expect(plan.update.map((u) => [u.record.id, u.patch])).toEqual([
      [off.id, { enabled: true }],
      [ttl.id, { ttl: 300 }],
    ]);
    expect(plan.remove).toEqual([gone]);
    expect(recordCallCount(plan)).toBe(4);
    // A preview and one import with replace, then the disabled record's patch: three instead of four.
    expect(chooseStrategy(plan)).toBe("bulk");
  });

  it("goes in bulk when a preview and one import with replace take fewer requests than the record calls", () => {
    const existing = Array.from({ length: 5 }, (_, i) => live(rec(`h${i}`, "A", `192.0.2.${i + 1}`)));
    const desired = canonicalRecords([
      ...existing.slice(2).map((r) => rec(r.name, r.type, r.content, 60)),
      rec("new", "A", "192.0.2.99"),
    ]);
    const owned = new Set(existing.map((r) => `${r.name} A`).concat("new A"));
    const plan = planZone(existing, desired, owned);
    expect(recordCallCount(plan)).toBe(6);
    expect(chooseStrategy(plan)).toBe("bulk");
    // Records of other sets do not change that: the import keeps them.
    expect(chooseStrategy(planZone([...existing, live(rec("api", "A", "198.51.100.1"))], desired, owned))).toBe("bulk");
    // Adding alone never needs replace.
    expect(chooseStrategy(planZone(existing, [...existing, rec("new", "A", "192.0.2.99")], owned))).toBe("records");
    // Two record calls are not beaten by a preview and an import.
    expect(chooseStrategy(planZone(existing, existing.slice(0, 3), owned))).toBe("records");
    // Changed records that keep API-only attributes are patched either way.
    const proxied = existing.map((r) => ({ ...r, apiDefaults: false }));
    expect(
      chooseStrategy(
        planZone(
          proxied,
          proxied.map((r) => rec(r.name, r.type, r.content, 60)),
          owned,
        ),
      ),
    ).toBe("records");
  });

  it("writes as the replace text what must remain and what is added, and says what the preview must show", () => {
    const kept = live(rec("h0", "A", "192.0.2.1"));
    const ttl = live(rec("h1", "A", "192.0.2.2"));
    const proxied = live(rec("h2", "A", "192.0.2.3"), { apiDefaults: false });
    const gone = live(rec("h3", "A", "192.0.2.4"));
    const twin = live(rec("h0", "A", "192.0.2.1"));
    const foreign = live(rec("api", "TXT", "kept as it is"), { enabled: false, apiDefaults: false });
    const apexNs = live(rec("@", "NS", "ns1.example.net"));
    const desired = canonicalRecords([
      rec("h0", "A", "192.0.2.1"),
      rec("h1", "A", "192.0.2.2", 60),
      rec("h2", "A", "192.0.2.3", 60),
      rec("new", "AAAA", "2001:db8::1"),
    ]);
    const plan = planZone(
      [kept, ttl, proxied, gone, twin, foreign, apexNs],
      desired,
      new Set(["h0 A", "h1 A", "h2 A", "h3 A", "new AAAA"]),
    );
    const bulk = bulkChange(plan);
    expect(bulk.text.split("\n").filter(Boolean).sort()).toEqual(
      [
        'api 3600 IN TXT "kept as it is"',
        "h0 3600 IN A 192.0.2.1",
        "h1 60 IN A 192.0.2.2",
        "h2 3600 IN A 192.0.2.3",
        "new 3600 IN AAAA 2001:db8::1",
      ].sort(),
    );
    expect({ added: bulk.added, kept: bulk.kept, deleted: bulk.deleted }).toEqual({ added: 2, kept: 3, deleted: 2 });
    expect(bulk.patches.map((u) => [u.record.id, u.patch])).toEqual([[proxied.id, { ttl: 60 }]]);
    expect(bulk.readded.map((u) => u.record.id)).toEqual([ttl.id]);
    // The exact twin of a kept record survives a replace: it is deleted by its own request.
    expect(bulk.leftovers).toEqual([twin]);

    const written = new WrittenChanges(plan);
    written.replaced(bulk);
    expect(written.recordsAfter()).toEqual(
      canonicalRecords([
        rec("h0", "A", "192.0.2.1"),
        rec("h0", "A", "192.0.2.1"),
        rec("h1", "A", "192.0.2.2", 60),
        rec("h2", "A", "192.0.2.3"),
        rec("new", "AAAA", "2001:db8::1"),
      ]),
    );
    written.patched(proxied, desired.find((r) => r.name === "h2")!);
    written.removed(twin);
    expect(written.recordsAfter()).toEqual(desired);
  });

  it("sends text the emulator's import with replace keeps, adds and deletes exactly as the change means", () => {
    const store = new Store(() => 0);
    const acct = "acct";
    const zone = { id: 1, account: acct, name: "bulk.example", serial: 1, negative_ttl: 300 } as unknown as ZoneRow;
    const rows = [
      rec("h0", "A", "192.0.2.1"),
      rec("h1", "A", "192.0.2.2"),
      rec("gone", "A", "192.0.2.9"),
      rec("api", "CNAME", "Target.Example.NET."),
    ].map((r) => insertRecord(store, zone, { ...r, type: r.type as RecordType }));
    rows[3]!.proxied = true;
    const liveRecs = rows.map((r) =>
      live(
        { name: r.name, type: r.type, content: canonicalContent(r.type, r.content), ttl: r.ttl },
        { id: String(r.id), apiDefaults: !r.proxied },
      ),
    );
    const desired = canonicalRecords([
      rec("h0", "A", "192.0.2.1"),
      rec("h1", "A", "192.0.2.2", 60),
      rec("new", "TXT", 'say "hi"'),
    ]);
    const bulk = bulkChange(planZone(liveRecs, desired, new Set(["h0 A", "h1 A", "gone A", "new TXT"])));
    const preview = importZoneText(store, zone, bulk.text, false, true);
    expect({ added: preview.added, kept: preview.skipped.length, deleted: preview.deleted }).toEqual({
      added: bulk.added,
      kept: bulk.kept,
      deleted: bulk.deleted,
    });
    importZoneText(store, zone, bulk.text, true, true);
    const after = [...store.zoneRecords(zone.id).values()];
    expect(after.find((r) => r.name === "api")).toMatchObject({ id: rows[3]!.id, proxied: true });
    expect(after.find((r) => r.name === "h0")!.id).toBe(rows[0]!.id);
    expect(after.map((r) => `${r.name} ${r.ttl}`).sort()).toEqual(["api 3600", "h0 3600", "h1 60", "new 3600"]);
  });

  it("refuses to delete more than maxDeletePercent of at least 10 managed records", () => {
    const existing = Array.from({ length: 20 }, (_, i) => live(rec(`h${i}`, "A", `192.0.2.${i + 1}`)));
    const owned = new Set(existing.map((r) => `${r.name} A`));
    const keep = (n: number) => existing.slice(0, n).map((r) => rec(r.name, r.type, r.content));
    expect(deleteLimitProblem(planZone(existing, keep(16), owned), 20)).toBeUndefined();
    const problem = deleteLimitProblem(planZone(existing, keep(15), owned), 20);
    expect(problem).toMatch(/^maxDeletePercent: this change would delete 5 of the 20 records .*\(25%\).*at least 25/);
    expect(deleteLimitProblem(planZone(existing, keep(0), owned), 100)).toBeUndefined();
    expect(deleteLimitProblem(planZone(existing.slice(0, 9), [], owned), 0)).toBeUndefined();
  });
});

describe("detailed diff of the record list", () => {
  it("names each record added, changed or removed", () => {
    const olds = canonicalRecords([
      rec("a", "A", "192.0.2.1"),
      rec("b", "A", "192.0.2.2"),
      rec("c", "A", "192.0.2.3"),
      rec("d", "TXT", "x"),
    ]);
    const news = canonicalRecords([
      rec("a", "A", "192.0.2.1", 300),
      rec("b", "A", "192.0.2.2"),
      rec("c", "A", "192.0.2.3"),
      rec("e", "A", "192.0.2.5"),
    ]);
    expect(diffRecords(olds, news)).toEqual({ "records[0]": "UPDATE", "records[3]": "UPDATE" });
    const grown = canonicalRecords([rec("0", "A", "192.0.2.9"), ...olds]);
    expect(diffRecords(olds, grown)).toEqual({ "records[0]": "ADD" });
    expect(diffRecords(grown, olds)).toEqual({ "records[0]": "DELETE" });
    // A change that moves the record shows where it left and where it arrived.
    const moved = canonicalRecords([rec("0", "A", "192.0.2.9"), rec("a", "A", "192.0.2.1", 60), ...olds.slice(1)]);
    expect(diffRecords(olds, moved)).toEqual({ "records[0]": "UPDATE", "records[1]": "ADD" });
    expect(diffRecords(olds, olds)).toEqual({});
  });
});

describe("nsp:dns:ZoneRecords inputs", () => {
  it("fills defaults and canonicalises, so order and spelling do not matter", () => {
    const a = checkResource(zoneRecords, {
      zoneId: "7",
      records: [
        { name: "WWW", type: "CNAME", content: "Example.COM." },
        { type: "MX", content: "10  mx.example.com", ttl: 300 },
      ],
    });
    expect(a.failures).toEqual([]);
    expect(a.inputs).toEqual({
      zoneId: "7",
      records: [rec("@", "MX", "10 mx.example.com", 300), rec("www", "CNAME", "example.com")],
      maxDeletePercent: 20,
    });
    const b = checkResource(zoneRecords, {
      zoneId: "7",
      records: [
        { name: "@", type: "MX", content: "10 mx.example.com.", ttl: 300 },
        { name: "www", type: "CNAME", content: "example.com" },
      ],
    });
    expect(b.inputs).toEqual(a.inputs);
    expect(
      diffResource(zoneRecords, { ...a.inputs, recordSets: ["@ MX", "www CNAME"] }, b.inputs, a.inputs).changes,
    ).toBe(false);
  });

  it("warns, and does not refuse, where a CNAME shares its name: beside other data or at the apex", () => {
    const shared = checkResource(zoneRecords, {
      zoneId: "7",
      records: [
        { name: "www", type: "A", content: "192.0.2.1" },
        { name: "www", type: "CNAME", content: "cdn.example.net" },
        { name: "@", type: "CNAME", content: "elsewhere.example.net" },
        { name: "api", type: "CNAME", content: "api.example.net" },
      ],
    });
    expect(shared.failures).toEqual([]);
    expect(shared.warnings).toHaveLength(2);
    expect(shared.warnings[0]).toMatch(
      /^a CNAME at the apex \(@\) shares its name with the zone's SOA and NS records \(RFC 1034 §3\.6\.2/,
    );
    expect(shared.warnings[1]).toMatch(
      /^www CNAME: the zone also has A "192\.0\.2\.1" at www \(RFC 1034 §3\.6\.2 and RFC 2181 §10\.1/,
    );
    expect(
      checkResource(zoneRecords, {
        zoneId: "7",
        records: [
          { name: "api", type: "CNAME", content: "api.example.net" },
          { name: "www", type: "A", content: "192.0.2.1" },
        ],
      }).warnings,
    ).toEqual([]);
  });

  it("names the failing record and field", () => {
    const { failures } = checkResource(zoneRecords, {
      zoneId: "7",
      records: [
        { name: "www", type: "A", content: "192.0.2.1" },
        { name: "bad name", type: "A", content: "192.0.2.1" },
        { name: "WWW", type: "A", content: "192.0.2.1", ttl: 300 },
        { name: "v6", type: "AAAA", content: "192.0.2.1" },
        { name: "@", type: "NS", content: "ns.example.net" },
        { name: "x", type: "SPF", content: "v=spf1" },
        { name: "t", type: "TXT", content: "a", ttl: 10 },
      ],
      maxDeletePercent: 101,
    });
    const byProperty = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(
      [
        "maxDeletePercent",
        "records[1].name",
        "records[3].content",
        "records[4].name",
        "records[5].type",
        "records[6].ttl",
      ].sort(),
    );
    // The duplicate is reported once the records themselves are valid.
    const dup = checkResource(zoneRecords, {
      zoneId: "7",
      records: [
        { name: "www", type: "A", content: "192.0.2.1" },
        { name: "x", type: "A", content: "192.0.2.2" },
        { name: "WWW", type: "A", content: "192.0.2.1", ttl: 300 },
      ],
    });
    expect(dup.failures).toEqual([
      { property: "records[2]", reason: "duplicates records[0] (www A 192.0.2.1); list each record once" },
    ]);
  });

  it("takes the records as a zone file, names each line it cannot take, and compares files by their records", () => {
    const text = [
      "$ORIGIN Example.com.",
      "$TTL 300",
      "@ IN SOA ns.old. host.example.com. 1 2 3 4 5",
      "@ IN NS ns.old.",
      "www IN A 192.0.2.1 ; web",
      "ftp 600 IN CNAME www",
      "",
    ].join("\n");
    const given = checkResource(zoneRecords, { zoneId: "7", zoneFile: text });
    expect(given.failures).toEqual([]);
    expect(given.inputs).toEqual({ zoneId: "7", zoneFile: text, maxDeletePercent: 20 });
    expect(zoneFileRecords(text)).toEqual({
      zoneName: "example.com",
      records: [rec("ftp", "CNAME", "www.example.com", 600), rec("www", "A", "192.0.2.1", 300)],
      problems: [],
    });
    // Another layout of the same records is no change; another record is.
    const relaid = checkResource(zoneRecords, {
      zoneId: "7",
      zoneFile: "$ORIGIN example.com.\nftp.example.com. 600 IN CNAME WWW.example.com.\nwww 300 A 192.0.2.1\n",
    }).inputs;
    expect(
      diffResource(zoneRecords, { ...given.inputs, recordSets: ["ftp CNAME", "www A"] }, relaid, given.inputs).changes,
    ).toBe(false);
    const more = checkResource(zoneRecords, { zoneId: "7", zoneFile: `${text}api IN A 192.0.2.9\n` }).inputs;
    expect(
      diffResource(zoneRecords, { ...given.inputs, recordSets: ["ftp CNAME", "www A"] }, more, given.inputs).diffs,
    ).toEqual(["zoneFile"]);

    const bad = checkResource(zoneRecords, {
      zoneId: "7",
      zoneFile: [
        "$ORIGIN example.com.",
        "$INCLUDE other.zone",
        "www 300 IN A 192.0.2.1",
        "www 600 IN A 192.0.2.1",
        "v6 IN AAAA 192.0.2.1",
        "x IN SPF v=spf1",
        "www.example.org. IN A 192.0.2.2",
        "t 10 IN TXT short",
        "c CH TXT chaos",
      ].join("\n"),
    });
    expect(bad.failures.map((f) => f.property)).toEqual(Array(7).fill("zoneFile"));
    expect(bad.failures.map((f) => f.reason)).toEqual([
      'the line "$INCLUDE other.zone" is a $INCLUDE directive, which is not supported',
      'the line "x IN SPF v=spf1" is of type SPF, which is not one of A, AAAA, PTR, CNAME, TXT, MX, NS, ' +
        "SRV, CAA, ALIAS, HTTPS, SVCB",
      'the line "www.example.org. IN A 192.0.2.2" is not in the zone example.com',
      'the line "c CH TXT chaos" is of class CH, not IN',
      'the record "www 600 IN A 192.0.2.1" is there twice; list each record once',
      'the record "v6 3600 IN AAAA 192.0.2.1": an AAAA record needs an IPv6 address, got "192.0.2.1"',
      'the record "t 10 IN TXT short": its TTL must be 60 to 86400 seconds',
    ]);
    expect(checkResource(zoneRecords, { zoneId: "7", zoneFile: "www 300 IN A 192.0.2.1\n" }).failures).toEqual([
      {
        property: "zoneFile",
        reason: "names no zone: start it with the zone's `$ORIGIN`, such as `$ORIGIN example.com.`",
      },
    ]);
    // A file of 100,000 bad lines is one readable error.
    const many = checkResource(zoneRecords, {
      zoneId: "7",
      zoneFile: `$ORIGIN example.com.\n${Array.from({ length: 50 }, (_, i) => `h${i} IN A nowhere`).join("\n")}`,
    }).failures;
    expect(many).toHaveLength(11);
    expect(many[10]!.reason).toBe("and 40 more problems like these");
    expect(checkResource(zoneRecords, { zoneId: "7", zoneFile: text, records: [] }).failures).toEqual([
      { property: "zoneFile", reason: "give the records either as records or as zoneFile, not both" },
    ]);
    expect(checkResource(zoneRecords, { zoneId: "7" }).failures).toEqual([
      {
        property: "records",
        reason: "is required: give the records as records (a list) or as zoneFile (the text of a zone file)",
      },
    ]);
  });

  it("parses its import ids", () => {
    expect(parseZoneRecordsId("42")).toEqual({ zoneId: "42" });
    const { zoneId, scope } = parseZoneRecordsId("42/@,WWW,mail:mx");
    expect(zoneId).toBe("42");
    expect(
      [
        rec("@", "TXT", "x"),
        rec("www", "A", "192.0.2.1"),
        rec("mail", "MX", "10 mx"),
        rec("mail", "A", "192.0.2.2"),
        rec("api", "A", "192.0.2.3"),
      ].filter(scope!),
    ).toHaveLength(3);
    for (const bad of ["", "abc", "0", "42/", "42/bad name", "42/www:SPF", "42/a/b"])
      expect(() => parseZoneRecordsId(bad)).toThrow(/must be a zone id/);
  });
});

describe("large zones", () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      rec(`host${i}`, i % 2 ? "TXT" : "A", i % 2 ? `v=${"x".repeat(i % 300)}` : `10.0.${i >> 8}.${i & 255}`),
    );

  it("cuts zone-file text into imports of at most the given size, whole lines, every record once", () => {
    const records = many(3000);
    const chunks = zoneFileChunks(records, 16 * 1024);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(Buffer.byteLength(c.text)).toBeLessThanOrEqual(16 * 1024);
      expect(c.text).toBe(renderZoneFile(c.records));
    }
    expect(chunks.flatMap((c) => c.records)).toEqual(records);
    // A line longer than the limit travels alone rather than not at all.
    const long = rec("big", "TXT", "y".repeat(2000));
    expect(
      zoneFileChunks([rec("a", "A", "192.0.2.1"), long, rec("b", "A", "192.0.2.2")], 1000).map((c) => c.records),
    ).toEqual([[rec("a", "A", "192.0.2.1")], [long], [rec("b", "A", "192.0.2.2")]]);
    expect(zoneFileChunks([], 1000)).toEqual([]);
  });

  it("refuses, naming the engine's limit and the way around it, a list whose refresh answer would not fit one gRPC message", () => {
    const args = { zoneId: "42", records: canonicalRecords(many(2000)), maxDeletePercent: 20 };
    expect(engineMessageProblem(args)).toBeUndefined();
    const problem = engineMessageProblem(args, 64 * 1024);
    expect(problem).toMatch(
      /^2000 records make a refresh answer of [\d.]+ MiB, more than the 0\.1 MiB the Pulumi engine accepts in one gRPC message; split the zone into several nsp:dns:ZoneRecords/,
    );
    expect(engineMessageProblem({ ...args, records: args.records.slice(0, 100) }, 64 * 1024)).toBeUndefined();
  });

  it("knows what the zone holds after some of a plan's writes went through", () => {
    const a = live(rec("a", "A", "192.0.2.1"));
    const b = live(rec("b", "A", "192.0.2.2"));
    const c = live(rec("c", "A", "192.0.2.3"));
    const off = live(rec("d", "A", "192.0.2.4"), { enabled: false });
    const desired = [
      rec("a", "A", "192.0.2.1", 60),
      rec("b", "A", "192.0.2.9"),
      rec("d", "A", "192.0.2.4"),
      rec("e", "A", "192.0.2.5"),
    ];
    const plan = planZone([a, b, c, off], desired, new Set(["a A", "b A", "c A", "d A", "e A"]));
    const written = new WrittenChanges(plan);
    // Nothing confirmed yet: the zone serves its enabled records as they were.
    expect(written.recordsAfter()).toEqual([
      rec("a", "A", "192.0.2.1"),
      rec("b", "A", "192.0.2.2"),
      rec("c", "A", "192.0.2.3"),
    ]);
    written.removed(c);
    written.patched(a, desired[0]!);
    expect(written.count).toBe(2);
    expect(written.recordsAfter()).toEqual([rec("a", "A", "192.0.2.1", 60), rec("b", "A", "192.0.2.2")]);
    written.patched(off, desired[2]!);
    written.imported([desired[3]!]);
    expect(written.recordsAfter()).toEqual([
      rec("a", "A", "192.0.2.1", 60),
      rec("b", "A", "192.0.2.2"),
      rec("d", "A", "192.0.2.4"),
      rec("e", "A", "192.0.2.5"),
    ]);
  });
});
