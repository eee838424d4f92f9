// Edge sites (cname mode), the settings of zone-mode sites and site verification, driven
// through the built plugin binary over gRPC against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import { initFailure, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const SITE = "nsp:cdn:Site";
const SETTINGS = "nsp:cdn:SiteSettings";
const VERIFY = "nsp:cdn:SiteVerification";

type Obj = Record<string, unknown>;

// Self-signed EC certificates for cdn-test.example and *.cdn-test.example, valid until 2126
// (openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -days 36500 ...).
const CERT_A = `-----BEGIN CERTIFICATE-----
MIIBvzCCAWagAwIBAgIUfOvTtVN1+uuXY1MH1hQoOzxPPh4wCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQY2RuLXRlc3QuZXhhbXBsZTAgFw0yNjExMjExMTU2MjNaGA8y
MTI2MTAyODExNTYyM1owGzEZMBcGA1UEAwwQY2RuLXRlc3QuZXhhbXBsZTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABB8TTIC8iK5AF08/p4Q4nknxkA8i/PCcLNUo
rjpv+R7BWp9OOCWv7i1DcQQs1a/5lcb8MQNrM90qebfnpqpBirqjgYUwgYIwHQYD
VR0OBBYEFBWVzJFC9914qB4C4eHCP10o93ZRMB8GA1UdIwQYMBaAFBWVzJFC9914
qB4C4eHCP10o93ZRMA8GA1UdEwEB/wQFMAMBAf8wLwYDVR0RBCgwJoIQY2RuLXRl
c3QuZXhhbXBsZYISKi5jZG4tdGVzdC5leGFtcGxlMAoGCCqGSM49BAMCA0cAMEQC
IBZoTiErqyZBzEGeYjvOPfU9W/ALHGpaKUjnaDC/zkXBAiAWLP6YEANEmeZiF9BN
ggBrpUUN9trnyZK0xhYBdtZhiw==
-----END CERTIFICATE-----
`;
const KEY_A = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAhYJiPSwhhM12/XY
jOG8k7J774JcYnlHaH2SweEuXU2hRANCAAQfE0yAvIiuQBdPP6eEOJ5J8ZAPIvzw
nCzVKK46b/kewVqfTjglr+4tQ3EELNWv+ZXG/DEDazPdKnm356aqQYq6
-----END PRIVATE KEY-----
`;
const CERT_B = `-----BEGIN CERTIFICATE-----
MIIBvzCCAWagAwIBAgIUAO/I23AZgLTWtABLlxNmrmBp5ZUwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQY2RuLXRlc3QuZXhhbXBsZTAgFw0yNjExMjExMTU2MjNaGA8y
MTI2MTAyODExNTYyM1owGzEZMBcGA1UEAwwQY2RuLXRlc3QuZXhhbXBsZTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABE6S7pe17jft2eF0Dqp1YjV6ZNMn99TnHFvM
mShTgIeyhbmd9YmiGerayh4yNXwxHySC3tcbRaZ5BDkC1XKLnAujgYUwgYIwHQYD
VR0OBBYEFFVB9wd6f2ewjcTswNMdgUOGxsbxMB8GA1UdIwQYMBaAFFVB9wd6f2ew
jcTswNMdgUOGxsbxMA8GA1UdEwEB/wQFMAMBAf8wLwYDVR0RBCgwJoIQY2RuLXRl
c3QuZXhhbXBsZYISKi5jZG4tdGVzdC5leGFtcGxlMAoGCCqGSM49BAMCA0cAMEQC
IGNBxq9gRZyAWsOxQrC+25hnTvCXgVYxGJ+/9PS8kDyfAiBVgW3lGNgrjfXTHwVf
ILXz5oUd+XSoMl1GqnrXgrg4Ow==
-----END CERTIFICATE-----
`;
const KEY_B = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7wALqYP8eUk9ty+U
buXjbMfVWPEsRokAqT+r6RG/WYShRANCAAROku6Xte437dnhdA6qdWI1emTTJ/fU
5xxbzJkoU4CHsoW5nfWJohnq2soeMjV8MR8kgt7XG0WmeQQ5AtVyi5wL
-----END PRIVATE KEY-----
`;

const provider = useProvider({ account: "cdn" });
const { control, plugin, checked, previewSendsNothing } = provider;
let cdnServiceId: string;
let dnsServiceId: string;

beforeAll(async () => {
  const services = await control.services();
  cdnServiceId = String(services.find((s) => s.type === "cdn")!.id);
  dnsServiceId = String(services.find((s) => s.type === "auth_dns")!.id);
});

/** Create in preview: no request reaches the API, and API-only outputs are unknown. */

function setPublicCname(name: string, cname: string | null): Promise<Response> {
  return fetch(`${control.root}/_emulator/public-dns`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, cname }),
  });
}

/** A zone hosted here with one proxied A record, which makes a zone-mode site for `<name>.<zone>`. */
async function proxiedRecord(
  zoneName: string,
  name: string,
): Promise<{ zoneId: number; recordId: number; hostname: string }> {
  const zone = await control.post<{ id: number }>("/dns/zones", { service_id: Number(dnsServiceId), name: zoneName });
  const rec = await control.post<{ id: number }>(`/dns/zones/${zone.id}/records`, {
    name,
    type: "A",
    content: "192.0.2.80",
    proxied: true,
  });
  return { zoneId: zone.id, recordId: rec.id, hostname: `${name}.${zoneName}` };
}

let walks = 0;
const base = { hostname: "ok.cdn-test.example", origin: "203.0.113.1" };
lifecycle(provider, [
  {
    type: SITE,
    create: { hostname: "walk.cdn-test.example", origin: "203.0.113.21", cacheTtl: 300 },
    unknownOutput: "target",
    update: { cacheTtl: 600, forceHttps: true, waf: { enabled: true, mode: "block" } },
    replace: { origin: "203.0.113.22" },
    apiPath: (_inputs, id) => `/cdn/sites/${id}`,
    // botFight was never set by the program: not drift. The origin is managed ("none" = own origin).
    drift: {
      body: { cache_ttl: 5, bot_fight: true },
      also: [{ method: "PUT", path: "/origin", body: { pages_project_id: 9 } }],
      inputs: { cacheTtl: 5, pagesProjectId: "9" },
      properties: { botFight: true },
      ignored: ["botFight"],
      repaired: { cacheTtl: 300, pagesProjectId: null, botFight: true },
    },
    bad: [
      [{ ...base, hostname: "not a host" }, "hostname"],
      [{ ...base, hostname: "localhost" }, "hostname"],
      [{ ...base, origin: "https://203.0.113.1/" }, "origin"],
      [{ ...base, origin: "OK.cdn-test.example" }, "origin"],
      [{ ...base, originScheme: "ftp" }, "originScheme"],
      [{ ...base, serviceId: "cdn" }, "serviceId"],
      [{ ...base, cacheTtl: -1 }, "cacheTtl"],
      [{ ...base, cacheMode: "everything" }, "cacheMode"],
      [{ ...base, waf: { mode: "log" } }, "waf.enabled"],
      [{ ...base, waf: { enabled: true, mode: "deny" } }, "waf.mode"],
      [{ ...base, waitingRoom: { capacity: 10, sessionMin: 0 } }, "waitingRoom.sessionMin"],
      [{ ...base, sense: { enabled: true, threshold: 101 } }, "sense.threshold"],
      [{ ...base, keyPem: KEY_A }, "keyPem"],
      [{ ...base, certPem: CERT_A }, "keyPem"],
      [{ ...base, pagesProjectId: "1", linkTunnelId: "2" }, "linkTunnelId"],
      [{ ...base, wafMode: "log" }, "wafMode"],
      [{ origin: "203.0.113.1" }, "hostname"],
    ],
  },
  {
    type: SITE,
    create: {
      hostname: "WWW.cdn-test.example.",
      origin: "Origin.Example.NET",
      waf: { enabled: true },
      cacheTtl: 600,
      cacheMode: "all",
      forceHttps: true,
      waitingRoom: { capacity: 100, sessionMin: 5 },
      sense: { enabled: true, threshold: 70 },
      certPem: CERT_A,
      keyPem: secret(KEY_A),
    },
    checkedAs: (given) => ({
      ...given,
      hostname: "www.cdn-test.example",
      origin: "origin.example.net",
      originScheme: "http",
      pagesProjectId: null,
      linkTunnelId: null,
      waf: { enabled: true, mode: "block" },
      sense: { enabled: true, action: "challenge", threshold: 70 },
      forceDestroy: false,
    }),
    unknownOutput: "target",
    idPattern: /^\d+$/,
    outputs: (_inputs, id) => ({
      serviceId: cdnServiceId,
      originHostHeader: false,
      hasCertificate: true,
      dnsMode: "cname",
      zoneId: null,
      verifiedAt: null,
      target: `www-cdn-test-example-${id}.edge.nsp-emulator.test`,
      instructions: {
        mode: "cname",
        addIn: "cdn-test.example",
        records: [
          { name: "www.cdn-test.example", type: "CNAME", content: `www-cdn-test-example-${id}.edge.nsp-emulator.test` },
          { type: "CNAME" },
        ],
      },
    }),
    // Read keeps the key, which the API never returns (still a secret), and sees nothing else change.
    stableReads: true,
    update: [
      // Settings, the certificate and the origin change in place.
      {
        inputs: {
          cacheTtl: 60,
          waf: { enabled: true, mode: "log" },
          rateLimit: 300,
          certPem: CERT_B,
          keyPem: secret(KEY_B),
          pagesProjectId: "41",
        },
        outputs: { linkTunnelId: null },
        requests: { "PATCH /cdn/sites/:id": 1, "PUT /cdn/sites/:id/origin": 1 },
      },
      // Dropping the certificate removes it; switching to a tunnel works through PUT origin.
      {
        inputs: { certPem: undefined, keyPem: undefined, pagesProjectId: null, linkTunnelId: "7" },
        outputs: { certPem: null, hasCertificate: false },
        apiObject: { link_tunnel_id: 7 },
      },
    ],
    // hostname, origin and serviceId cannot be patched: replace, deleting first (one site per hostname).
    replace: [
      { inputs: { origin: "203.0.113.9" }, deleteBeforeReplace: true },
      { inputs: { hostname: "api.cdn-test.example" }, deleteBeforeReplace: false },
    ],
    // Without the certificate, which was dropped, nor originScheme, left at its default.
    imported: () => ({
      hostname: "www.cdn-test.example",
      origin: "origin.example.net",
      serviceId: cdnServiceId,
      cacheTtl: 60,
      cacheHtmlTtl: 0,
      cacheMode: "all",
      forceHttps: true,
      botFight: false,
      underAttack: false,
      originHostHeader: false,
      rateLimit: 300,
      linkTunnelId: "7",
      waf: { enabled: true, mode: "log" },
      sense: { enabled: true, action: "challenge", threshold: 70 },
      waitingRoom: { capacity: 100, sessionMin: 5 },
    }),
    badImportIds: () => [
      ["www.cdn-test.example", /is not a site id; a site is known by its numeric id \(<siteId>, such as 42\)/],
    ],
    apiPath: (_inputs, id) => `/cdn/sites/${id}`,
    skip: { drift: "the row above", bad: "the row above" },
  },
  {
    type: SETTINGS,
    create: async () => ({
      hostname: (await proxiedRecord(`walk-zs${++walks}.example`, "www")).hostname,
      cacheTtl: 120,
    }),
    unknownOutput: "dnsMode",
    update: { cacheTtl: 30, underAttack: true },
    replace: { hostname: "api.zs.example" },
    apiPath: (_inputs, id) => `/cdn/sites/${id}`,
    drift: { body: { cache_ttl: 999 }, inputs: { cacheTtl: 999 } },
    bad: [
      [{ hostname: "bad host" }, "hostname"],
      [{}, "hostname"],
      [{ hostname: "www.zs.example", rateLimit: -5 }, "rateLimit"],
      [{ hostname: "www.zs.example", keyPem: KEY_A }, "keyPem"],
      [{ hostname: "www.zs.example", pagesProjectId: "3", linkTunnelId: "4" }, "linkTunnelId"],
      [{ hostname: "www.zs.example", origin: "203.0.113.1" }, "origin"],
    ],
    skip: {
      delete: "the zone-mode site belongs to its proxied record: the delete leaves it in place (checked below)",
      "drift delete": "a zone-mode site goes when its record stops being proxied (checked below)",
    },
  },
  {
    type: VERIFY,
    create: async () => {
      const hostname = `walk${++walks}.cdn-test.example`;
      const site = await control.post<{ id: number; target: string }>("/cdn/sites", {
        hostname,
        origin: "203.0.113.52",
      });
      await setPublicCname(hostname, site.target);
      return { siteId: String(site.id), timeoutSeconds: 1, pollIntervalSeconds: 0.2 };
    },
    unknownOutput: "verified",
    update: { timeoutSeconds: 600 },
    replace: { siteId: "12345" },
    apiPath: (_inputs, id) => `/cdn/sites/${id}`,
    // How long to wait is the provider's, never the API's.
    writeOnly: ["timeoutSeconds", "pollIntervalSeconds"],
    bad: [
      [{}, "siteId"],
      [{ siteId: "abc" }, "siteId"],
      [{ siteId: "1", timeoutSeconds: 0 }, "timeoutSeconds"],
      [{ siteId: "1", pollIntervalSeconds: 0 }, "pollIntervalSeconds"],
    ],
    skip: {
      delete: "a verification is a fact about its site: the delete leaves the site verified (checked below)",
      "drift edit": "the API cannot unverify a site",
    },
  },
]);

describe("nsp:cdn:Site over gRPC", () => {
  it("keeps a site whose settings failed after the create, as Pulumi's initialization error", async () => {
    // The certificate does not cover this hostname: the API refuses the PATCH after the POST.
    const inputs = await checked(SITE, {
      hostname: "partial.other.example",
      origin: "203.0.113.30",
      certPem: CERT_A,
      keyPem: secret(KEY_A),
    });
    const err = (await plugin.create(SITE, "pf", inputs).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    ))!;
    expect(err.message).toMatch(
      /validation_error.*cert_pem: the certificate does not cover partial\.other\.example.*the object (\d+) exists/,
    );
    expect(err.message).not.toContain("PRIVATE KEY");
    const partial = initFailure(err);
    expect(partial.properties).toMatchObject({ hostname: "partial.other.example" });
    expect(JSON.stringify(partial.properties)).not.toContain("PRIVATE KEY");
    expect((await control.get<Obj>(`/cdn/sites/${partial.id}`)).hostname).toBe("partial.other.example");
  });
});

describe("nsp:cdn:SiteSettings over gRPC", () => {
  it("adopts a zone-mode site by hostname, manages its settings and leaves it in place on delete", async () => {
    const { zoneId, recordId, hostname } = await proxiedRecord("zs.example", "www");
    const site = (await control.list<{ id: number; hostname: string }>("/cdn/sites")).find(
      (s) => s.hostname === hostname,
    )!;

    const inputs = await checked(SETTINGS, {
      hostname: "WWW.zs.example",
      cacheTtl: 120,
      forceHttps: true,
      waf: { enabled: true },
    });
    expect(inputs).toEqual({
      hostname,
      cacheTtl: 120,
      forceHttps: true,
      waf: { enabled: true, mode: "block" },
      pagesProjectId: null,
      linkTunnelId: null,
    });
    await previewSendsNothing(SETTINGS, inputs, "dnsMode");

    const created = await plugin.create(SETTINGS, "ss", inputs);
    expect(created.id).toBe(String(site.id));
    expect(created.properties).toMatchObject({
      hostname,
      dnsMode: "zone",
      zoneId: String(zoneId),
      serviceId: cdnServiceId,
      cacheTtl: 120,
      forceHttps: true,
      waf: { enabled: true, mode: "block" },
      originScheme: "http",
    });
    const read = await plugin.read(SETTINGS, "ss", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(SETTINGS, "ss", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(SETTINGS, { ...inputs, cacheTtl: 30, underAttack: true, linkTunnelId: "12" });
    const d = await plugin.diff(SETTINGS, "ss", created.id, read.properties, changed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["cacheTtl", "linkTunnelId", "underAttack"]);
    const updated = await plugin.update(SETTINGS, "ss", created.id, read.properties, changed, false, inputs);
    expect(updated).toMatchObject({ cacheTtl: 30, underAttack: true, linkTunnelId: "12" });
    expect(
      (await plugin.diff(SETTINGS, "ss", created.id, updated, { ...changed, hostname: "api.zs.example" }, changed))
        .replaces,
    ).toEqual(["hostname"]);

    // Import by the site's id, then Check and a no-change Diff.
    const imported = await plugin.read(SETTINGS, "imp", created.id);
    expect(imported.inputs).toMatchObject({ hostname, cacheTtl: 30, underAttack: true, linkTunnelId: "12" });
    const importCheck = await checked(SETTINGS, imported.inputs);
    expect(
      (await plugin.diff(SETTINGS, "imp", imported.id, imported.properties, importCheck, imported.inputs)).changes,
    ).toBe(false);

    // Drift through the API shows on Read and in Diff.
    await control.patch(`/cdn/sites/${created.id}`, { cache_ttl: 999 });
    const drift = await plugin.read(SETTINGS, "ss", created.id, updated, changed);
    expect(drift.properties.cacheTtl).toBe(999);
    expect((await plugin.diff(SETTINGS, "ss", created.id, drift.properties, changed, drift.inputs)).diffs).toEqual([
      "cacheTtl",
    ]);

    // Delete leaves the site (and says so); un-proxying the record is what removes it.
    const logsBefore = plugin.engineLogs.length;
    await control.resetStats();
    await plugin.delete(SETTINGS, "ss", created.id, updated);
    expect((await control.stats()).total).toBe(0);
    expect((await control.get<Obj>(`/cdn/sites/${created.id}`)).hostname).toBe(hostname);
    expect(plugin.engineLogs.slice(logsBefore).join("\n")).toMatch(/left in place/);
    await control.patch(`/dns/zones/${zoneId}/records/${recordId}`, { proxied: false });
    expect((await plugin.read(SETTINGS, "ss", created.id, updated, changed)).id).toBe("");
  });

  it("explains what is wrong when there is no zone-mode site for the hostname", async () => {
    await expect(
      plugin.create(SETTINGS, "none", await checked(SETTINGS, { hostname: "nothing.zs-missing.example" })),
    ).rejects.toThrow(/no edge site for nothing\.zs-missing\.example in this account.*proxied: true/);
    const cname = await plugin.create(
      SITE,
      "c",
      await checked(SITE, { hostname: "cname.cdn-test.example", origin: "203.0.113.40" }),
    );
    await expect(
      plugin.create(SETTINGS, "c", await checked(SETTINGS, { hostname: "cname.cdn-test.example" })),
    ).rejects.toThrow(/is a cname-mode site; manage it with nsp:cdn:Site/);
    await expect(plugin.read(SETTINGS, "c", cname.id)).rejects.toThrow(/cname-mode site/);
    const { hostname } = await proxiedRecord("zs2.example", "app");
    const zoneSite = (await control.list<{ id: number; hostname: string }>("/cdn/sites")).find(
      (s) => s.hostname === hostname,
    )!;
    await expect(plugin.read(SITE, "z", String(zoneSite.id))).rejects.toThrow(/zone-mode site.*nsp:cdn:SiteSettings/);
  });
});

describe("nsp:cdn:SiteVerification over gRPC", () => {
  it("waits for the CNAME, then reports the site verified with its certificate requested", async () => {
    const site = await plugin.create(
      SITE,
      "v",
      await checked(SITE, { hostname: "verify.cdn-test.example", origin: "203.0.113.50" }),
    );
    const target = site.properties.target as string;

    const inputs = await checked(VERIFY, { siteId: site.id, timeoutSeconds: 1, pollIntervalSeconds: 0.2 });
    expect(inputs).toEqual({ siteId: site.id, timeoutSeconds: 1, pollIntervalSeconds: 0.2 });
    await previewSendsNothing(VERIFY, inputs, "verified");

    // Nothing in public DNS yet: the wait times out and says what was seen and expected.
    const err = await plugin.create(VERIFY, "v", inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      new RegExp(
        `site ${site.id} is not verified after 1s \\(\\d+ checks\\): public DNS shows no CNAME \\(seen\\), expected a CNAME to ${target.replace(/\./g, "\\.")}`,
      ),
    );
    await setPublicCname("verify.cdn-test.example", "wrong.example.net");
    const err2 = await plugin.create(VERIFY, "v", inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err2?.message).toContain("public DNS shows a CNAME to wrong.example.net (seen)");

    await setPublicCname("verify.cdn-test.example", target);
    const created = await plugin.create(VERIFY, "v", inputs);
    expect(created.id).toBe(site.id);
    expect(created.properties).toMatchObject({
      siteId: site.id,
      verified: true,
      certificateRequested: true,
      expected: target,
    });
    expect(created.properties.verifiedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const read = await plugin.read(VERIFY, "v", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(VERIFY, "v", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // The wait settings change in place without a request; another site replaces.
    const slower = await checked(VERIFY, { ...inputs, timeoutSeconds: 600 });
    expect(await plugin.diff(VERIFY, "v", created.id, read.properties, slower, inputs)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["timeoutSeconds"],
    });
    await control.resetStats();
    expect(await plugin.update(VERIFY, "v", created.id, read.properties, slower, false, inputs)).toMatchObject({
      timeoutSeconds: 600,
      verified: true,
    });
    expect((await control.stats()).total).toBe(0);
    expect(
      (await plugin.diff(VERIFY, "v", created.id, read.properties, { ...inputs, siteId: "12345" }, inputs)).replaces,
    ).toEqual(["siteId"]);

    const imported = await plugin.read(VERIFY, "imp", created.id);
    expect(imported.inputs).toEqual({ siteId: site.id });
    const importCheck = await checked(VERIFY, imported.inputs);
    expect(
      (await plugin.diff(VERIFY, "imp", imported.id, imported.properties, importCheck, imported.inputs)).changes,
    ).toBe(false);

    // Delete does nothing to the site.
    await control.resetStats();
    await plugin.delete(VERIFY, "v", created.id, created.properties);
    expect((await control.stats()).total).toBe(0);
    expect((await control.get<Obj>(`/cdn/sites/${site.id}`)).verified_at).toBe(created.properties.verifiedAt);

    // The site deleted through the API: the verification is gone too.
    await control.delete(`/cdn/sites/${site.id}`);
    expect((await plugin.read(VERIFY, "v", created.id, created.properties, inputs)).id).toBe("");
  });

  it("reads an unverified site as not there yet", async () => {
    const site = await plugin.create(
      SITE,
      "nv",
      await checked(SITE, { hostname: "unverified.cdn-test.example", origin: "203.0.113.51" }),
    );
    expect((await plugin.read(VERIFY, "nv", site.id)).id).toBe("");
    await expect(plugin.read(VERIFY, "nv", "abc")).rejects.toThrow(
      /is not a site id; a site is known by its numeric id \(<siteId>, such as 42\)/,
    );
  });
});
