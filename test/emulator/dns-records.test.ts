import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISO_MS, type Harness, createZone, startHarness } from "../helpers/emulator-http";

let h: Harness;
let zid: number;
beforeAll(async () => {
  h = await startHarness();
  zid = (await createZone(h.api, "records.example")).id;
});
afterAll(() => h.emu.close());

const post = (body: unknown) => h.api("POST", `/dns/zones/${zid}/records`, body);

describe("record create", () => {
  it("returns every documented field with the defaults", async () => {
    const r = await post({ type: "A", content: "192.0.2.10" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(
      [
        "content",
        "created_at",
        "enabled",
        "health_check",
        "id",
        "name",
        "proxied",
        "ttl",
        "type",
        "weight",
        "zone_id",
      ].sort(),
    );
    expect(r.body).toMatchObject({
      zone_id: zid,
      name: "@",
      type: "A",
      ttl: 3600,
      content: "192.0.2.10",
      enabled: true,
      proxied: false,
      weight: null,
      health_check: null,
    });
    expect(r.body.created_at).toMatch(ISO_MS);
    expect((await h.api("GET", `/dns/zones/${zid}/records/${r.body.id}`)).body).toEqual(r.body);
  });

  it("enforces ttl 60..86400", async () => {
    expect((await post({ type: "A", content: "192.0.2.1", ttl: 60 })).body.ttl).toBe(60);
    expect((await post({ type: "A", content: "192.0.2.1", ttl: 86400 })).body.ttl).toBe(86400);
    for (const ttl of [59, 86401, 0, -5]) {
      const r = await post({ type: "A", content: "192.0.2.1", ttl });
      expect(r.status, String(ttl)).toBe(400);
      expect(r.body.error.message).toBe("ttl: must be between 60 and 86400");
    }
    for (const ttl of ["3600", 3600.5, null]) {
      const r = await post({ type: "A", content: "192.0.2.1", ttl });
      expect(r.body.error.message).toBe("ttl: must be an integer");
    }
  });

  it("stores content in one canonical spelling, on create and on patch", async () => {
    const cases: [type: string, written: string, stored: string][] = [
      ["AAAA", "2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
      ["CNAME", "Target.Example.NET.", "target.example.net"],
      ["MX", "010  Mail.Example.NET.", "10 mail.example.net"],
      ["SRV", "10 5 5060 SIP.example.net.", "10 5 5060 sip.example.net"],
      ["CAA", "0 ISSUE letsencrypt.org", '0 issue "letsencrypt.org"'],
      ["TXT", '"abc" "def"', "abcdef"],
      ["TXT", 'say "hi"', 'say "hi"'],
      ["SVCB", '1 Svc.Example.NET. ALPN="h2"', "1 svc.example.net alpn=h2"],
    ];
    for (const [i, [type, written, stored]] of cases.entries()) {
      const created = await post({ type, content: written, name: `canon${i}` });
      expect(created.status, created.text).toBe(201);
      expect(created.body.content).toBe(stored);
      const other = await post({ type, content: type === "AAAA" ? "2001:db8::2" : "0 x", name: `canon${i}b` });
      const patched = await h.api("PATCH", `/dns/zones/${zid}/records/${other.body.id}`, { content: written });
      expect(patched.body.content).toBe(stored);
    }
  });

  it("accepts every documented type and nothing else", async () => {
    const samples: Record<string, string> = {
      A: "192.0.2.1",
      AAAA: "2001:db8::1",
      PTR: "host.example.net",
      CNAME: "target.example.net",
      TXT: "v=spf1 -all",
      MX: "10 mail.example.net",
      NS: "ns1.delegated.example.net",
      SRV: "10 5 5060 sip.example.net",
      CAA: '0 issue "letsencrypt.org"',
      ALIAS: "lb.example.net",
      HTTPS: '1 . alpn="h2,h3"',
      SVCB: "1 svc.example.net",
    };
    for (const [type, content] of Object.entries(samples)) {
      const r = await post({ type, content, name: type === "NS" ? "sub" : `t-${type.toLowerCase()}` });
      expect(r.status, `${type}: ${r.text}`).toBe(201);
      expect(r.body.type).toBe(type);
      // Quotes around a parameter value without spaces are only presentation.
      expect(r.body.content).toBe(type === "HTTPS" ? "1 . alpn=h2,h3" : content);
    }
    for (const type of ["SOA", "DS", "a", "SPF", ""]) {
      const r = await post({ type, content: "x" });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/^type: must be one of A, AAAA, PTR, CNAME/);
    }
  });

  it("validates A as IPv4, AAAA as IPv6 and other content as non-empty", async () => {
    for (const [type, content] of [
      ["A", "2001:db8::1"],
      ["A", "192.0.2.256"],
      ["A", "example.com"],
      ["AAAA", "192.0.2.1"],
      ["AAAA", "2001:db8::g"],
      ["TXT", ""],
      ["CNAME", "   "],
    ] as const) {
      const r = await post({ type, content });
      expect(r.status, `${type} ${content}`).toBe(400);
      expect(r.body.error.message).toMatch(/^content: /);
    }
    expect((await post({ type: "AAAA", content: "::ffff:192.0.2.1" })).status).toBe(201);
    expect((await post({ type: "TXT" })).body.error.message).toBe("content: is required");
  });

  it("defaults the name to @, stores it lowercase and checks its shape", async () => {
    expect((await post({ type: "TXT", content: "a", name: "WWW.Sub" })).body.name).toBe("www.sub");
    expect((await post({ type: "TXT", content: "a", name: "*" })).body.name).toBe("*");
    expect((await post({ type: "TXT", content: "a", name: "*.wild" })).body.name).toBe("*.wild");
    expect((await post({ type: "TXT", content: "a", name: "_dmarc" })).body.name).toBe("_dmarc");
    expect((await post({ type: "SRV", content: "1 1 443 x.example", name: "_sip._tcp" })).status).toBe(201);
    for (const name of ["has space", "www.", "a..b", "w*w", "*.*", "-x", "x-", ""]) {
      const r = await post({ type: "TXT", content: "a", name });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body.error.message).toMatch(/^name: /);
    }
    const apexNs = await post({ type: "NS", content: "ns1.elsewhere.example" });
    expect(apexNs.status).toBe(400);
    expect(apexNs.body.error.message).toMatch(/^name: NS records at the apex/);
  });

  it("allows proxied only for A, AAAA and CNAME", async () => {
    for (const [type, content] of [
      ["A", "192.0.2.7"],
      ["AAAA", "2001:db8::7"],
      ["CNAME", "origin.example.net"],
    ] as const) {
      const r = await post({ type, content, name: `px-${type.toLowerCase()}`, proxied: true });
      expect(r.status).toBe(201);
      expect(r.body.proxied).toBe(true);
    }
    const mx = await post({ type: "MX", content: "10 mx.example.net", proxied: true });
    expect(mx.status).toBe(400);
    expect(mx.body.error.message).toMatch(/^proxied: /);
    expect((await post({ type: "MX", content: "10 mx.example.net", proxied: false })).status).toBe(201);

    const txt = await post({ type: "TXT", content: "hello", name: "px-patch" });
    const patch = await h.api("PATCH", `/dns/zones/${zid}/records/${txt.body.id}`, { proxied: true });
    expect(patch.status).toBe(400);
    expect(patch.body.error.message).toMatch(/^proxied: /);
    expect((await h.api("GET", `/dns/zones/${zid}/records/${txt.body.id}`)).body.proxied).toBe(false);
  });

  it("checks weight and the health_check shape", async () => {
    const ok = await post({ type: "A", content: "192.0.2.9", weight: 10, health_check: "https:443/health" });
    expect(ok.body).toMatchObject({ weight: 10, health_check: "https:443/health" });
    expect((await post({ type: "A", content: "192.0.2.9", health_check: "tcp:25" })).status).toBe(201);
    expect((await post({ type: "A", content: "192.0.2.9", health_check: "http:80" })).status).toBe(201);
    for (const hc of [
      "https://x/health",
      "https:443 /x",
      "HTTPS:443/",
      "https:0/",
      "https:70000/",
      "https:443x",
      "443/health",
      "",
    ]) {
      const r = await post({ type: "A", content: "192.0.2.9", health_check: hc });
      expect(r.status, hc).toBe(400);
      expect(r.body.error.message).toMatch(/^health_check: /);
    }
    for (const weight of [-1, 1.5, "1", 2 ** 31]) {
      const r = await post({ type: "A", content: "192.0.2.9", weight });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/^weight: /);
    }
  });

  it("accepts enabled on create; refuses fields outside the body", async () => {
    expect((await post({ type: "A", content: "192.0.2.8", enabled: false })).body.enabled).toBe(false);
    const r = await post({ type: "A", content: "192.0.2.8", zone_id: zid });
    expect(r.body.error.message).toBe("zone_id: unknown field");
  });

  it("answers not_found for a record of another zone", async () => {
    const other = await createZone(h.api, "other-records.example");
    const rec = await h.api("POST", `/dns/zones/${other.id}/records`, { type: "A", content: "192.0.2.1" });
    expect((await h.api("GET", `/dns/zones/${zid}/records/${rec.body.id}`)).status).toBe(404);
    expect((await h.api("PATCH", `/dns/zones/${zid}/records/${rec.body.id}`, { ttl: 60 })).status).toBe(404);
    expect((await h.api("DELETE", `/dns/zones/${zid}/records/${rec.body.id}`)).status).toBe(404);
  });
});

describe("record patch, list and delete", () => {
  it("patches content, ttl, weight, health_check, enabled and proxied", async () => {
    const rec = (await post({ type: "A", content: "192.0.2.20", name: "patchme" })).body;
    const url = `/dns/zones/${zid}/records/${rec.id}`;
    const r = await h.api("PATCH", url, {
      content: "192.0.2.21",
      ttl: 300,
      weight: 5,
      health_check: "http:8080/up",
      enabled: false,
      proxied: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      content: "192.0.2.21",
      ttl: 300,
      weight: 5,
      health_check: "http:8080/up",
      enabled: false,
      proxied: true,
    });
    const cleared = await h.api("PATCH", url, { weight: null, health_check: null });
    expect(cleared.body).toMatchObject({ weight: null, health_check: null, ttl: 300 });
    expect((await h.api("PATCH", url, { content: "not-an-ip" })).body.error.message).toMatch(/^content: /);
    expect((await h.api("PATCH", url, { ttl: 30 })).body.error.message).toBe("ttl: must be between 60 and 86400");
    expect((await h.api("PATCH", url, { type: "AAAA" })).body.error.message).toBe("type: unknown field");
    expect((await h.api("PATCH", url, { name: "x" })).body.error.message).toBe("name: unknown field");
    expect((await h.api("GET", url)).body.content).toBe("192.0.2.21");
  });

  it("lists records with paging and deletes them", async () => {
    const z = await createZone(h.api, "list-records.example");
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", name: `h${i}`, content: `192.0.2.${i + 1}` }))
          .body.id,
      );
    }
    const p1 = await h.api("GET", `/dns/zones/${z.id}/records?limit=2`);
    expect(p1.body.data.map((r: any) => r.id)).toEqual(ids.slice(0, 2));
    expect(p1.body.paging).toEqual({ limit: 2, offset: 0, count: 2, next_offset: 2 });
    const p3 = await h.api("GET", `/dns/zones/${z.id}/records?limit=2&offset=4`);
    expect(p3.body.paging).toEqual({ limit: 2, offset: 4, count: 1, next_offset: null });
    expect((await h.api("DELETE", `/dns/zones/${z.id}/records/${ids[0]}`)).status).toBe(204);
    expect((await h.api("GET", `/dns/zones/${z.id}/records/${ids[0]}`)).status).toBe(404);
    expect((await h.api("GET", `/dns/zones/${z.id}/records`)).body.data).toHaveLength(4);
  });
});
