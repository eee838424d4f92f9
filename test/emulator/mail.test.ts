// The mail area of the emulator over HTTP: BYO servers, domains and the records they publish
// into hosted zones, mailboxes, app passwords, aliases, groups, domain rules, forwarding routes
// and destinations.
import { describe, expect, it } from "vitest";
import { confirmDestination, reportSelfCheck } from "../../emulator/src/mail/state";
import { createZone, expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("mailer");
const { ro, other } = h;

async function created(method: string, path: string, body: unknown): Promise<any> {
  const r = await h.api(method, path, body);
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

let seq = 0;
const uniq = (base: string) => `${base}${++seq}`;

async function newDomain(extra: Record<string, unknown> = {}): Promise<{ zone: any; domain: any }> {
  const zone = await createZone(h.api, `${uniq("mail")}.example`);
  const domain = await created("POST", "/mail/domains", { zone_id: zone.id, name: zone.name, ...extra });
  return { zone, domain };
}

async function zoneRecords(zoneId: number): Promise<any[]> {
  return (await h.api("GET", `/dns/zones/${zoneId}/records?limit=500`)).body.data;
}

const newServer = (extra: Record<string, unknown> = {}) => created("POST", "/mail/servers", { name: uniq("mx"), ip4: "192.0.2.25", ...extra });
const newMailbox = (domainId: number, local: string, extra: Record<string, unknown> = {}) =>
  created("POST", `/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local, ...extra });

describe("BYO mail servers", () => {
  it("registers a server and shows the install command only on create and rotation", async () => {
    const r = await h.api("POST", "/mail/servers", { name: " mx-home ", ip4: "192.0.2.25", ip6: "2001:DB8::25" });
    expect(r.status).toBe(201);
    const s = r.body;
    expect(Object.keys(s).sort()).toEqual(
      ["id", "name", "ip4", "ip6", "hostname", "status", "last_check", "domain_ids", "token_issued_at", "created_at", "install_command"].sort(),
    );
    expect(s).toMatchObject({ name: "mx-home", ip4: "192.0.2.25", ip6: "2001:db8::25", status: "waiting", last_check: null, domain_ids: [] });
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
    for (const [body, message] of cases) expectError(await h.api("POST", "/mail/servers", body), 400, "validation_error", message);
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
      `mail server ${s.id} (${s.name}) is used by mail domain(s) ${a.domain.name} (id ${a.domain.id}), ${b.domain.name} (id ${b.domain.id}); delete those domains first`,
    );
    expect((await h.api("DELETE", `/mail/domains/${a.domain.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/servers/${s.id}`), 409, "conflict", new RegExp(`${b.domain.name} \\(id ${b.domain.id}\\); delete`));
    expect((await h.api("DELETE", `/mail/domains/${b.domain.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/mail/servers/${s.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/mail/servers/${s.id}`), 404, "not_found");
  });

  it("reports deliverability with advice", async () => {
    const s = await newServer();
    await newDomain({ server_id: s.id });
    const before = (await h.api("GET", `/mail/servers/${s.id}/deliverability`)).body;
    expect(before).toMatchObject({ server_id: s.id, checked_at: null, ptr: { expected: s.hostname, seen: null, ok: false }, port25: { ok: null } });
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
    const other = await created("POST", `/dns/zones/${zone.id}/records`, { type: "A", name: "www", content: "192.0.2.80" });
    const r = await h.api("POST", "/mail/domains", { zone_id: zone.id, name: "Acme-Mail.Example." });
    expect(r.status).toBe(201);
    const d = r.body;
    expect(Object.keys(d).sort()).toEqual(
      [
        "id", "name", "zone_id", "zone_name", "server_id", "byo", "mode", "enabled", "catch_all", "default_quota_bytes", "dmarc_policy",
        "backup_enabled", "dkim_selector", "records", "checked_at", "created_at",
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
    for (const rec of d.records) expect(rec).toMatchObject({ ttl: 3600, status: "published", record_id: expect.any(Number) });
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
    expect((await h.api("GET", `/mail/domains/${d.id}/records`)).body).toEqual({ domain_id: d.id, name: d.name, checked_at: null, records: d.records });
    expect((await h.api("GET", "/mail/domains")).body.data.map((x: any) => x.id)).toContain(d.id);

    // Deleting the domain removes exactly the records it published.
    expect((await h.api("DELETE", `/mail/domains/${d.id}`)).status).toBe(204);
    expect((await zoneRecords(zone.id)).map((x) => x.id)).toEqual([other.id]);
    expectError(await h.api("GET", `/mail/domains/${d.id}`), 404, "not_found");
  });

  it("publishes a subdomain's records relative to its zone, and records for a zone hosted elsewhere are only listed", async () => {
    const zone = await createZone(h.api, "parent-mail.example");
    const sub = await created("POST", "/mail/domains", { zone_id: zone.id, name: "lists.parent-mail.example", mode: "both" });
    expect(sub).toMatchObject({ zone_name: "parent-mail.example", mode: "both" });
    const names = (await zoneRecords(zone.id)).map((x) => x.name);
    expect(names).toEqual(["lists", "lists", "lists", "nsp1._domainkey.lists", "_dmarc.lists", "_mta-sts.lists", "mta-sts.lists", "_smtp._tls.lists"]);

    const ext = await created("POST", "/mail/domains", { name: "news.external.example", zone_name: "external.example" });
    expect(ext).toMatchObject({ zone_id: null, zone_name: "external.example" });
    expect(ext.records.map((x: any) => x.status)).toEqual(Array(8).fill("not_published"));
    expect(ext.records[4].name).toBe("_dmarc.news.external.example");
    expectError(await h.api("POST", `/mail/domains/${ext.id}/records`), 409, "conflict", /not in a zone hosted here/);
    const bare = await created("POST", "/mail/domains", { name: "bare.example" });
    expect(bare.zone_name).toBe("bare.example");
  });

  it("validates the create body", async () => {
    const zone = await createZone(h.api, "validate-mail.example");
    const foreignZone = (await other("POST", "/dns/zones", { service_id: (await other("GET", "/services")).body.data.find((s: any) => s.type === "auth_dns").id, name: "foreign.example" })).body;
    const foreignServer = (await other("POST", "/mail/servers", { name: "x", ip4: "192.0.2.1" })).body;
    const cases: [unknown, string | RegExp][] = [
      [{}, "name: is required"],
      [{ name: "not a domain" }, "name: must be a domain name such as example.com"],
      [{ name: "com" }, "name: must be a domain name such as example.com"],
      [{ name: "x.example", zone_id: "1" }, "zone_id: must be an integer"],
      [{ name: "x.example", zone_id: foreignZone.id }, `zone_id: no zone ${foreignZone.id} in this account`],
      [{ name: "elsewhere.example", zone_id: zone.id }, "name: elsewhere.example is not inside zone validate-mail.example"],
      [{ name: "validate-mail.example", zone_id: zone.id, zone_name: "other.example" }, `zone_name: must be the name of zone ${zone.id} (validate-mail.example) or left out`],
      [{ name: "a.example", zone_name: "b.example" }, "name: a.example is not inside zone b.example"],
      [{ name: "x.example", server_id: foreignServer.id }, `server_id: no mail server ${foreignServer.id} in this account`],
      [{ name: "x.example", mode: "relay" }, "mode: must be one of mailbox, forward, both"],
      [{ name: "x.example", enabled: false }, "enabled: unknown field"],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", "/mail/domains", body), 400, "validation_error", message);
    await created("POST", "/mail/domains", { zone_id: zone.id, name: zone.name });
    expectError(await h.api("POST", "/mail/domains", { name: "Validate-Mail.Example" }), 409, "conflict", /^name: validate-mail.example is already a mail domain of this account \(id \d+\)$/);
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
    expect(r.body).toMatchObject({ enabled: false, catch_all: "postmaster@example.net", default_quota_bytes: 1024 ** 3, dmarc_policy: "reject", backup_enabled: true, mode: "both" });
    const dmarc = r.body.records.find((x: any) => x.kind === "dmarc");
    expect(dmarc.content).toMatch(/^v=DMARC1; p=reject;/);
    expect(dmarc.status).toBe("published");
    expect((await h.api("GET", `/dns/zones/${zone.id}/records/${dmarc.record_id}`)).body.content).toBe(dmarc.content);
    expect((await h.api("GET", `/dns/zones/${zone.id}`)).body.serial).toBeGreaterThan(serial);
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: "" })).body.catch_all).toBeNull();
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: "x@example.net" })).body.catch_all).toBe("x@example.net");
    expect((await h.api("PATCH", `/mail/domains/${domain.id}`, { catch_all: null })).body.catch_all).toBeNull();

    const cases: [unknown, string | RegExp][] = [
      [{ catch_all: "nobody" }, "catch_all: must be an email address such as postmaster@example.com, or null to turn catch-all off"],
      [{ default_quota_bytes: 1000 }, `default_quota_bytes: must be between ${1024 ** 2} and ${1024 ** 4}`],
      [{ dmarc_policy: "strict" }, "dmarc_policy: must be one of none, quarantine, reject"],
      [{ name: "x.example" }, "name: unknown field"],
      [{ zone_id: zone.id }, "zone_id: unknown field"],
    ];
    for (const [body, message] of cases) expectError(await h.api("PATCH", `/mail/domains/${domain.id}`, body), 400, "validation_error", message);
    expectError(await other("PATCH", `/mail/domains/${domain.id}`, { enabled: true }), 404, "not_found");
  });

  it("refuses mode changes that would strand mailboxes or routes", async () => {
    const { domain } = await newDomain({ mode: "both" });
    await newMailbox(domain.id, "alice");
    await created("POST", "/mail/destinations", { addr: "fwd-mode@example.net" });
    await created("PUT", `/mail/domains/${domain.id}/routes`, { local_part: "sales", dest: "fwd-mode@example.net" });
    expectError(await h.api("PATCH", `/mail/domains/${domain.id}`, { mode: "forward" }), 409, "conflict", /still has 1 mailbox\(es\) \(alice\)/);
    expectError(await h.api("PATCH", `/mail/domains/${domain.id}`, { mode: "mailbox" }), 409, "conflict", /still has forwarding routes \(sales\)/);
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

    await h.control("PUT", "/_emulator/public-dns", { name: zone.name, ns: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"] });
    expect((await h.api("POST", `/dns/zones/${zone.id}/verify`)).body.status).toBe("active");
    await h.api("PATCH", `/dns/zones/${zone.id}/records/${d.records[1].record_id}`, { content: "v=spf1 -all" });
    const second = (await h.api("POST", `/mail/domains/${d.id}/check`)).body;
    expect(second.records.map((x: any) => x.status)).toEqual(["ok", "mismatch", "ok", "ok", "ok", "ok", "ok"]);
    expect((await h.api("GET", `/mail/domains/${d.id}/records`)).body).toEqual(second);

    const hosted = await newDomain();
    expectError(await h.api("POST", `/mail/domains/${hosted.domain.id}/check`), 409, "conflict", /only BYO domains are checked/);
  });

  it("answers the delivery log, logs and counters, empty", async () => {
    const { domain } = await newDomain();
    expect((await h.api("GET", `/mail/domains/${domain.id}/log?verdict=rejected&limit=5`)).body).toEqual({ data: [], next_cursor: null });
    expect((await h.api("GET", `/mail/domains/${domain.id}/logs?kind=bounced&q=x`)).body).toEqual({ data: [], next_cursor: null });
    const stats = (await h.api("GET", `/mail/domains/${domain.id}/stats?days=2`)).body;
    expect(stats).toMatchObject({ domain_id: domain.id, days: 2 });
    expect(stats.hours).toHaveLength(48);
    expectError(await h.api("GET", `/mail/domains/${domain.id}/log?verdict=lost`), 400, "validation_error", "verdict: must be one of delivered, rejected, deferred, dropped");
  });
});

describe("mailboxes and app passwords", () => {
  it("creates a mailbox with the defaults, patches every field, and deletes it with its passwords and aliases", async () => {
    const { domain } = await newDomain();
    const r = await h.api("POST", `/mail/domains/${domain.id}/mailboxes`, { domain_id: domain.id, local: " Alice.Smith ", display: "Alice" });
    expect(r.status).toBe(201);
    const m = r.body;
    expect(Object.keys(m).sort()).toEqual(
      ["id", "domain_id", "local", "address", "display", "quota_bytes", "used_bytes", "state", "user_email", "send_limit_hour", "shared_with", "collab", "app_passwords", "created_at"].sort(),
    );
    expect(m).toMatchObject({
      domain_id: domain.id,
      local: "alice.smith",
      address: `alice.smith@${domain.name}`,
      display: "Alice",
      quota_bytes: domain.default_quota_bytes,
      used_bytes: 0,
      state: "active",
      user_email: null,
      send_limit_hour: 200,
      shared_with: [],
      collab: false,
      app_passwords: [],
    });
    expect(m.id).toMatch(/^mbx_[0-9a-f]{12}$/);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data).toEqual([m]);

    const p = await h.api("PATCH", `/mail/mailboxes/${m.id}`, {
      display: null,
      quota_bytes: 2 * 1024 ** 3,
      state: "disabled",
      user_email: "Alice@Corp.Example",
      send_limit_hour: 0,
      shared_with: ["bob@corp.example", "Carol@Corp.Example"],
      collab: true,
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ display: null, quota_bytes: 2 * 1024 ** 3, state: "disabled", user_email: "alice@corp.example", send_limit_hour: 0, shared_with: ["bob@corp.example", "carol@corp.example"], collab: true });
    expect((await h.api("PATCH", `/mail/mailboxes/${m.id}`, { state: "active" })).body.state).toBe("active");

    const pw = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "phone" });
    const alias = await created("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "al", target_mailbox_id: m.id });
    expect((await h.api("DELETE", `/mail/mailboxes/${m.id}`)).status).toBe(204);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data).toEqual([]);
    expect((await h.api("GET", `/mail/domains/${domain.id}/aliases`)).body.data).toEqual([]);
    expectError(await h.api("DELETE", `/mail/apppasswords/${pw.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/aliases/${alias.id}`), 404, "not_found");
    expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, { collab: false }), 404, "not_found");
  });

  it("validates mailboxes", async () => {
    const { domain } = await newDomain();
    const path = `/mail/domains/${domain.id}/mailboxes`;
    const cases: [unknown, string | RegExp][] = [
      [{ local: "x" }, "domain_id: is required"],
      [{ domain_id: domain.id + 1000, local: "x" }, `domain_id: must be the domain in the path (${domain.id})`],
      [{ domain_id: domain.id }, "local: is required"],
      [{ domain_id: domain.id, local: ".x" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "a..b" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "a+b" }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "x".repeat(65) }, /^local: must be 1 to 64 letters/],
      [{ domain_id: domain.id, local: "x", quota_bytes: 10 }, `quota_bytes: must be between ${1024 ** 2} and ${1024 ** 4}`],
      [{ domain_id: domain.id, local: "x", display: "d".repeat(129) }, "display: must be at most 128 characters"],
      [{ domain_id: domain.id, local: "x", state: "disabled" }, "state: unknown field"],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", path, body), 400, "validation_error", message);
    const m = await newMailbox(domain.id, "dup", { quota_bytes: 1024 ** 2 });
    expect(m.quota_bytes).toBe(1024 ** 2);
    expectError(await h.api("POST", path, { domain_id: domain.id, local: "DUP" }), 409, "conflict", `dup@${domain.name} is already used by mailbox ${m.id}`);
    const patches: [unknown, string][] = [
      [{ state: "frozen" }, "state: must be one of active, disabled"],
      [{ send_limit_hour: 10001 }, "send_limit_hour: must be between 0 and 10000"],
      [{ user_email: "nobody" }, "user_email: must be an email address such as ops@example.com"],
      [{ shared_with: ["a@example.com", "A@example.com"] }, "shared_with[1]: duplicate of shared_with[0]"],
      [{ shared_with: ["x"] }, "shared_with[0]: must be an email address such as ops@example.com"],
      [{ local: "y" }, "local: unknown field"],
    ];
    for (const [body, message] of patches) expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, body), 400, "validation_error", message);

    const fwd = await newDomain({ mode: "forward" });
    expectError(await newMailboxRaw(fwd.domain.id, "x"), 409, "conflict", /forward-only/);
    expectError(await other("GET", path), 404, "not_found");
    expectError(await other("PATCH", `/mail/mailboxes/${m.id}`, { collab: true }), 404, "not_found");
    expectError(await h.api("GET", `/mail/mailboxes/${m.id}`), 405, "method_not_allowed");
  });

  it("returns an app password once and lists passwords on the mailbox without it", async () => {
    const { domain } = await newDomain();
    const m = await newMailbox(domain.id, "bob");
    const r = await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "laptop" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["created_at", "id", "label", "last_used_at", "mailbox_id", "password"]);
    expect(r.body.password).toMatch(/^[a-z]{4}(-[a-z]{4}){4}$/);
    expect(r.body.id).toMatch(/^app_[0-9a-f]{12}$/);
    const second = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    expect(second.label).toBeNull();
    expect(second.password).not.toBe(r.body.password);
    const list = await h.api("GET", `/mail/domains/${domain.id}/mailboxes`);
    expect(list.body.data[0].app_passwords).toEqual([
      { id: r.body.id, mailbox_id: m.id, label: "laptop", created_at: r.body.created_at, last_used_at: null },
      { id: second.id, mailbox_id: m.id, label: null, created_at: second.created_at, last_used_at: null },
    ]);
    expect(list.text).not.toContain(r.body.password);

    expectError(await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { label: "x" }), 400, "validation_error", "mailbox_id: is required");
    expectError(await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: "mbx_000000000000" }), 400, "validation_error", `mailbox_id: must be the mailbox in the path (${m.id})`);
    expectError(await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id, label: "l".repeat(65) }), 400, "validation_error", "label: must be at most 64 characters");
    expectError(await other("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id }), 404, "not_found");
    expectError(await other("DELETE", `/mail/apppasswords/${r.body.id}`), 404, "not_found");

    for (let i = 2; i < 20; i++) await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    expectError(await h.api("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id }), 422, "limit_exceeded", /already has 20 app passwords/);
    expect((await h.api("DELETE", `/mail/apppasswords/${r.body.id}`)).status).toBe(204);
    expect((await h.api("GET", `/mail/domains/${domain.id}/mailboxes`)).body.data[0].app_passwords).toHaveLength(19);
  });
});

async function newMailboxRaw(domainId: number, local: string) {
  return h.api("POST", `/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local });
}

describe("aliases and groups", () => {
  it("creates and deletes aliases, sharing the local-part space with mailboxes", async () => {
    const { domain } = await newDomain();
    const m = await newMailbox(domain.id, "carol");
    const r = await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "Info", target_mailbox_id: m.id, enabled: false });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      domain_id: domain.id,
      local_part: "info",
      address: `info@${domain.name}`,
      target_mailbox_id: m.id,
      target_address: `carol@${domain.name}`,
      enabled: false,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect((await h.api("GET", `/mail/domains/${domain.id}/aliases`)).body.data).toEqual([r.body]);
    expectError(await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "carol", target_mailbox_id: m.id }), 409, "conflict", `carol@${domain.name} is already used by mailbox ${m.id}`);
    expectError(await newMailboxRaw(domain.id, "info"), 409, "conflict", `info@${domain.name} is already used by alias ${r.body.id}`);
    expectError(await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "x", target_mailbox_id: "mbx_nope" }), 400, "validation_error", "target_mailbox_id: no mailbox mbx_nope in this account");
    expectError(await h.api("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "x" }), 400, "validation_error", "target_mailbox_id: is required");
    expectError(await h.api("PATCH", `/mail/aliases/${r.body.id}`, { enabled: true }), 405, "method_not_allowed");
    expectError(await other("DELETE", `/mail/aliases/${r.body.id}`), 404, "not_found");
    expect((await h.api("DELETE", `/mail/aliases/${r.body.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/aliases/${r.body.id}`), 404, "not_found");
  });

  it("creates a group with defaults, patches it (local_part required), and replaces an alias when asked", async () => {
    const { domain } = await newDomain();
    const r = await h.api("POST", `/mail/domains/${domain.id}/groups`, { local_part: "team", members: [{ address: "A@example.com" }, { address: "b@example.com", role: "owner" }] });
    expect(r.status).toBe(201);
    const g = r.body;
    expect(g).toEqual({
      id: expect.stringMatching(/^grp_[0-9a-f]{12}$/),
      domain_id: domain.id,
      local_part: "team",
      address: `team@${domain.name}`,
      name: "team",
      members: [
        { address: "a@example.com", role: "member" },
        { address: "b@example.com", role: "owner" },
      ],
      allow_external_senders: false,
      members_can_send: true,
      enabled: true,
      archive: false,
      posting: "members",
      reply_to: "sender",
      subject_tag: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    expectError(await h.api("PATCH", `/mail/groups/${g.id}`, { name: "x" }), 400, "validation_error", "local_part: is required");
    const p = await h.api("PATCH", `/mail/groups/${g.id}`, {
      local_part: "crew",
      name: "The crew",
      members: [],
      allow_external_senders: true,
      members_can_send: false,
      enabled: false,
      archive: true,
      posting: "anyone",
      reply_to: "group",
      subject_tag: "[crew]",
    });
    expect(p.body).toMatchObject({ local_part: "crew", address: `crew@${domain.name}`, name: "The crew", members: [], allow_external_senders: true, members_can_send: false, enabled: false, archive: true, posting: "anyone", reply_to: "group", subject_tag: "[crew]" });
    expect((await h.api("PATCH", `/mail/groups/${g.id}`, { local_part: "crew", subject_tag: "" })).body.subject_tag).toBeNull();

    const m = await newMailbox(domain.id, "dana");
    const alias = await created("POST", `/mail/domains/${domain.id}/aliases`, { local_part: "support", target_mailbox_id: m.id });
    expectError(await h.api("POST", `/mail/domains/${domain.id}/groups`, { local_part: "support" }), 409, "conflict", /already used by alias .*; set replace_alias to replace the alias/);
    expectError(await h.api("POST", `/mail/domains/${domain.id}/groups`, { local_part: "dana", replace_alias: true }), 409, "conflict", `dana@${domain.name} is already used by mailbox ${m.id}`);
    const replaced = await created("POST", `/mail/domains/${domain.id}/groups`, { local_part: "support", replace_alias: true });
    expect(replaced.local_part).toBe("support");
    expectError(await h.api("DELETE", `/mail/aliases/${alias.id}`), 404, "not_found");
    // Renaming onto a taken local part is refused too.
    expectError(await h.api("PATCH", `/mail/groups/${g.id}`, { local_part: "support" }), 409, "conflict", /already used by group/);

    const cases: [unknown, string | RegExp][] = [
      [{}, "local_part: is required"],
      [{ local_part: "x", posting: "all" }, "posting: must be one of anyone, org, members"],
      [{ local_part: "x", reply_to: "list" }, "reply_to: must be one of sender, group"],
      [{ local_part: "x", members: [{ address: "nope" }] }, "members[0].address: must be an email address such as ops@example.com"],
      [{ local_part: "x", members: [{ address: "a@example.com", name: "A" }] }, "members[0].name: unknown field"],
      [{ local_part: "x", members: [{ address: "a@example.com" }, { address: "a@example.com" }] }, "members[1].address: duplicate of members[0].address"],
      [{ local_part: "x", members: [{ address: "a@example.com", role: "admin" }] }, "members[0].role: must be one of member, manager, owner"],
      [{ local_part: "x", subject_tag: "t".repeat(33) }, "subject_tag: must be at most 32 characters"],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", `/mail/domains/${domain.id}/groups`, body), 400, "validation_error", message);
    expect((await h.api("GET", `/mail/domains/${domain.id}/groups`)).body.data.map((x: any) => x.id)).toEqual([g.id, replaced.id]);
    expectError(await other("PATCH", `/mail/groups/${g.id}`, { local_part: "x" }), 404, "not_found");
    expect((await h.api("DELETE", `/mail/groups/${g.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/groups/${g.id}`), 404, "not_found");
  });
});

describe("domain rules", () => {
  it("creates, patches and deletes rules, with the target each kind needs", async () => {
    const { domain } = await newDomain();
    const path = `/mail/domains/${domain.id}/rules`;
    const copy = await h.api("POST", path, { kind: "forward_copy", pattern: " CEO@* ", target: "Archive@Example.NET" });
    expect(copy.status).toBe(201);
    expect(copy.body).toEqual({ id: expect.any(Number), domain_id: domain.id, kind: "forward_copy", pattern: "ceo@*", target: "archive@example.net", enabled: true, created_at: expect.stringMatching(ISO_MS) });
    const reject = await created("POST", path, { kind: "reject_sender", pattern: "*@spam.example", enabled: false });
    expect(reject).toMatchObject({ target: null, enabled: false });
    const relay = await created("POST", path, { kind: "relay_rcpt", pattern: "*@legacy." + domain.name, target: "Relay.Example.NET:2525" });
    expect(relay.target).toBe("relay.example.net:2525");
    await created("POST", path, { kind: "relay_rcpt", pattern: "x", target: "[2001:db8::25]:25" });
    await created("POST", path, { kind: "quarantine_sender", pattern: "bulk.example", target: "" });

    const cases: [unknown, string | RegExp][] = [
      [{ pattern: "x" }, "kind: is required"],
      [{ kind: "drop", pattern: "x" }, "kind: must be one of forward_copy, reject_sender, quarantine_sender, relay_rcpt"],
      [{ kind: "reject_sender" }, "pattern: is required"],
      [{ kind: "reject_sender", pattern: "a b" }, "pattern: must not contain spaces"],
      [{ kind: "reject_sender", pattern: "x", target: "ops@example.com" }, "target: must be empty for reject_sender rules"],
      [{ kind: "forward_copy", pattern: "x" }, "target: forward_copy needs the address that receives the copy"],
      [{ kind: "forward_copy", pattern: "x", target: "ops" }, "target: must be an email address such as ops@example.com for forward_copy"],
      [{ kind: "relay_rcpt", pattern: "x" }, /^target: relay_rcpt needs the relay host/],
      [{ kind: "relay_rcpt", pattern: "x", target: "relay:99999" }, /^target: must be a host name or address/],
    ];
    for (const [body, message] of cases) expectError(await h.api("POST", path, body), 400, "validation_error", message);

    const p = await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, { enabled: false, target: "legal@example.net" });
    expect(p.body).toMatchObject({ kind: "forward_copy", pattern: "ceo@*", target: "legal@example.net", enabled: false });
    expect((await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, { kind: "reject_sender", pattern: "x@y", target: null })).body).toMatchObject({ kind: "reject_sender", target: null });
    expectError(await h.api("PATCH", `/mail/domainrules/${copy.body.id}`, { kind: "forward_copy" }), 400, "validation_error", "target: forward_copy needs the address that receives the copy");
    expect((await h.api("GET", path)).body.data.map((x: any) => x.id).slice(0, 2)).toEqual([copy.body.id, reject.id]);
    expectError(await other("PATCH", `/mail/domainrules/${copy.body.id}`, { enabled: true }), 404, "not_found");
    expect((await h.api("DELETE", `/mail/domainrules/${copy.body.id}`)).status).toBe(204);
    expectError(await h.api("DELETE", `/mail/domainrules/${copy.body.id}`), 404, "not_found");
  });
});

describe("forwarding routes and destinations", () => {
  it("forwards local parts to registered destinations and shows whether they are confirmed", async () => {
    const { domain } = await newDomain({ mode: "forward" });
    const d = await h.api("POST", "/mail/destinations", { addr: " Ops@Example.NET " });
    expect(d.status).toBe(201);
    expect(d.body).toEqual({ id: expect.stringMatching(/^dst_[0-9a-f]{12}$/), addr: "ops@example.net", confirmed: false, confirmed_at: null, created_at: expect.stringMatching(ISO_MS) });
    expectError(await h.api("POST", "/mail/destinations", { addr: "ops@example.net" }), 409, "conflict", "addr: ops@example.net is already a destination of this account");
    expectError(await h.api("POST", "/mail/destinations", { addr: "ops" }), 400, "validation_error", "addr: must be an email address such as ops@example.com");
    expect((await other("POST", "/mail/destinations", { addr: "ops@example.net" })).status).toBe(201);

    const routes = `/mail/domains/${domain.id}/routes`;
    expectError(await h.api("PUT", routes, { local_part: "sales", dest: "unknown@example.net" }), 400, "validation_error", /^dest: unknown@example.net is not a forwarding destination of this account/);
    const r = await h.api("PUT", routes, { local_part: "Sales", dest: "OPS@example.net" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      domain_id: domain.id,
      local_part: "sales",
      address: `sales@${domain.name}`,
      dest: "ops@example.net",
      dest_confirmed: false,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });

    confirmDestination(h.emu.app.store, "mailer", "ops@example.net");
    const list = await h.api("GET", "/mail/destinations");
    expect(list.body.data).toContainEqual({ ...d.body, confirmed: true, confirmed_at: expect.stringMatching(ISO_MS) });
    expect((await h.api("GET", routes)).body.data).toEqual([{ ...r.body, dest_confirmed: true }]);

    // PUT again changes the destination of the same local part.
    await created("POST", "/mail/destinations", { addr: "team@example.net" });
    const moved = (await h.api("PUT", routes, { local_part: "sales", dest: "team@example.net" })).body;
    expect(moved).toMatchObject({ dest: "team@example.net", dest_confirmed: false, created_at: r.body.created_at });
    expect((await h.api("GET", routes)).body.data).toHaveLength(1);

    expectError(await h.api("DELETE", "/mail/destinations/team%40example.net"), 409, "conflict", `destination team@example.net is used by the forwarding routes of sales@${domain.name}; delete or change them first`);
    expect((await h.api("DELETE", `${routes}/sales`)).status).toBe(204);
    expectError(await h.api("DELETE", `${routes}/sales`), 404, "not_found");
    expect((await h.api("DELETE", "/mail/destinations/team@example.net")).status).toBe(204);
    expectError(await h.api("DELETE", "/mail/destinations/team@example.net"), 404, "not_found");
  });

  it("refuses routes in mailbox-only domains and on local parts already in use", async () => {
    await created("POST", "/mail/destinations", { addr: "rules@example.net" });
    const mailboxOnly = await newDomain();
    expectError(await h.api("PUT", `/mail/domains/${mailboxOnly.domain.id}/routes`, { local_part: "x", dest: "rules@example.net" }), 409, "conflict", /is in mailbox mode/);
    const both = await newDomain({ mode: "both" });
    const m = await newMailbox(both.domain.id, "eve");
    expectError(await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "eve", dest: "rules@example.net" }), 409, "conflict", `eve@${both.domain.name} is already used by mailbox ${m.id}`);
    expectError(await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "a b", dest: "rules@example.net" }), 400, "validation_error", /^local_part: must be 1 to 64/);
    expectError(await h.api("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "x" }), 400, "validation_error", "dest: is required");
    await created("PUT", `/mail/domains/${both.domain.id}/routes`, { local_part: "fwd", dest: "rules@example.net" });
    expectError(await newMailboxRaw(both.domain.id, "fwd"), 409, "conflict", `fwd@${both.domain.name} is already used by route fwd`);
    // Deleting the domain takes its routes, so the destination is free again.
    expect((await h.api("DELETE", `/mail/domains/${both.domain.id}`)).status).toBe(204);
    expect((await h.api("DELETE", "/mail/destinations/rules@example.net")).status).toBe(204);
  });

  it("deletes a domain's mailboxes, aliases, groups, rules and routes with it", async () => {
    const { domain } = await newDomain({ mode: "both" });
    const m = await newMailbox(domain.id, "frank");
    const pw = await created("POST", `/mail/mailboxes/${m.id}/apppasswords`, { mailbox_id: m.id });
    const g = await created("POST", `/mail/domains/${domain.id}/groups`, { local_part: "all" });
    const rule = await created("POST", `/mail/domains/${domain.id}/rules`, { kind: "reject_sender", pattern: "x" });
    expect((await h.api("DELETE", `/mail/domains/${domain.id}`)).status).toBe(204);
    expectError(await h.api("PATCH", `/mail/mailboxes/${m.id}`, {}), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/apppasswords/${pw.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/groups/${g.id}`), 404, "not_found");
    expectError(await h.api("DELETE", `/mail/domainrules/${rule.id}`), 404, "not_found");
    expectError(await h.api("GET", `/mail/domains/${domain.id}/routes`), 404, "not_found");
  });

  it("counts mail domains and mailboxes in the quota usage", async () => {
    const usage = (await h.api("GET", "/account/quota")).body.usage;
    expect(usage.mail_domains).toBe((await h.api("GET", "/mail/domains?limit=500")).body.data.length);
    expect(typeof usage.mailboxes).toBe("number");
  });
});
