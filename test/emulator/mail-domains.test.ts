// The mail area of the emulator over HTTP: BYO servers, and domains with the records they publish
// into hosted zones.
import { describe, expect, it } from "vitest";
import { reportSelfCheck } from "../../emulator/src/mail/state";
import { createZone, expectError, ISO_MS } from "../helpers/emulator-http";
import { useMailAccounts } from "../helpers/emulator-mail";

const h = useMailAccounts();
const { ro, other, created, newDomain, zoneRecords, newServer, newMailbox } = h;

describe("BYO mail servers", () => {
  it("registers a server and shows the install command only on create and rotation", async () => {
    const r = await h.api("POST", "/mail/servers", { name: " mx-home ", ip4: "192.0.2.25", ip6: "2001:DB8::25" });
    expect(r.status).toBe(201);
    const s = r.body;
    expect(Object.keys(s).sort()).toEqual(
      [
        "id",
        "name",
        "ip4",
        "ip6",
        "hostname",
        "status",
        "last_check",
        "domain_ids",
        "token_issued_at",
        "created_at",
        "install_command",
      ].sort(),
    );
    expect(s).toMatchObject({
      name: "mx-home",
      ip4: "192.0.2.25",
      ip6: "2001:db8::25",
      status: "waiting",
      last_check: null,
      domain_ids: [],
    });
    expect(s.id).toMatch(/^srv_[0-9a-f]{12}$/);
    expect(s.hostname).toBe(`${s.id.replace("_", "-")}.byo.mail.nsp-emulator.test`);
    expect(s.created_at).toMatch(ISO_MS);
    expect(s.install_command).toMatch(new RegExp(`--server ${s.id} --token mst_[0-9a-f]{32}$`));

    const got = await h.api("GET", `/mail/servers/${s.id}`);
    expect(got.status).toBe(200);
    const { install_command: _cmd, ...view } = s;
    expect(got.body).toEqual(view);
    expect(got.text).not.toContain("mst_");
    expect((await h.api("GET", "/mail/servers")).body.data.map((x: any) => x.id)).toContain(s.id);

    const rotated = await h.api("POST", `/mail/servers/${s.id}/token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.install_command).toMatch(/--token mst_[0-9a-f]{32}$/);
    expect(rotated.body.install_command).not.toBe(s.install_command);
    expect((await h.api("GET", `/mail/servers/${s.id}`)).text).not.toContain("mst_");

    reportSelfCheck(h.emu.app.store, s.id, { port25: true, ptr: s.hostname });
    const checked = (await h.api("GET", `/mail/servers/${s.id}`)).body;
    expect(checked).toMatchObject({ status: "online", last_check: { ok: true, port25: true, ptr: s.hostname } });
  });

  it("validates the body and keeps servers per account", async () => {
    const cases: [unknown, string | RegExp][] = [
      [{ ip4: "192.0.2.1" }, "name: is required"],
      [{ name: "  ", ip4: "192.0.2.1" }, "name: must not be empty"],
      [{ name: "x" }, "ip4: is required"],
      [{ name: "x", ip4: "2001:db8::1" }, "ip4: must be an IPv4 address"],
      [{ name: "x", ip4: "192.0.2.1", ip6: "192.0.2.1" }, "ip6: must be an IPv6 address"],
      [{ name: "x", ip4: "192.0.2.1", port: 25 }, "port: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", "/mail/servers", body), 400, "validation_error", message);
    const s = await newServer();
    expectError(await other("GET", `/mail/servers/${s.id}`), 404, "not_found");
    expectError(await other("POST", `/mail/servers/${s.id}/token`), 404, "not_found");
    expectError(await ro("POST", "/mail/servers", { name: "x", ip4: "192.0.2.1" }), 403, "forbidden");
    expect((await ro("GET", `/mail/servers/${s.id}`)).status).toBe(200);
  });

  it("refuses to delete a server while domains use it, naming them", async () => {
    const s = await newServer();
    const a = await newDomain({ server_id: s.id });
    const b = await newDomain({ server_id: s.id });
    expect((await h.api("GET", `/mail/servers/${s.id}`)).body.domain_ids).toEqual([a.domain.id, b.domain.id]);
    const refused = await h.api("DELETE", `/mail/servers/${s.id}`);
    expectError(
      refused,
      409,
      "conflict",
      `mail server ${s.id} (${s.name}) is used by mail domain(s) ${a.domain.name} (id ${a.domain.id}), ` +
        `${b.domain.name} (id ${b.domain.id}); delete those domains first`,
    );
    expect((await h.api("DELETE", `/mail/domains/${a.domain.id}`)).status).toBe(204);
    expectError(
      await h.api("DELETE", `/mail/servers/${s.id}`),
      409,
      "conflict",
      new RegExp(`${b.domain.name} \\(id ${b.domain.id}\\); delete`),
    );
    expect((await h.api("DELETE", `/mail/domains/${b.domain.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/mail/servers/${s.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/mail/servers/${s.id}`), 404, "not_found");
  });

  it("reports deliverability with advice", async () => {
    const s = await newServer();
    await newDomain({ server_id: s.id });
    const before = (await h.api("GET", `/mail/servers/${s.id}/deliverability`)).body;
    expect(before).toMatchObject({
      server_id: s.id,
      checked_at: null,
      ptr: { expected: s.hostname, seen: null, ok: false },
      port25: { ok: null },
    });
    expect(before.spf[0].status).toBe("unchecked");
    expect(before.advice.join(" ")).toMatch(/run the install command/);
    reportSelfCheck(h.emu.app.store, s.id, { port25: false, ptr: "host.isp.example" });
    const after = (await h.api("GET", `/mail/servers/${s.id}/deliverability`)).body;
    expect(after.ptr).toEqual({ expected: s.hostname, seen: "host.isp.example", ok: false });
    expect(after.advice.join(" ")).toMatch(/PTR record .*port 25/);
  });
});

describe("mail domains", () => {
  it("publishes MX, SPF, DKIM, DMARC and the TLS policy into the hosted zone", async () => {
    const zone = await createZone(h.api, "acme-mail.example");
    const serial = zone.serial;
    const other = await created("POST", `/dns/zones/${zone.id}/records`, {
      type: "A",
      name: "www",
      content: "192.0.2.80",
    });
    const r = await h.api("POST", "/mail/domains", { zone_id: zone.id, name: "Acme-Mail.Example." });
    expect(r.status).toBe(201);
    const d = r.body;
    expect(Object.keys(d).sort()).toEqual(
      [
        "id",
        "name",
        "zone_id",
        "zone_name",
        "server_id",
        "byo",
        "mode",
        "enabled",
        "catch_all",
        "default_quota_bytes",
        "dmarc_policy",
        "backup_enabled",
        "dkim_selector",
        "records",
        "checked_at",
        "created_at",
      ].sort(),
    );
    expect(d).toMatchObject({
      name: "acme-mail.example",
      zone_id: zone.id,
      zone_name: "acme-mail.example",
      server_id: null,
      byo: false,
      mode: "mailbox",
      enabled: true,
      catch_all: null,
      default_quota_bytes: 5 * 1024 ** 3,
      dmarc_policy: "none",
      backup_enabled: false,
      dkim_selector: "nsp1",
      checked_at: null,
    });
    expect(d.records.map((x: any) => [x.kind, x.name, x.type])).toEqual([
      ["mx", "acme-mail.example", "MX"],
      ["mx", "acme-mail.example", "MX"],
      ["spf", "acme-mail.example", "TXT"],
      ["dkim", "nsp1._domainkey.acme-mail.example", "TXT"],
      ["dmarc", "_dmarc.acme-mail.example", "TXT"],
      ["tls_policy", "_mta-sts.acme-mail.example", "TXT"],
      ["tls_policy", "mta-sts.acme-mail.example", "CNAME"],
      ["tls_rpt", "_smtp._tls.acme-mail.example", "TXT"],
    ]);
    for (const rec of d.records)
      expect(rec).toMatchObject({ ttl: 3600, status: "published", record_id: expect.any(Number) });
    expect(d.records[0].content).toBe("10 mx1.mail.nsp-emulator.test");
    expect(d.records[2].content).toBe("v=spf1 include:_spf.mail.nsp-emulator.test -all");
    expect(d.records[3].content).toMatch(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
    expect(d.records[4].content).toBe(`v=DMARC1; p=none; rua=mailto:dmarc-reports+${d.id}@mail.nsp-emulator.test`);
    expect(d.records[5].content).toMatch(/^v=STSv1; id=\d{14}$/);

    const records = await zoneRecords(zone.id);
    expect(records.map((x) => x.id).sort()).toEqual([other.id, ...d.records.map((x: any) => x.record_id)].sort());
    const dmarcRow = records.find((x) => x.id === d.records[4].record_id);
    expect(dmarcRow).toMatchObject({ name: "_dmarc", type: "TXT", content: d.records[4].content, ttl: 3600 });
    expect((await h.api("GET", `/dns/zones/${zone.id}`)).body.serial).toBeGreaterThan(serial);

    expect((await h.api("GET", `/mail/domains/${d.id}`)).body).toEqual(d);
    expect((await h.api("GET", `/mail/domains/${d.id}/records`)).body).toEqual({
      domain_id: d.id,
      name: d.name,
      checked_at: null,
      records: d.records,
    });
    expect((await h.api("GET", "/mail/domains")).body.data.map((x: any) => x.id)).toContain(d.id);

    // Deleting the domain removes exactly the records it published.
    expect((await h.api("DELETE", `/mail/domains/${d.id}`)).status).toBe(204);
    expect((await zoneRecords(zone.id)).map((x) => x.id)).toEqual([other.id]);
    expectError(await h.api("GET", `/mail/domains/${d.id}`), 404, "not_found");
  });

  it("publishes a subdomain's records relative to its zone, and records for a zone hosted elsewhere are only listed", async () => {
    const zone = await createZone(h.api, "parent-mail.example");
    const sub = await created("POST", "/mail/domains", {
      zone_id: zone.id,
      name: "lists.parent-mail.example",
      mode: "both",
    });
    expect(sub).toMatchObject({ zone_name: "parent-mail.example", mode: "both" });
    const names = (await zoneRecords(zone.id)).map((x) => x.name);
    expect(names).toEqual([
      "lists",
      "lists",
      "lists",
      "nsp1._domainkey.lists",
      "_dmarc.lists",
      "_mta-sts.lists",
      "mta-sts.lists",
      "_smtp._tls.lists",
    ]);

    const ext = await created("POST", "/mail/domains", {
      name: "news.external.example",
      zone_name: "external.example",
    });
    expect(ext).toMatchObject({ zone_id: null, zone_name: "external.example" });
    expect(ext.records.map((x: any) => x.status)).toEqual(Array(8).fill("not_published"));
    expect(ext.records[4].name).toBe("_dmarc.news.external.example");
    expectError(await h.api("POST", `/mail/domains/${ext.id}/records`), 409, "conflict", /not in a zone hosted here/);
    const bare = await created("POST", "/mail/domains", { name: "bare.example" });
    expect(bare.zone_name).toBe("bare.example");
  });

  it("validates the create body", async () => {
    const zone = await createZone(h.api, "validate-mail.example");
    const foreignZone = (
      await other("POST", "/dns/zones", {
        service_id: (await other("GET", "/services")).body.data.find((s: any) => s.type === "auth_dns").id,
        name: "foreign.example",
      })
    ).body;
    const foreignServer = (await other("POST", "/mail/servers", { name: "x", ip4: "192.0.2.1" })).body;
    const cases: [unknown, string | RegExp][] = [
      [{}, "name: is required"],
      [{ name: "not a domain" }, "name: must be a domain name such as example.com"],
      [{ name: "com" }, "name: must be a domain name such as example.com"],
      [{ name: "x.example", zone_id: "1" }, "zone_id: must be an integer"],
      [{ name: "x.example", zone_id: foreignZone.id }, `zone_id: no zone ${foreignZone.id} in this account`],
      [
        { name: "elsewhere.example", zone_id: zone.id },
        "name: elsewhere.example is not inside zone validate-mail.example",
      ],
      [
        { name: "validate-mail.example", zone_id: zone.id, zone_name: "other.example" },
        `zone_name: must be the name of zone ${zone.id} (validate-mail.example) or left out`,
      ],
      [{ name: "a.example", zone_name: "b.example" }, "name: a.example is not inside zone b.example"],
      [
        { name: "x.example", server_id: foreignServer.id },
        `server_id: no mail server ${foreignServer.id} in this account`,
      ],
      [{ name: "x.example", mode: "relay" }, "mode: must be one of mailbox, forward, both"],
      [{ name: "x.example", enabled: false }, "enabled: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("POST", "/mail/domains", body), 400, "validation_error", message);
    await created("POST", "/mail/domains", { zone_id: zone.id, name: zone.name });
    expectError(
      await h.api("POST", "/mail/domains", { name: "Validate-Mail.Example" }),
      409,
      "conflict",
      /^name: validate-mail.example is already a mail domain of this account \(id \d+\)$/,
    );
    // Another account may use the same name.
    expect((await other("POST", "/mail/domains", { name: "validate-mail.example" })).status).toBe(201);
    expect(await zoneRecords(zone.id)).toHaveLength(8);
  });

  it("patches settings; a DMARC policy change rewrites the published record", async () => {
    const { zone, domain } = await newDomain();
    const serial = (await h.api("GET", `/dns/zones/${zone.id}`)).body.serial;
    const r = await h.api("PATCH", `/mail/domains/${domain.id}`, {
      enabled: false,
      catch_all: " Postmaster@Example.NET ",
      default_quota_bytes: 1024 ** 3,
      dmarc_policy: "reject",
      backup_enabled: true,
      mode: "both",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      enabled: false,
      catch_all: "postmaster@example.net",
      default_quota_bytes: 1024 ** 3,
      dmarc_policy: "reject",
      backup_enabled: true,
      mode: "both",
    });
    const dmarc = r.body.records.find((x: any) => x.kind === "dmarc");
    expect(dmarc.content).toMatch(/^v=DMARC1; p=reject;/);
    expect(dmarc.status).toBe("published");
    expect((await h.api("GET", `/dns/zones/${zone.id}/records/${dmarc.record_id}`)).body.content).toBe(dmarc.content);
    expect((await h.api("GET", `/dns/zones/${zone.id}`)).body.serial).toBeGreaterThan(serial);
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: "" })).body.catch_all).toBeNull();
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: "x@example.net" })).body.catch_all).toBe(
      "x@example.net",
    );
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: null })).body.catch_all).toBeNull();

    const cases: [unknown, string | RegExp][] = [
      [
        { catch_all: "nobody" },
        "catch_all: must be an email address such as postmaster@example.com, or null to turn catch-all off",
      ],
      [{ default_quota_bytes: 1000 }, `default_quota_bytes: must be between ${1024 ** 2} and ${1024 ** 4}`],
      [{ dmarc_policy: "strict" }, "dmarc_policy: must be one of none, quarantine, reject"],
      [{ name: "x.example" }, "name: unknown field"],
      [{ zone_id: zone.id }, "zone_id: unknown field"],
    ];
    for (const [body, message] of cases)
      expectError(await h.api("PATCH", `/mail/domains/${domain.id}`, body), 400, "validation_error", message);
    expectError(await other("PATCH", `/mail/domains/${domain.id}`, { enabled: true }), 404, "not_found");
  });

  it("refuses mode changes that would strand mailboxes or routes", async () => {
    const { domain } = await newDomain({ mode: "both" });
    await newMailbox(domain.id, "alice");
    await created("POST", "/mail/destinations", { addr: "fwd-mode@example.net" });
    await created("PUT", `/mail/domains/${domain.id}/routes`, { local_part: "sales", dest: "fwd-mode@example.net" });
    expectError(
      await h.api("PATCH", `/mail/domains/${domain.id}`, { mode: "forward" }),
      409,
      "conflict",
      /still has 1 mailbox\(es\) \(alice\)/,
    );
    expectError(
      await h.api("PATCH", `/mail/domains/${domain.id}`, { mode: "mailbox" }),
      409,
      "conflict",
      /still has forwarding routes \(sales\)/,
    );
    expect((await h.api("GET", `/mail/domains/${domain.id}`)).body.mode).toBe("both");
  });

  it("shows records deleted or edited in the zone and publishes them again", async () => {
    const { zone, domain } = await newDomain();
    const [mx1, , spf] = domain.records;
    await h.api("DELETE", `/dns/zones/${zone.id}/records/${mx1.record_id}`);
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${spf.record_id}`, { content: "v=spf1 -all" });
    const seen = (await h.api("GET", `/mail/domains/${domain.id}/records`)).body.records;
    expect(seen[0].status).toBe("missing");
    expect(seen[2].status).toBe("modified");
    const again = await h.api("POST", `/mail/domains/${domain.id}/records`);
    expect(again.status).toBe(200);
    expect(again.body.records.map((x: any) => x.status)).toEqual(Array(8).fill("published"));
    expect(again.body.records[0].record_id).not.toBe(mx1.record_id);
    expect(again.body.records[2].record_id).toBe(spf.record_id);
    expect((await h.api("GET", `/dns/zones/${zone.id}/records/${spf.record_id}`)).body.content).toBe(spf.content);
    expect(await zoneRecords(zone.id)).toHaveLength(8);
  });

  it("keeps a domain whose zone is deleted, with nothing published", async () => {
    const { zone, domain } = await newDomain();
    expect((await h.api("DELETE", `/dns/zones/${zone.id}`)).status).toBe(204);
    const after = (await h.api("GET", `/mail/domains/${domain.id}`)).body;
    expect(after.zone_id).toBeNull();
    expect(after.zone_name).toBe(zone.name);
    expect(after.records.map((x: any) => x.status)).toEqual(Array(8).fill("not_published"));
    expect((await h.api("DELETE", `/mail/domains/${domain.id}`)).status).toBe(204);
  });

  it("points a BYO domain at its server and checks its records against served zones", async () => {
    const s = await newServer({ ip6: "2001:db8::25" });
    const zone = await createZone(h.api, "byo-mail.example");
    const d = await created("POST", "/mail/domains", { zone_id: zone.id, server_id: s.id, name: zone.name });
    expect(d).toMatchObject({ byo: true, server_id: s.id });
    expect(d.records.map((x: any) => [x.kind, x.content.split(" ")[0]])).toContainEqual(["mx", "10"]);
    expect(d.records.filter((x: any) => x.kind === "mx")).toHaveLength(1);
    expect(d.records[0].content).toBe(`10 ${s.hostname}`);
    expect(d.records[1].content).toBe("v=spf1 ip4:192.0.2.25 ip6:2001:db8::25 -all");
    expect(d.records.map((x: any) => x.status)).toEqual(Array(7).fill("unchecked"));

    // A pending zone is not served publicly yet.
    const first = await h.api("POST", `/mail/domains/${d.id}/check`);
    expect(first.status).toBe(200);
    expect(first.body.checked_at).toMatch(ISO_MS);
    expect(first.body.records.map((x: any) => x.status)).toEqual(Array(7).fill("missing"));

    await h.control("PUT", "/_emulator/public-dns", {
      name: zone.name,
      ns: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"],
    });
    expect((await h.api("POST", `/dns/zones/${zone.id}/verify`)).body.status).toBe("active");
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${d.records[1].record_id}`, { content: "v=spf1 -all" });
    const second = (await h.api("POST", `/mail/domains/${d.id}/check`)).body;
    expect(second.records.map((x: any) => x.status)).toEqual(["ok", "mismatch", "ok", "ok", "ok", "ok", "ok"]);
    expect((await h.api("GET", `/mail/domains/${d.id}/records`)).body).toEqual(second);

    const hosted = await newDomain();
    expectError(
      await h.api("POST", `/mail/domains/${hosted.domain.id}/check`),
      409,
      "conflict",
      /only BYO domains are checked/,
    );
  });

  it("answers the delivery log, logs and counters, empty", async () => {
    const { domain } = await newDomain();
    expect((await h.api("GET", `/mail/domains/${domain.id}/log?verdict=rejected&limit=5`)).body).toEqual({
      data: [],
      next_cursor: null,
    });
    expect((await h.api("GET", `/mail/domains/${domain.id}/logs?kind=bounced&q=x`)).body).toEqual({
      data: [],
      next_cursor: null,
    });
    const stats = (await h.api("GET", `/mail/domains/${domain.id}/stats?days=2`)).body;
    expect(stats).toMatchObject({ domain_id: domain.id, days: 2 });
    expect(stats.hours).toHaveLength(48);
    expectError(
      await h.api("GET", `/mail/domains/${domain.id}/log?verdict=lost`),
      400,
      "validation_error",
      "verdict: must be one of delivered, rejected, deferred, dropped",
    );
  });
});
