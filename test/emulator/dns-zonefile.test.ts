import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, createZone, startHarness } from "../helpers/emulator-http";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.emu.close());

const ZONEFILE = `$ORIGIN import.example.
$TTL 600
@   3600 IN SOA ns1.old-dns.test. hostmaster.import.example. (
        2024010101 ; serial
        7200 3600 1209600 300 )
@        IN NS  ns1.old-dns.test.
@        IN NS  ns2.old-dns.test.
@        IN A   192.0.2.1
www  300 IN A   192.0.2.2
         IN AAAA 2001:db8::2       ; owner carried over from the line above
mail     IN MX  10 mx1             ; relative target
@        IN TXT "v=spf1 include:_spf.example.net -all"
_sip._tcp IN SRV 10 5 5060 sip.example.net.
sub      IN NS  ns.sub.example.net.
old      IN DS  12345 13 2 ABCDEF
www  300 IN A   192.0.2.2          ; exact duplicate of an earlier line
foreign.example.org. IN A 192.0.2.99
`;

describe("import", () => {
  it("previews without writing, then applies", async () => {
    const z = await createZone(h.api, "import.example");
    const preview = await h.api("POST", `/dns/zones/${z.id}/import`, { text: ZONEFILE });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ mode: "preview", added: 7, deleted: 0 });
    expect(preview.body.skipped).toEqual([
      "old IN DS 12345 13 2 ABCDEF (type DS not supported)",
      "www 300 IN A 192.0.2.2 (duplicate)",
      "foreign.example.org. IN A 192.0.2.99 (outside the zone)",
    ]);
    expect((await h.api("GET", `/dns/zones/${z.id}/records`)).body.data).toEqual([]);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial);

    const apply = await h.api("POST", `/dns/zones/${z.id}/import`, { text: ZONEFILE, mode: "apply" });
    expect(apply.body).toMatchObject({ mode: "apply", added: 7, deleted: 0 });
    const recs = (await h.api("GET", `/dns/zones/${z.id}/records`)).body.data;
    const compact = recs.map((r: any) => `${r.name} ${r.ttl} ${r.type} ${r.content}`);
    expect(compact).toEqual([
      "@ 600 A 192.0.2.1",
      "www 300 A 192.0.2.2",
      "www 600 AAAA 2001:db8::2",
      "mail 600 MX 10 mx1.import.example",
      "@ 600 TXT v=spf1 include:_spf.example.net -all",
      "_sip._tcp 600 SRV 10 5 5060 sip.example.net",
      "sub 600 NS ns.sub.example.net",
    ]);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial + 1);

    // applying the same text again only skips
    const again = await h.api("POST", `/dns/zones/${z.id}/import`, { text: ZONEFILE, mode: "apply" });
    expect(again.body.added).toBe(0);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial + 1);
  });

  it("replaces: records missing from the text are deleted", async () => {
    const z = await createZone(h.api, "replace.example");
    await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", name: "keep", content: "192.0.2.1", ttl: 300 });
    await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", name: "drop", content: "192.0.2.2" });
    const text = "keep 300 IN A 192.0.2.1\nnew 300 IN A 192.0.2.3\n";
    const preview = await h.api("POST", `/dns/zones/${z.id}/import`, { text, replace: true });
    expect(preview.body).toMatchObject({ mode: "preview", added: 1, deleted: 1 });
    expect((await h.api("GET", `/dns/zones/${z.id}/records`)).body.data).toHaveLength(2);
    const apply = await h.api("POST", `/dns/zones/${z.id}/import`, { text, replace: true, mode: "apply" });
    expect(apply.body).toMatchObject({ added: 1, deleted: 1, skipped: ["keep 300 IN A 192.0.2.1 (duplicate)"] });
    const names = (await h.api("GET", `/dns/zones/${z.id}/records`)).body.data.map((r: any) => r.name);
    expect(names).toEqual(["keep", "new"]);
  });

  it("is all-or-nothing: one bad line writes nothing", async () => {
    const z = await createZone(h.api, "atomic.example");
    await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", name: "old", content: "192.0.2.1" });
    const text = "a 300 IN A 192.0.2.10\nb 300 IN A 192.0.2.11\nc 300 IN A 999.0.0.1\n";
    const r = await h.api("POST", `/dns/zones/${z.id}/import`, { text, mode: "apply", replace: true });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^text: line 3: content must be an IPv4 address/);
    const names = (await h.api("GET", `/dns/zones/${z.id}/records`)).body.data.map((x: any) => x.name);
    expect(names).toEqual(["old"]);
    const lowTtl = await h.api("POST", `/dns/zones/${z.id}/import`, { text: "a 30 IN A 192.0.2.1", mode: "apply" });
    expect(lowTtl.body.error.message).toBe("text: line 1: ttl must be between 60 and 86400");
    expect((await h.api("POST", `/dns/zones/${z.id}/import`, { text: "x", mode: "later" })).body.error.message).toMatch(
      /^mode: must be one of preview, apply/,
    );
    expect((await h.api("POST", `/dns/zones/${z.id}/import`, {})).body.error.message).toBe("text: is required");
  });
});

describe("export", () => {
  it("writes a BIND file that imports back as nothing but duplicates", async () => {
    const z = await createZone(h.api, "export.example");
    const add = (b: unknown) => h.api("POST", `/dns/zones/${z.id}/records`, b);
    await add({ type: "A", content: "192.0.2.1" });
    await add({ type: "CNAME", name: "www", content: "export.example", ttl: 300 });
    await add({ type: "MX", content: "10 mail.export.example" });
    await add({ type: "TXT", name: "_dmarc", content: 'v=DMARC1; p=none; rua="x"' });
    await add({ type: "A", name: "off", content: "192.0.2.9", enabled: false });
    const r = await h.api("GET", `/dns/zones/${z.id}/export`);
    expect(r.status).toBe(200);
    const zoneNow = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(r.body).toMatchObject({ zone_id: z.id, name: "export.example", serial: zoneNow.serial });
    const lines = (r.body.text as string).trim().split("\n");
    expect(lines.slice(1)).toEqual([
      "$ORIGIN export.example.",
      "$TTL 3600",
      `@ 3600 IN SOA ns1.nsp-emulator.test. hostmaster.export.example. ${zoneNow.serial} 7200 3600 1209600 300`,
      "@ 86400 IN NS ns1.nsp-emulator.test.",
      "@ 86400 IN NS ns2.nsp-emulator.test.",
      "@ 3600 IN A 192.0.2.1",
      "www 300 IN CNAME export.example.",
      "@ 3600 IN MX 10 mail.export.example.",
      '_dmarc 3600 IN TXT "v=DMARC1; p=none; rua=\\"x\\""',
    ]);
    const back = await h.api("POST", `/dns/zones/${z.id}/import`, { text: r.body.text, mode: "apply" });
    expect(back.body.added).toBe(0);
    expect(back.body.skipped).toHaveLength(4);
    // and into a fresh zone of the same name in another account it recreates the records
    const other = await h.control("POST", "/_emulator/accounts", { name: "exporter" });
    const { makeApi } = await import("../helpers/emulator-http");
    const api2 = makeApi(h.emu.baseUrl, other.body.token);
    const z2 = await createZone(api2, "export.example");
    const imp = await api2("POST", `/dns/zones/${z2.id}/import`, { text: r.body.text, mode: "apply" });
    expect(imp.body.added).toBe(4);
    const txt = (await api2("GET", `/dns/zones/${z2.id}/records`)).body.data.find((x: any) => x.type === "TXT");
    expect(txt.content).toBe('v=DMARC1; p=none; rua="x"');
  });
});

describe("migration", () => {
  it("plans from public DNS and applies a zone file", async () => {
    const z = await createZone(h.api, "moving.example");
    h.emu.app.publicDns.set({ name: "moving.example", ns: ["ns1.old-dns.test", "ns2.old-dns.test"] });
    const plan = await h.api("POST", `/dns/zones/${z.id}/migration/plan`);
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      current_ns: ["ns1.old-dns.test", "ns2.old-dns.test"],
      served_here: false,
      recommended: "axfr",
    });
    expect(plan.body.steps.length).toBeGreaterThan(0);

    const bad = await h.api("POST", `/dns/zones/${z.id}/migration/apply`, { mode: "axfr" });
    expect(bad.body.error.message).toBe("master_ip: is required for mode axfr");
    const badIp = await h.api("POST", `/dns/zones/${z.id}/migration/apply`, { mode: "axfr", master_ip: "old" });
    expect(badIp.body.error.message).toBe("master_ip: must be an IP address");
    const noFile = await h.api("POST", `/dns/zones/${z.id}/migration/apply`, { mode: "zonefile" });
    expect(noFile.body.error.message).toBe("zonefile: is required for mode zonefile");
    expect((await h.api("POST", `/dns/zones/${z.id}/migration/apply`, {})).body.error.message).toBe(
      "mode: is required",
    );

    const axfr = await h.api("POST", `/dns/zones/${z.id}/migration/apply`, { mode: "axfr", master_ip: "192.0.2.53" });
    expect(axfr.status).toBe(200);
    expect(axfr.body.registrar_steps.join(" ")).toContain("ns1.nsp-emulator.test");
    const zf = await h.api("POST", `/dns/zones/${z.id}/migration/apply`, {
      mode: "zonefile",
      zonefile: "www 300 IN A 192.0.2.80\n",
    });
    expect(zf.body).toMatchObject({ mode: "zonefile", added: 1 });
    expect((await h.api("GET", `/dns/zones/${z.id}/records`)).body.data).toHaveLength(1);
    expect((await h.api("POST", `/dns/zones/${z.id}/migration/apply`, { mode: "fresh" })).body.added).toBe(0);
  });
});
