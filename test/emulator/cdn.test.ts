import { X509Certificate, createPrivateKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTraffic } from "../../emulator/src/cdn/traffic";
import { certificateProblem, issueCertificate, newCaKey, randomSerial } from "../../emulator/src/cdn/x509";
import { ISO_MS, type Harness, createZone, makeApi, startHarness } from "../helpers/emulator-http";

let h: Harness;
let cdnService: number;
let dnsService: number;
beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "edge" }, { name: "edge-ro", scope: "read" }, { name: "other" }] });
  const services = (await h.api("GET", "/services")).body.data as Array<{ id: number; type: string }>;
  cdnService = services.find((s) => s.type === "cdn")!.id;
  dnsService = services.find((s) => s.type === "auth_dns")!.id;
});
afterAll(() => h.emu.close());

const SITE_FIELDS = [
  "id",
  "zone_id",
  "service_id",
  "hostname",
  "dns_mode",
  "origin",
  "origin_scheme",
  "origin_host_header",
  "waf",
  "waf_mode",
  "cache_ttl",
  "cache_mode",
  "cache_html_ttl",
  "force_https",
  "rate_limit",
  "has_certificate",
  "cert_pem",
  "waiting_room",
  "under_attack",
  "bot_fight",
  "sense",
  "pages_project_id",
  "link_tunnel_id",
  "target",
  "instructions",
  "verified_at",
  "created_at",
].sort();

const createSite = async (hostname: string, extra: Record<string, unknown> = {}) => {
  const r = await h.api("POST", "/cdn/sites", { hostname, origin: "203.0.113.10", ...extra });
  if (r.status !== 201) throw new Error(`site create failed: ${r.status} ${r.text}`);
  return r.body;
};
const setPublicDns = (name: string, entry: { cname?: string; ns?: string[] }) =>
  h.control("PUT", "/_emulator/public-dns", { name, ...entry });

describe("cname-mode sites", () => {
  it("onboards a hostname by CNAME with every documented field and the defaults", async () => {
    const r = await h.api("POST", "/cdn/sites", { hostname: "WWW.Shop.Example.", origin: "Origin.Example.NET" });
    expect(r.status).toBe(201);
    const s = r.body;
    expect(Object.keys(s).sort()).toEqual(SITE_FIELDS);
    expect(s).toMatchObject({
      zone_id: null,
      service_id: cdnService,
      hostname: "www.shop.example",
      dns_mode: "cname",
      origin: "origin.example.net",
      origin_scheme: "http",
      origin_host_header: false,
      waf: false,
      waf_mode: "block",
      cache_ttl: 3600,
      cache_mode: "static",
      cache_html_ttl: 0,
      force_https: false,
      rate_limit: 0,
      has_certificate: false,
      cert_pem: null,
      waiting_room: { capacity: 0, session_min: 10 },
      under_attack: false,
      bot_fight: false,
      sense: { enabled: false, action: "challenge", threshold: 50 },
      pages_project_id: null,
      link_tunnel_id: null,
      verified_at: null,
    });
    expect(s.created_at).toMatch(ISO_MS);
    expect(s.target).toBe(`www-shop-example-${s.id}.edge.nsp-emulator.test`);
    expect(s.instructions).toMatchObject({
      mode: "cname",
      add_in: "shop.example",
      records: [
        { name: "www.shop.example", type: "CNAME", content: s.target },
        {
          name: "_acme-challenge.www.shop.example",
          type: "CNAME",
          content: `www-shop-example-${s.id}.acme.edge.nsp-emulator.test`,
        },
      ],
    });
    expect(s.instructions.note).toContain(`/cdn/sites/${s.id}/verify`);
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body).toEqual(s);
  });

  it("takes origin_scheme, origin_host_header and service_id on create", async () => {
    const s = await createSite("opts.example", {
      origin_scheme: "strict",
      origin_host_header: true,
      service_id: cdnService,
      origin: "2001:DB8::10",
    });
    expect(s).toMatchObject({
      origin_scheme: "strict",
      origin_host_header: true,
      service_id: cdnService,
      origin: "2001:db8::10",
    });
    expect(s.instructions.add_in).toBe("opts.example");
    expect(s.instructions.note).toMatch(/apex/);
  });

  it("validates the create body", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ origin: "203.0.113.1" }, "hostname: is required"],
      [{ hostname: "x.example" }, "origin: is required"],
      [{ hostname: "not a host", origin: "203.0.113.1" }, "hostname: must be a host name"],
      [{ hostname: "localhost", origin: "203.0.113.1" }, "hostname: must be a host name"],
      [{ hostname: "x.example", origin: "http://203.0.113.1" }, "origin: must be an IP address or a host name"],
      [{ hostname: "x.example", origin: "X.example" }, "origin: must not be the site's own hostname"],
      [
        { hostname: "x.example", origin: "203.0.113.1", origin_scheme: "ftp" },
        "origin_scheme: must be one of http, https, strict",
      ],
      [
        { hostname: "x.example", origin: "203.0.113.1", service_id: dnsService },
        `service_id: service ${dnsService} is a auth_dns service, not cdn`,
      ],
      [
        { hostname: "x.example", origin: "203.0.113.1", service_id: 999999 },
        "service_id: no service 999999 in this account",
      ],
      [{ hostname: "x.example", origin: "203.0.113.1", waf: true }, "waf: unknown field"],
    ];
    for (const [body, msg] of cases) {
      const r = await h.api("POST", "/cdn/sites", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.message).toContain(msg);
    }
  });

  it("refuses a second site for the same hostname in the account, not in another account", async () => {
    await createSite("dup.example");
    const r = await h.api("POST", "/cdn/sites", { hostname: "DUP.example", origin: "203.0.113.2" });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("conflict");
    const other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
    expect((await other("POST", "/cdn/sites", { hostname: "dup.example", origin: "203.0.113.2" })).status).toBe(201);
  });

  it("lists sites with paging and hides other accounts' sites", async () => {
    const a = await createSite("list-a.example");
    const b = await createSite("list-b.example");
    const page = await h.api("GET", "/cdn/sites?limit=1");
    expect(page.status).toBe(200);
    expect(page.body.paging).toMatchObject({ limit: 1, offset: 0, count: 1, next_offset: 1 });
    const all = (await h.api("GET", "/cdn/sites?limit=500")).body.data.map((s: any) => s.id);
    expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
    const other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
    expect((await other("GET", `/cdn/sites/${a.id}`)).status).toBe(404);
    expect((await other("PATCH", `/cdn/sites/${a.id}`, { cache_ttl: 5 })).status).toBe(404);
    expect((await other("DELETE", `/cdn/sites/${a.id}`)).status).toBe(404);
  });

  it("deletes a cname-mode site", async () => {
    const s = await createSite("gone.example");
    const r = await h.api("DELETE", `/cdn/sites/${s.id}`);
    expect(r.status).toBe(204);
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).status).toBe(404);
    expect((await h.api("DELETE", `/cdn/sites/${s.id}`)).status).toBe(404);
  });

  it("needs a write token to change anything", async () => {
    const s = await createSite("ro.example");
    const ro = makeApi(h.emu.baseUrl, h.emu.accounts["edge-ro"]!);
    expect((await ro("GET", "/cdn/sites")).status).toBe(200);
    const denied = await ro("POST", "/cdn/sites", { hostname: "ro2.example", origin: "203.0.113.1" });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("forbidden");
    void s;
  });
});

describe("site settings (PATCH)", () => {
  it("patches every setting and returns what it stores", async () => {
    const s = await createSite("patch.example");
    // Every setting but the WAF comes back as it was sent; the WAF object is stored as two fields.
    const settings = {
      cache_ttl: 600,
      cache_mode: "all",
      cache_html_ttl: 60,
      force_https: true,
      origin_scheme: "https",
      origin_host_header: true,
      under_attack: true,
      bot_fight: true,
      rate_limit: 120,
      waiting_room: { capacity: 500, session_min: 15 },
      sense: { enabled: true, action: "block", threshold: 80 },
    };
    const r = await h.api("PATCH", `/cdn/sites/${s.id}`, { waf: { enabled: true, mode: "log" }, ...settings });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ waf: true, waf_mode: "log", ...settings });
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body).toEqual(r.body);
  });

  it("merges the fields of waf, waiting_room and sense", async () => {
    const s = await createSite("merge.example");
    await h.api("PATCH", `/cdn/sites/${s.id}`, { waf: { mode: "log" }, sense: { threshold: 90 } });
    const r = await h.api("PATCH", `/cdn/sites/${s.id}`, { waf: { enabled: true }, waiting_room: { capacity: 10 } });
    expect(r.body).toMatchObject({
      waf: true,
      waf_mode: "log",
      waiting_room: { capacity: 10, session_min: 10 },
      sense: { enabled: false, action: "challenge", threshold: 90 },
    });
  });

  it("validates the patch body and writes nothing when any field is bad", async () => {
    const s = await createSite("patchbad.example");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ cache_ttl: -1 }, "cache_ttl: must be between 0 and 31536000"],
      [{ cache_mode: "everything" }, "cache_mode: must be one of all, static, origin"],
      [{ rate_limit: 1.5 }, "rate_limit: must be an integer"],
      [{ waf: true }, "waf: must be an object"],
      [{ waf: { mode: "deny" } }, "waf.mode: must be one of block, log"],
      [{ waf: { level: 3 } }, "waf.level: unknown field"],
      [{ waiting_room: { session_min: 0 } }, "waiting_room.session_min: must be between 1 and 1440"],
      [{ sense: { threshold: 101 } }, "sense.threshold: must be between 1 and 100"],
      [{ origin: "203.0.113.99" }, "origin: unknown field"],
      [{ hostname: "x.example" }, "hostname: unknown field"],
      [{ force_https: true, cache_ttl: "10" }, "cache_ttl: must be an integer"],
    ];
    for (const [body, msg] of cases) {
      const r = await h.api("PATCH", `/cdn/sites/${s.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(msg);
    }
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body.force_https).toBe(false);
  });

  it("takes a custom certificate with its key, checks them, and never returns the key", async () => {
    const s = await createSite("cert.example");
    const other = await createSite("cert-other.example");
    const mine = (await h.api("POST", `/cdn/sites/${s.id}/origin-certificate`)).body;
    const theirs = (await h.api("POST", `/cdn/sites/${other.id}/origin-certificate`)).body;
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ cert_pem: mine.certificate }, "key_pem: is required with cert_pem"],
      [{ key_pem: mine.private_key }, "key_pem: can only be sent together with cert_pem"],
      [{ cert_pem: "not a pem", key_pem: mine.private_key }, "cert_pem: must be a PEM-encoded X.509 certificate"],
      [{ cert_pem: mine.certificate, key_pem: "nope" }, "key_pem: must be a PEM-encoded private key"],
      [
        { cert_pem: mine.certificate, key_pem: theirs.private_key },
        "key_pem: is not the private key of the certificate",
      ],
      [
        { cert_pem: theirs.certificate, key_pem: theirs.private_key },
        "cert_pem: the certificate does not cover cert.example",
      ],
    ];
    for (const [body, msg] of bad) {
      const r = await h.api("PATCH", `/cdn/sites/${s.id}`, body);
      expect(r.status, msg).toBe(400);
      expect(r.body.error.message).toContain(msg);
    }
    const ok = await h.api("PATCH", `/cdn/sites/${s.id}`, { cert_pem: mine.certificate, key_pem: mine.private_key });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ cert_pem: mine.certificate, has_certificate: true });
    expect(ok.text).not.toContain("PRIVATE KEY");
    expect("key_pem" in ok.body).toBe(false);
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).text).not.toContain("PRIVATE KEY");

    const removed = await h.api("PATCH", `/cdn/sites/${s.id}`, { cert_pem: null });
    expect(removed.body).toMatchObject({ cert_pem: null, has_certificate: false });
    expect(
      (await h.api("PATCH", `/cdn/sites/${s.id}`, { cert_pem: null, key_pem: mine.private_key })).body.error.message,
    ).toContain("key_pem: must be null");
  });
});

describe("origin, verification, certificates and purge", () => {
  it("points the site at a static-site project, a tunnel, or back at its own origin", async () => {
    const s = await createSite("origin.example");
    expect((await h.api("PUT", `/cdn/sites/${s.id}/origin`, { pages_project_id: 41 })).body).toMatchObject({
      pages_project_id: 41,
      link_tunnel_id: null,
      origin: "203.0.113.10",
    });
    expect((await h.api("PUT", `/cdn/sites/${s.id}/origin`, { link_tunnel_id: 7 })).body).toMatchObject({
      pages_project_id: null,
      link_tunnel_id: 7,
    });
    const both = await h.api("PUT", `/cdn/sites/${s.id}/origin`, { pages_project_id: 1, link_tunnel_id: 2 });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/^link_tunnel_id: cannot be combined with pages_project_id/);
    expect((await h.api("PUT", `/cdn/sites/${s.id}/origin`, { pages_project_id: 0 })).body.error.message).toBe(
      "pages_project_id: must be at least 1",
    );
    expect((await h.api("PUT", `/cdn/sites/${s.id}/origin`, {})).body).toMatchObject({
      pages_project_id: null,
      link_tunnel_id: null,
    });
  });

  it("verifies once public DNS shows the CNAME to the target, then requests the certificate", async () => {
    const s = await createSite("verify.example.org");
    const before = await h.api("POST", `/cdn/sites/${s.id}/verify`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      verified: false,
      cname: null,
      acme_cname: null,
      expected: s.target,
      certificate_requested: false,
    });

    await setPublicDns("verify.example.org", { cname: "somewhere.else.example" });
    expect((await h.api("POST", `/cdn/sites/${s.id}/verify`)).body).toMatchObject({
      verified: false,
      cname: "somewhere.else.example",
    });
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body.verified_at).toBeNull();

    await setPublicDns("verify.example.org", { cname: `${s.target.toUpperCase()}.` });
    await setPublicDns("_acme-challenge.verify.example.org", { cname: s.instructions.records[1].content });
    const ok = await h.api("POST", `/cdn/sites/${s.id}/verify`);
    expect(ok.body).toEqual({
      verified: true,
      cname: s.target,
      acme_cname: s.instructions.records[1].content,
      expected: s.target,
      certificate_requested: true,
    });
    const site = (await h.api("GET", `/cdn/sites/${s.id}`)).body;
    expect(site.verified_at).toMatch(ISO_MS);
    expect(site.has_certificate).toBe(true);

    // verified says what public DNS shows now; verified_at and the certificate stay.
    await setPublicDns("verify.example.org", {});
    expect((await h.api("POST", `/cdn/sites/${s.id}/verify`)).body).toMatchObject({
      verified: false,
      cname: null,
      certificate_requested: true,
    });
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body.verified_at).toBe(site.verified_at);
  });

  it("issues origin certificates from the service's origin CA", async () => {
    const s = await createSite("oc.example");
    const r = await h.api("POST", `/cdn/sites/${s.id}/origin-certificate`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ site_id: s.id, hostnames: ["oc.example"], issuer: "NSP Emulator Origin CA" });
    const cert = new X509Certificate(r.body.certificate);
    expect(cert.checkHost("oc.example")).toBe("oc.example");
    expect(cert.issuer).toContain("NSP Emulator Origin CA");
    expect(cert.checkPrivateKey(createPrivateKey(r.body.private_key))).toBe(true);
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now() + 10 * 365 * 86_400_000);
    expect(r.body.expires_at).toMatch(ISO_MS);
  });

  it("issues an ACME certificate once the _acme-challenge CNAME is delegated", async () => {
    const s = await createSite("acme.example");
    const refused = await h.api("POST", `/cdn/sites/${s.id}/acme`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`expected a CNAME to ${s.instructions.records[1].content}`);
    await setPublicDns("_acme-challenge.acme.example", { cname: s.instructions.records[1].content });
    const ok = await h.api("POST", `/cdn/sites/${s.id}/acme`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      site_id: s.id,
      status: "issued",
      method: "dns-01",
      challenge: { name: "_acme-challenge.acme.example", type: "CNAME" },
    });
    expect((await h.api("GET", `/cdn/sites/${s.id}`)).body.has_certificate).toBe(true);
  });

  it("purges everything or a list of URLs on the site", async () => {
    const s = await createSite("purge.example");
    const all = await h.api("POST", `/cdn/sites/${s.id}/purge`, {});
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ site_id: s.id, scope: "everything", urls: [] });
    const some = await h.api("POST", `/cdn/sites/${s.id}/purge`, {
      urls: ["https://purge.example/a.css", "http://PURGE.example/b?x=1"],
    });
    expect(some.body).toMatchObject({
      scope: "urls",
      urls: ["https://purge.example/a.css", "http://PURGE.example/b?x=1"],
    });
    for (const [urls, msg] of [
      [[], "urls: must not be empty"],
      [["https://other.example/x"], "urls[0]: must be a URL on purge.example"],
      [["https://purge.example/", "/relative"], "urls[1]: must be an absolute http:// or https:// URL"],
      [Array(31).fill("https://purge.example/"), "urls: must have at most 30 items"],
    ] as Array<[string[], string]>) {
      const r = await h.api("POST", `/cdn/sites/${s.id}/purge`, { urls });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(msg);
    }
  });
});

describe("zone-mode sites", () => {
  it("appear when a record is proxied and go when the last one is un-proxied or deleted", async () => {
    const zone = await createZone(h.api, "zm.example");
    const a = (await h.api("POST", `/dns/zones/${zone.id}/records`, { name: "www", type: "A", content: "192.0.2.1" }))
      .body;
    const hostnames = async () => (await h.api("GET", "/cdn/sites?limit=500")).body.data.map((s: any) => s.hostname);
    expect(await hostnames()).not.toContain("www.zm.example");

    await h.api("PATCH", `/dns/zones/${zone.id}/records/${a.id}`, { proxied: true });
    const site = (await h.api("GET", "/cdn/sites?limit=500")).body.data.find(
      (s: any) => s.hostname === "www.zm.example",
    );
    expect(Object.keys(site).sort()).toEqual(SITE_FIELDS);
    expect(site).toMatchObject({
      zone_id: zone.id,
      service_id: cdnService,
      dns_mode: "zone",
      origin: null,
      target: null,
      instructions: null,
      verified_at: null,
      has_certificate: false,
    });

    // A second proxied record of the same name shares the site; settings survive until the last goes.
    const aaaa = (
      await h.api("POST", `/dns/zones/${zone.id}/records`, {
        name: "www",
        type: "AAAA",
        content: "2001:db8::1",
        proxied: true,
      })
    ).body;
    await h.api("PATCH", `/cdn/sites/${site.id}`, { cache_ttl: 42 });
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${a.id}`, { proxied: false });
    expect((await h.api("GET", `/cdn/sites/${site.id}`)).body.cache_ttl).toBe(42);
    await h.api("DELETE", `/dns/zones/${zone.id}/records/${aaaa.id}`);
    expect((await h.api("GET", `/cdn/sites/${site.id}`)).status).toBe(404);
    expect(await hostnames()).not.toContain("www.zm.example");

    // Re-proxying makes a new site with the defaults.
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${a.id}`, { proxied: true });
    const again = (await h.api("GET", "/cdn/sites?limit=500")).body.data.find(
      (s: any) => s.hostname === "www.zm.example",
    );
    expect(again.id).not.toBe(site.id);
    expect(again.cache_ttl).toBe(3600);

    // The apex is a hostname too.
    await h.api("POST", `/dns/zones/${zone.id}/records`, { type: "A", content: "192.0.2.2", proxied: true });
    expect(await hostnames()).toContain("zm.example");
  });

  it("also go when a zone-file import with replace drops their record", async () => {
    const zone = await createZone(h.api, "zm-import.example");
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      name: "www",
      type: "A",
      content: "192.0.2.5",
      proxied: true,
    });
    const hostnames = async () => (await h.api("GET", "/cdn/sites?limit=500")).body.data.map((s: any) => s.hostname);
    expect(await hostnames()).toContain("www.zm-import.example");
    const imp = await h.api("POST", `/dns/zones/${zone.id}/import`, {
      text: "other 300 IN A 192.0.2.6\n",
      mode: "apply",
      replace: true,
    });
    expect(imp.body).toMatchObject({ added: 1, deleted: 1 });
    expect(await hostnames()).not.toContain("www.zm-import.example");
  });

  it("cannot be deleted or CNAME-verified through the site API", async () => {
    const zone = await createZone(h.api, "zm2.example");
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      name: "app",
      type: "CNAME",
      content: "lb.example.net",
      proxied: true,
    });
    const site = (await h.api("GET", "/cdn/sites?limit=500")).body.data.find(
      (s: any) => s.hostname === "app.zm2.example",
    );
    const del = await h.api("DELETE", `/cdn/sites/${site.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error).toMatchObject({ code: "conflict" });
    expect(del.body.error.message).toContain("un-proxy");
    expect((await h.api("POST", `/cdn/sites/${site.id}/verify`)).status).toBe(409);
    const dup = await h.api("POST", "/cdn/sites", { hostname: "app.zm2.example", origin: "203.0.113.1" });
    expect(dup.status).toBe(409);

    // Settings, origin and purge work as on any site; ACME waits for the zone's delegation.
    expect((await h.api("PATCH", `/cdn/sites/${site.id}`, { force_https: true })).body.force_https).toBe(true);
    expect((await h.api("PUT", `/cdn/sites/${site.id}/origin`, { link_tunnel_id: 3 })).body.link_tunnel_id).toBe(3);
    expect((await h.api("POST", `/cdn/sites/${site.id}/acme`)).status).toBe(409);
    await setPublicDns("zm2.example", { ns: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"] });
    const verified = await h.api("POST", `/dns/zones/${zone.id}/verify`);
    expect(verified.body.active).toBe(true);
    const after = (await h.api("GET", `/cdn/sites/${site.id}`)).body;
    expect(after.verified_at).toBe((await h.api("GET", `/dns/zones/${zone.id}`)).body.verified_at);
    expect(after.verified_at).toMatch(ISO_MS);
    expect(after.has_certificate).toBe(true);
    expect((await h.api("POST", `/cdn/sites/${site.id}/acme`)).body).toMatchObject({
      status: "issued",
      challenge: { type: "TXT" },
    });
  });

  it("leave a hostname onboarded by CNAME with that site, and take over when it is deleted", async () => {
    const cname = await createSite("both.zm3.example");
    const zone = await createZone(h.api, "zm3.example");
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      name: "both",
      type: "A",
      content: "192.0.2.3",
      proxied: true,
    });
    const sites = (await h.api("GET", "/cdn/sites?limit=500")).body.data.filter(
      (s: any) => s.hostname === "both.zm3.example",
    );
    expect(sites.map((s: any) => [s.id, s.dns_mode])).toEqual([[cname.id, "cname"]]);
    await h.api("DELETE", `/cdn/sites/${cname.id}`);
    const now = (await h.api("GET", "/cdn/sites?limit=500")).body.data.filter(
      (s: any) => s.hostname === "both.zm3.example",
    );
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({ dns_mode: "zone", zone_id: zone.id });
  });

  it("are deleted with their zone, along with the zone's rules", async () => {
    const zone = await createZone(h.api, "zm4.example");
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      name: "www",
      type: "A",
      content: "192.0.2.4",
      proxied: true,
    });
    const site = (await h.api("GET", "/cdn/sites?limit=500")).body.data.find(
      (s: any) => s.hostname === "www.zm4.example",
    );
    const siteRule = (
      await h.api("POST", "/security/rules", {
        site_id: site.id,
        field: "country",
        op: "in",
        value: "RU",
        action: "block",
      })
    ).body;
    const zoneRule = (
      await h.api("POST", "/security/rules", {
        zone_id: zone.id,
        field: "ip",
        op: "in",
        value: "192.0.2.0/24",
        action: "allow",
      })
    ).body;
    expect((await h.api("DELETE", `/dns/zones/${zone.id}`)).status).toBe(204);
    expect((await h.api("GET", `/cdn/sites/${site.id}`)).status).toBe(404);
    const ids = (await h.api("GET", "/security/rules?limit=500")).body.data.map((r: any) => r.id);
    expect(ids).not.toContain(siteRule.id);
    expect(ids).not.toContain(zoneRule.id);
  });

  it("count in the account's quota usage", async () => {
    const usage = (await h.api("GET", "/account/quota")).body.usage;
    const sites = (await h.api("GET", "/cdn/sites?limit=500")).body.data.length;
    expect(usage.sites).toBe(sites);
    expect(typeof usage.rules).toBe("number");
  });
});

describe("analytics, threats, WAF hits and logs", () => {
  let site: any;
  let rays: string[];
  // One instant for the traffic and the windows asked about it, so they stay minutes apart however long the tests take.
  const now = Date.now();
  beforeAll(async () => {
    site = await createSite("traffic.example");
    const ago = (min: number) => new Date(now - min * 60_000).toISOString();
    rays = addTraffic(h.emu.app.store, site.id, [
      { ts: ago(120), path: "/old", status: 200, cache: "hit", bytes: 100, duration_ms: 10, cc: "FR", asn: 3215 },
      {
        ts: ago(30),
        path: "/login",
        status: 403,
        action: "waf",
        rule: "sqli-942100",
        risk: 90,
        reason: "sqli",
        cc: "CN",
        asn: 4134,
      },
      {
        ts: ago(20),
        path: "/login?id=1",
        status: 403,
        action: "waf",
        rule: "sqli-942100",
        risk: 85,
        reason: "sqli",
        cc: "CN",
        asn: 4134,
      },
      {
        ts: ago(10),
        path: "/admin",
        status: 403,
        action: "netrule_block",
        rule: "rule 12",
        risk: 50,
        reason: "country",
        cc: "RU",
        asn: 12389,
        ip: "203.0.113.50",
      },
      { ts: ago(5), path: "/", status: 200, cache: "hit", bytes: 2000, duration_ms: 30 },
      {
        ts: ago(1),
        path: "/api/x",
        status: 502,
        action: "origin_error",
        duration_ms: 900,
        headers: { host: "traffic.example", "x-test": "yes" },
      },
    ]).map((e) => e.ray);
  });

  it("analytics: exact counters in buckets, top lists and latency", async () => {
    const r = await h.api("GET", `/cdn/sites/${site.id}/analytics?range=1h`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ site_id: site.id, range: "1h", step_seconds: 60 });
    expect(r.body.series).toHaveLength(60);
    expect(r.body.totals).toMatchObject({
      requests: 5,
      cached: 1,
      status: { "2xx": 1, "3xx": 0, "4xx": 3, "5xx": 1 },
      blocked: 3,
    });
    expect(r.body.series.reduce((s: number, b: any) => s + b.requests, 0)).toBe(5);
    expect(r.body.top.countries[0]).toEqual({ value: "CN", count: 2 });
    expect(r.body.latency_ms.p99).toBe(900);
    const day = await h.api("GET", `/cdn/sites/${site.id}/analytics`);
    expect(day.body).toMatchObject({ range: "24h", step_seconds: 300, totals: { requests: 6 } });
    expect(day.body.series).toHaveLength(288);
    expect((await h.api("GET", `/cdn/sites/${site.id}/analytics?range=30d`)).body.error.message).toBe(
      "range: must be one of 1h, 24h, 7d",
    );
  });

  it("threats: shares by risk band, top ASNs, countries and reasons, timeline", async () => {
    const r = await h.api("GET", `/cdn/sites/${site.id}/threats?range=24h`);
    expect(r.body.requests).toBe(6);
    expect(r.body.bands.high).toBeCloseTo(2 / 6);
    expect(r.body.bands.medium).toBeCloseTo(1 / 6);
    expect(r.body.top_asns[0]).toEqual({ value: 4134, count: 2 });
    expect(r.body.top_reasons).toEqual([
      { value: "sqli", count: 2 },
      { value: "country", count: 1 },
    ]);
    expect(r.body.timeline).toHaveLength(24);
    expect((await h.api("GET", `/cdn/sites/${site.id}/threats?range=1h`)).status).toBe(400);
  });

  it("waf/hits: matching firewall rules with one example path each", async () => {
    const r = await h.api("GET", `/cdn/sites/${site.id}/waf/hits?range=1h`);
    expect(r.body.rules).toEqual([
      { rule: "sqli-942100", hits: 2, example_path: "/login?id=1", last_at: expect.stringMatching(ISO_MS) },
    ]);
    expect((await h.api("GET", `/cdn/sites/${site.id}/waf/hits?range=15m`)).body.rules).toEqual([]);
  });

  it("logs: newest first, filtered, cursor-paged, and one request by Ray ID", async () => {
    const all = await h.api("GET", `/cdn/sites/${site.id}/logs`);
    expect(all.body.data.map((e: any) => e.ray)).toEqual([...rays].reverse());
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data[0].headers).toBeUndefined();

    const p1 = await h.api("GET", `/cdn/sites/${site.id}/logs?limit=4`);
    expect(p1.body.data).toHaveLength(4);
    const p2 = await h.api("GET", `/cdn/sites/${site.id}/logs?limit=4&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data.map((e: any) => e.ray)).toEqual([rays[1], rays[0]]);
    expect(p2.body.next_cursor).toBeNull();

    const q = (s: string) =>
      h.api("GET", `/cdn/sites/${site.id}/logs?${s}`).then((r) => r.body.data.map((e: any) => e.path));
    expect(await q("action=waf")).toEqual(["/login?id=1", "/login"]);
    expect(await q("status=4xx")).toEqual(["/admin", "/login?id=1", "/login"]);
    expect(await q("status=502")).toEqual(["/api/x"]);
    expect(await q("cc=ru")).toEqual(["/admin"]);
    expect(await q("ip=203.0.113.50")).toEqual(["/admin"]);
    expect(await q("path=/login")).toEqual(["/login?id=1", "/login"]);
    expect(await q(`ray=${rays[4]}`)).toEqual(["/"]);
    expect(await q(`since=${encodeURIComponent(new Date(now - 15 * 60_000).toISOString())}`)).toEqual([
      "/api/x",
      "/",
      "/admin",
    ]);
    expect(await q(`until=${encodeURIComponent(new Date(now - 60 * 60_000).toISOString())}`)).toEqual(["/old"]);

    const csv = await h.api("GET", `/cdn/sites/${site.id}/logs?format=csv&action=waf`);
    expect(csv.body).toMatchObject({ format: "csv", rows: 2, next_cursor: null });
    const lines = csv.body.text.trim().split("\r\n");
    expect(lines[0]).toMatch(/^ray,ts,ip,cc,asn,/);
    expect(lines).toHaveLength(3);

    for (const [query, msg] of [
      ["action=drop", "action: must be one of pass"],
      ["status=99", "status: must be a status"],
      ["since=yesterday", "since: must be an RFC 3339 timestamp"],
      ["limit=1001", "limit: must be at most 1000"],
      ["format=csv&limit=10001", "limit: must be at most 10000 for csv"],
      ["cursor=zzz", "cursor: is not a cursor"],
      ["colour=red", "colour: unknown field"],
    ]) {
      const r = await h.api("GET", `/cdn/sites/${site.id}/logs?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error.message).toContain(msg);
    }

    const one = await h.api("GET", `/cdn/sites/${site.id}/logs/${rays[5]}`);
    expect(one.body).toMatchObject({ ray: rays[5], path: "/api/x", status: 502, headers: { "x-test": "yes" } });
    expect((await h.api("GET", `/cdn/sites/${site.id}/logs/nope-FRA`)).status).toBe(404);
  });
});

describe("GET /onboard/recommend", () => {
  it("suggests onboarding modes, best first", async () => {
    await setPublicDns("elsewhere.example", { ns: ["NS1.Other-DNS.example.", "ns2.other-dns.example"] });
    const apex = await h.api("GET", "/onboard/recommend?hostname=Elsewhere.example");
    expect(apex.status).toBe(200);
    expect(apex.body).toMatchObject({
      hostname: "elsewhere.example",
      likely_apex: true,
      current_ns: ["ns1.other-dns.example", "ns2.other-dns.example"],
      recommended: "zone",
    });
    expect(apex.body.modes.map((m: any) => m.mode)).toEqual(["zone", "cname"]);

    const sub = await h.api("GET", "/onboard/recommend?hostname=shop.elsewhere.example");
    expect(sub.body).toMatchObject({
      likely_apex: false,
      current_ns: ["ns1.other-dns.example", "ns2.other-dns.example"],
      recommended: "cname",
    });
    expect(sub.body.modes.map((m: any) => m.mode)).toEqual(["cname", "host", "zone"]);

    await createZone(h.api, "hosted-here.example");
    const hosted = await h.api("GET", "/onboard/recommend?hostname=www.hosted-here.example");
    expect(hosted.body.modes[0]).toMatchObject({ mode: "zone" });
    expect(hosted.body.modes[0].note).toContain("hosted-here.example is hosted here");

    expect((await h.api("GET", "/onboard/recommend")).body.error.message).toBe("hostname: is required");
    expect((await h.api("GET", "/onboard/recommend?hostname=-bad-")).status).toBe(400);
  });
});

describe("origin certificates", () => {
  // DER wants an INTEGER's shortest form and OpenSSL refuses any other, so a serial's leading zero
  // bytes must go: a random 16-byte serial starts with 0x00 and then a byte below 0x80 once in 256.
  it("encode any serial as a DER integer that parses, leading zero bytes or high bit", () => {
    const ca = newCaKey();
    const now = Date.parse("2026-01-01T00:00:00Z");
    const serials = ["00", "0000", "0080", "00ff", "80", "7f", "01"].map((head) =>
      Buffer.concat([Buffer.from(head, "hex"), Buffer.alloc(16 - head.length / 2, 0x35)]),
    );
    for (const serial of serials) {
      const issued = issueCertificate(ca, ["cert.example"], now, serial);
      expect(
        certificateProblem(issued.certificate, issued.private_key, "cert.example", now),
        serial.toString("hex"),
      ).toBeNull();
      expect(BigInt(`0x${new X509Certificate(issued.certificate).serialNumber}`)).toBe(
        BigInt(`0x${serial.toString("hex")}`),
      );
    }
  });

  it("draw 16-byte serials whose first byte is 0x01 to 0x7f, so none has a zero byte to drop", () => {
    const firsts = new Set(
      Array.from({ length: 4000 }, () => randomSerial()).map((s) => {
        expect(s).toHaveLength(16);
        return s[0]!;
      }),
    );
    expect(Math.min(...firsts)).toBeGreaterThanOrEqual(0x01);
    expect(Math.max(...firsts)).toBeLessThanOrEqual(0x7f);
  });
});
