// The mail resources (servers, domains, mailboxes, app passwords, aliases, groups, domain rules,
// routes, destinations) and nsp:mail:getDomain, through the built plugin binary over gRPC
// against a live emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { confirmDestination } from "../../emulator/src/mail/state";
import { isSecret, plain, UNKNOWN, type PluginHandle } from "../helpers/plugin";
import { lifecycle } from "../helpers/lifecycle";
import { useProvider } from "../helpers/use-provider";
import { until } from "../helpers/until";

const ZONE = "nsp:dns:Zone";
const SERVER = "nsp:mail:Server";
const DOMAIN = "nsp:mail:Domain";
const MAILBOX = "nsp:mail:Mailbox";
const APP = "nsp:mail:AppPassword";
const ALIAS = "nsp:mail:Alias";
const GROUP = "nsp:mail:Group";
const RULE = "nsp:mail:DomainRule";
const ROUTE = "nsp:mail:Route";
const DEST = "nsp:mail:Destination";
const Kind = providerPb.PropertyDiff.Kind;
const ACCOUNT = "mailer";

type Obj = Record<string, any>;

// These tests change objects through the API between Reads of one plugin process; batched
// reads (one list per parent and command) are tested on their own below.
const provider = useProvider({
  emulator: { accounts: [{ name: ACCOUNT, token: `svc_${"ab12".repeat(8)}` }] },
  config: { batchReads: false },
});
const { emulator, control, plugin, anotherPlugin, checked, previewSendsNothing, importClean, expectCheckFailures } = provider;
let dnsService: number;

beforeAll(async () => {
  dnsService = (await control.services()).find((s) => s.type === "auth_dns")!.id;
});

/** The parents the AppPassword and Route rows made, for their `exists` and `update`. */
let appDomain = "";
let routeDests: string[] = [];

let seq = 0;
const uniq = (base: string) => `${base}-${++seq}`;

/** Create in preview: no request reaches the API, and API-only outputs are unknown. */

/** `pulumi import`: Read with only the import id, then the imported inputs check and diff clean. */

async function apiZone(): Promise<Obj> {
  return control.post("/dns/zones", { service_id: dnsService, name: `${uniq("mz")}.example` });
}

async function apiDomain(extra: Obj = {}): Promise<Obj> {
  const zone = await apiZone();
  return control.post("/mail/domains", { zone_id: zone.id, name: zone.name, ...extra });
}

async function apiMailbox(domainId: number, local = uniq("box")): Promise<Obj> {
  return control.post(`/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local });
}

lifecycle(provider, [
  {
    type: SERVER,
    create: async () => ({ name: uniq("walk"), ip4: `192.0.2.${100 + seq}` }),
    unknownOutput: "installCommand",
    replace: { name: "walk-other" },
    apiPath: (_inputs, id) => `/mail/servers/${id}`,
    bad: [
      [{ ip4: "192.0.2.1" }, "name"],
      [{ name: " ", ip4: "192.0.2.1" }, "name"],
      [{ name: "x" }, "ip4"],
      [{ name: "x", ip4: "2001:db8::1" }, "ip4"],
      [{ name: "x", ip4: "192.0.2.1", ip6: "192.0.2.1" }, "ip6"],
      [{ name: "x", ip4: "192.0.2.1", tokenRotation: true }, "tokenRotation"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "its name and addresses replace it; its one in-place change, the rotation trigger, is in the walk below",
      "drift edit": "the API has no edit of a server (a rotation through the API is in the test of its own below)",
    },
  },
  {
    type: DOMAIN,
    create: async () => {
      const zone = await apiZone();
      return { zoneId: String(zone.id), name: zone.name };
    },
    update: { dmarcPolicy: "reject", backupEnabled: true },
    replace: { name: "walk-other.example" },
    apiPath: (_inputs, id) => `/mail/domains/${id}`,
    drift: { body: { dmarc_policy: "quarantine" }, inputs: { dmarcPolicy: "quarantine" } },
    bad: [
      [{}, "name"],
      [{ name: "not a domain" }, "name"],
      [{ name: "example.123" }, "name"],
      [{ name: "a.example", zoneId: "zone-1" }, "zoneId"],
      [{ name: "a.example", zoneName: "b.example" }, "name"],
      [{ name: "a.example", serverId: "srv/1" }, "serverId"],
      [{ name: "a.example", mode: "relay" }, "mode"],
      [{ name: "a.example", dmarcPolicy: "strict" }, "dmarcPolicy"],
      [{ name: "a.example", defaultQuotaBytes: 10 }, "defaultQuotaBytes"],
      [{ name: "a.example", catchAll: "nobody" }, "catchAll"],
      [{ name: "a.example", records: [] }, "records"],
    ],
    nestedFailures: ["["],
  },
  {
    type: MAILBOX,
    create: async () => ({ domainId: String((await apiDomain()).id), local: "walk", display: "Walk" }),
    unknownOutput: "address",
    update: { display: "Walked", state: "disabled" },
    replace: { local: "walk-other" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/mailboxes/${id}`,
    exists: async (inputs, id) => (await control.list<Obj>(`/mail/domains/${inputs.domainId}/mailboxes`)).some((b) => b.id === id),
    drift: { body: { display: "Someone else" }, inputs: { display: "Someone else" } },
    bad: [
      [{ local: "x" }, "domainId"],
      [{ domainId: "abc", local: "x" }, "domainId"],
      [{ domainId: "1" }, "local"],
      [{ domainId: "1", local: ".x" }, "local"],
      [{ domainId: "1", local: "a..b" }, "local"],
      [{ domainId: "1", local: "x", quotaBytes: 10 }, "quotaBytes"],
      [{ domainId: "1", local: "x", state: "frozen" }, "state"],
      [{ domainId: "1", local: "x", userEmail: "nobody" }, "userEmail"],
      [{ domainId: "1", local: "x", sendLimitHour: -1 }, "sendLimitHour"],
      [{ domainId: "1", local: "x", sharedWith: ["a@example.com", "A@example.com"] }, "sharedWith"],
      [{ domainId: "1", local: "x", display: "d".repeat(129) }, "display"],
    ],
    nestedFailures: ["["],
  },
  {
    type: GROUP,
    create: async () => ({ domainId: String((await apiDomain()).id), localPart: "walk-team", name: "Team" }),
    unknownOutput: "address",
    update: { name: "Renamed team", posting: "org" },
    replace: { domainId: "999999" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/groups/${id}`,
    exists: async (inputs, id) => (await control.list<Obj>(`/mail/domains/${inputs.domainId}/groups`)).some((g) => g.id === id),
    drift: { body: { local_part: "walk-team", name: "Renamed" }, inputs: { name: "Renamed" } },
    bad: [
      [{ domainId: "1" }, "localPart"],
      [{ domainId: "1", localPart: "x", posting: "all" }, "posting"],
      [{ domainId: "1", localPart: "x", replyTo: "list" }, "replyTo"],
      [{ domainId: "1", localPart: "x", members: [{ address: "nope" }] }, "members"],
      [{ domainId: "1", localPart: "x", members: [{ address: "a@example.com" }, { address: "A@example.com" }] }, "members"],
      [{ domainId: "1", localPart: "x", members: [{ address: "a@example.com", role: "admin" }] }, "members"],
      [{ domainId: "1", localPart: "x", subjectTag: "t".repeat(33) }, "subjectTag"],
    ],
    nestedFailures: ["["],
  },
  {
    type: RULE,
    create: async () => ({ domainId: String((await apiDomain()).id), kind: "reject_sender", pattern: "*@spam.example" }),
    unknownOutput: "createdAt",
    update: { pattern: "*@junk.example", enabled: false },
    replace: { domainId: "999999" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/domainrules/${id}`,
    exists: async (inputs, id) => (await control.list<Obj>(`/mail/domains/${inputs.domainId}/rules`)).some((r) => String(r.id) === id),
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    skip: { bad: "in the test of its own below" },
  },
  {
    type: APP,
    create: async () => {
      appDomain = String((await apiDomain()).id);
      return { mailboxId: (await apiMailbox(Number(appDomain))).id, label: "phone" };
    },
    unknownOutput: "password",
    replace: { label: "laptop" },
    importId: (inputs, id) => `${inputs.mailboxId}/${id}`,
    apiPath: (_inputs, id) => `/mail/apppasswords/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>(`/mail/domains/${appDomain}/mailboxes`)).some((b) => b.app_passwords.some((a: Obj) => a.id === id)),
    bad: [
      [{}, "mailboxId"],
      [{ mailboxId: "mbx/1" }, "mailboxId"],
      [{ mailboxId: "" }, "mailboxId"],
      [{ mailboxId: "mbx_1", label: "l".repeat(65) }, "label"],
      [{ mailboxId: "mbx_1", password: "x" }, "password"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "every input replaces it: the API issues an app password once and has no edit of it",
      "drift edit": "the API has no edit of an app password",
    },
  },
  {
    type: ALIAS,
    create: async () => {
      const domain = await apiDomain();
      return { domainId: String(domain.id), localPart: "info", targetMailboxId: (await apiMailbox(domain.id)).id };
    },
    unknownOutput: "address",
    replace: { localPart: "hello" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/aliases/${id}`,
    exists: async (inputs, id) => (await control.list<Obj>(`/mail/domains/${inputs.domainId}/aliases`)).some((a) => String(a.id) === id),
    bad: [
      [{ localPart: "x", targetMailboxId: "mbx_1" }, "domainId"],
      [{ domainId: "1", localPart: "a b", targetMailboxId: "mbx_1" }, "localPart"],
      [{ domainId: "1", localPart: "x" }, "targetMailboxId"],
      [{ domainId: "1", localPart: "x", targetMailboxId: "mbx_1", enabled: "yes" }, "enabled"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "every change replaces an alias: the API has no edit of one",
      "drift edit": "the API has no edit of an alias",
    },
  },
  {
    type: DEST,
    create: async () => ({ addr: `${uniq("ops")}@example.net` }),
    unknownOutput: "confirmed",
    replace: { addr: "other@example.net" },
    apiPath: (_inputs, id) => `/mail/destinations/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/mail/destinations")).some((d) => d.addr === id),
    bad: [
      [{}, "addr"],
      [{ addr: "ops" }, "addr"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "its one input, the address, replaces it",
      "drift edit": "the API has no edit of a destination; its owner confirms it by a link, which a test below follows",
    },
  },
  {
    type: ROUTE,
    create: async () => {
      const domainId = String((await apiDomain({ mode: "forward" })).id);
      routeDests = [uniq("fwd-a"), uniq("fwd-b")].map((local) => `${local}@example.net`);
      for (const addr of routeDests) await control.post("/mail/destinations", { addr });
      return { domainId, localPart: "sales", dest: routeDests[0] };
    },
    unknownOutput: "address",
    update: () => ({ dest: routeDests[1] }),
    replace: { localPart: "info" },
    apiPath: (inputs) => `/mail/domains/${inputs.domainId}/routes/${inputs.localPart}`,
    exists: async (inputs) => (await control.list<Obj>(`/mail/domains/${inputs.domainId}/routes`)).some((r) => r.local_part === inputs.localPart),
    bad: [
      [{ localPart: "x", dest: "a@example.net" }, "domainId"],
      [{ domainId: "1", localPart: "a b", dest: "a@example.net" }, "localPart"],
      [{ domainId: "1", localPart: "x", dest: "nobody" }, "dest"],
    ],
    nestedFailures: ["["],
    skip: { "drift edit": "the API edits a route by a PUT to its domain's routes, not to the route's path; a test below makes it" },
  },
]);

describe("nsp:mail:Server", () => {
  it("registers a server with a one-time install command kept as a secret, rotates it, imports, and deletes", async () => {
    const inputs = await checked(SERVER, { name: " mx-home ", ip4: " 192.0.2.25 ", ip6: "2001:DB8::25" });
    expect(inputs).toEqual({ name: "mx-home", ip4: "192.0.2.25", ip6: "2001:db8::25" });
    await previewSendsNothing(SERVER, inputs, "installCommand");

    const created = await plugin.create(SERVER, "s", inputs);
    expect(created.id).toMatch(/^srv_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, status: "waiting", domainIds: [], lastCheck: null, hostname: `${created.id.replace("_", "-")}.byo.mail.nsp-emulator.test` });
    expect(isSecret(created.properties.installCommand)).toBe(true);
    const command = plain(created.properties.installCommand) as string;
    expect(command).toMatch(new RegExp(`--server ${created.id} --token mst_[0-9a-f]{32}$`));

    // The API never shows the command again; a refresh keeps it, still secret.
    const read = await plugin.read(SERVER, "s", created.id, created.properties, inputs);
    expect(isSecret(read.properties.installCommand)).toBe(true);
    expect(plain(read.properties.installCommand)).toBe(command);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(SERVER, "s", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // The trigger rotates the credential: no replacement, a new secret command.
    const rotate = await checked(SERVER, { ...inputs, tokenRotation: 1 });
    const rotateDiff = await plugin.diff(SERVER, "s", created.id, read.properties, rotate, inputs);
    expect(rotateDiff).toMatchObject({ changes: true, replaces: [], diffs: ["tokenRotation"] });
    await control.resetStats();
    await plugin.update(SERVER, "s", created.id, read.properties, rotate, true, inputs);
    expect((await control.stats()).total).toBe(0);
    const rotated = await plugin.update(SERVER, "s", created.id, read.properties, rotate, false, inputs);
    expect(isSecret(rotated.installCommand)).toBe(true);
    expect(plain(rotated.installCommand)).not.toBe(command);
    expect(plain(rotated.installCommand)).toMatch(/--token mst_[0-9a-f]{32}$/);
    expect(rotated.tokenRotation).toBe(1);
    const afterRotation = await plugin.read(SERVER, "s", created.id, rotated, rotate);
    expect(plain(afterRotation.properties.installCommand)).toBe(plain(rotated.installCommand));
    expect(isSecret(afterRotation.properties.installCommand)).toBe(true);
    expect(afterRotation.inputs).toEqual(rotate);
    expect((await plugin.diff(SERVER, "s", created.id, afterRotation.properties, rotate, rotate)).changes).toBe(false);

    // No patch exists: a new address replaces the server.
    const moved = await checked(SERVER, { ...rotate, ip4: "192.0.2.26" });
    expect(await plugin.diff(SERVER, "s", created.id, afterRotation.properties, moved, rotate)).toMatchObject({ changes: true, replaces: ["ip4"] });

    // Import: the command cannot be known, so it is null; the inputs diff clean.
    const imported = await importClean(SERVER, created.id, created.id);
    expect(imported.inputs).toEqual(inputs);
    expect(plain(imported.properties.installCommand)).toBeNull();
    await expect(plugin.read(SERVER, "imp", "srv/1")).rejects.toThrow(/is not a mail server id; a mail server is known by its id \(<serverId>, such as srv_0123456789ab\)/);

    await plugin.delete(SERVER, "s", created.id, afterRotation.properties);
    expect((await plugin.read(SERVER, "s", created.id, afterRotation.properties, rotate)).id).toBe("");
  });

  it("sees a rotation and a delete made through the API", async () => {
    const inputs = await checked(SERVER, { name: "drift", ip4: "192.0.2.30" });
    const created = await plugin.create(SERVER, "s", inputs);
    await new Promise((r) => setTimeout(r, 5));
    await control.post(`/mail/servers/${created.id}/token`, {});
    const read = await plugin.read(SERVER, "s", created.id, created.properties, inputs);
    expect(read.properties.tokenIssuedAt).not.toBe(created.properties.tokenIssuedAt);
    // The command in the state is the old one; the API never shows the new one here.
    expect(plain(read.properties.installCommand)).toBe(plain(created.properties.installCommand));
    await control.delete(`/mail/servers/${created.id}`);
    expect((await plugin.read(SERVER, "s", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:Domain", () => {
  it("publishes records into its zone, patches settings, replaces, imports, and removes its records on delete", async () => {
    const zone = await apiZone();
    const inputs = await checked(DOMAIN, { zoneId: String(zone.id), name: ` ${zone.name.toUpperCase()}. ` });
    expect(inputs).toEqual({ zoneId: String(zone.id), name: zone.name, mode: "mailbox", enabled: true, dmarcPolicy: "none", backupEnabled: false, forceDestroy: false });
    // Preview may read the zone (to warn of mail records already there) but writes nothing.
    await control.resetStats();
    const preview = await plugin.create(DOMAIN, "p", inputs, true);
    expect(preview.id).toBe("");
    expect(plain(preview.properties.records)).toBe(UNKNOWN);
    expect((await control.stats()).mutating).toBe(0);

    const created = await plugin.create(DOMAIN, "d", inputs);
    expect(created.id).toMatch(/^\d+$/);
    const records = created.properties.records as Obj[];
    expect(records.map((r) => r.kind)).toEqual(["mx", "mx", "spf", "dkim", "dmarc", "tls_policy", "tls_policy", "tls_rpt"]);
    for (const r of records) expect(r).toMatchObject({ status: "published", ttl: 3600, recordId: expect.stringMatching(/^\d+$/) });
    expect(records[4]).toMatchObject({ name: `_dmarc.${zone.name}`, type: "TXT", content: expect.stringMatching(/^v=DMARC1; p=none;/) });
    expect(created.properties).toMatchObject({ zoneName: zone.name, byo: false, dkimSelector: "nsp1", catchAll: null, defaultQuotaBytes: 5 * 1024 ** 3 });
    const zoneRecordIds = (await control.list<Obj>(`/dns/zones/${zone.id}/records`)).map((r) => String(r.id));
    expect(zoneRecordIds.sort()).toEqual(records.map((r) => r.recordId).sort());

    const read = await plugin.read(DOMAIN, "d", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(DOMAIN, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Every patchable setting at once.
    const settings = await checked(DOMAIN, { ...inputs, enabled: false, catchAll: "Postmaster@Example.NET", mode: "both", defaultQuotaBytes: 1024 ** 3, dmarcPolicy: "reject", backupEnabled: true });
    const d = await plugin.diff(DOMAIN, "d", created.id, read.properties, settings, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["backupEnabled", "catchAll", "defaultQuotaBytes", "dmarcPolicy", "enabled", "mode"]);
    await control.resetStats();
    await plugin.update(DOMAIN, "d", created.id, read.properties, settings, true, inputs);
    expect((await control.stats()).total).toBe(0);
    const updated = await plugin.update(DOMAIN, "d", created.id, read.properties, settings, false, inputs);
    expect(updated).toMatchObject({ enabled: false, catchAll: "postmaster@example.net", mode: "both", defaultQuotaBytes: 1024 ** 3, dmarcPolicy: "reject", backupEnabled: true });
    const dmarc = (updated.records as Obj[]).find((r) => r.kind === "dmarc")!;
    expect(dmarc.content).toMatch(/^v=DMARC1; p=reject;/);
    expect((await control.get(`/dns/zones/${zone.id}/records/${dmarc.recordId}`)).content).toBe(dmarc.content);
    expect((await plugin.diff(DOMAIN, "d", created.id, updated, settings, settings)).changes).toBe(false);

    // Dropping catchAll turns catch-all off.
    const { catchAll: _c, ...noCatchAll } = settings;
    const drop = await plugin.diff(DOMAIN, "d", created.id, updated, noCatchAll, settings);
    expect(drop).toMatchObject({ diffs: ["catchAll"], replaces: [] });
    expect(drop.detailed.catchAll).toBe(Kind.DELETE);
    const dropped = await plugin.update(DOMAIN, "d", created.id, updated, noCatchAll, false, settings);
    expect(dropped.catchAll).toBeNull();

    // Create fields replace; the same name must be deleted first.
    const renamed = await plugin.diff(DOMAIN, "d", created.id, dropped, { ...noCatchAll, name: `lists.${zone.name}` }, noCatchAll);
    expect(renamed).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
    const byo = await plugin.diff(DOMAIN, "d", created.id, dropped, { ...noCatchAll, serverId: "srv_000000000000" }, noCatchAll);
    expect(byo).toMatchObject({ changes: true, replaces: ["serverId"], deleteBeforeReplace: true });

    const imported = await importClean(DOMAIN, created.id, created.id);
    expect(imported.inputs).toEqual({ zoneId: String(zone.id), name: zone.name, zoneName: zone.name, mode: "both", enabled: false, defaultQuotaBytes: 1024 ** 3, dmarcPolicy: "reject", backupEnabled: true });
    await expect(plugin.read(DOMAIN, "imp", zone.name)).rejects.toThrow(/is not a mail domain id; a mail domain is known by its numeric id \(<domainId>/);

    await plugin.delete(DOMAIN, "d", created.id, dropped);
    expect(await control.list(`/dns/zones/${zone.id}/records`)).toEqual([]);
    expect((await plugin.read(DOMAIN, "d", created.id, dropped, noCatchAll)).id).toBe("");
  });

  it("warns, in preview and before it publishes, of MX and SPF records already at its name; not on a clean name", async () => {
    const warningsAbout = (name: string) => plugin.engineLogs.filter((l) => l.includes(`${name} already has mail records`));
    async function waitForWarning(name: string): Promise<string> {
      await until(() => warningsAbout(name).length > 0);
      expect(warningsAbout(name)).toHaveLength(1);
      return warningsAbout(name)[0]!;
    }

    // A clean apex, with only records that do not route mail (and an MX at another name).
    const clean = await apiZone();
    await control.post(`/dns/zones/${clean.id}/records`, { name: "@", type: "TXT", content: "site-verification=abc", ttl: 3600 });
    await control.post(`/dns/zones/${clean.id}/records`, { name: "old", type: "MX", content: "10 mx.old.example", ttl: 3600 });
    const cleanInputs = await checked(DOMAIN, { zoneId: String(clean.id), name: clean.name });
    await plugin.create(DOMAIN, "clean", cleanInputs, true);
    const cleanDomain = await plugin.create(DOMAIN, "clean", cleanInputs);

    // An apex that already receives mail elsewhere.
    const used = await apiZone();
    await control.post(`/dns/zones/${used.id}/records`, { name: "@", type: "MX", content: "10 mx.old.example", ttl: 3600 });
    await control.post(`/dns/zones/${used.id}/records`, { name: "@", type: "TXT", content: "v=spf1 include:old.example ~all", ttl: 3600 });
    const usedInputs = await checked(DOMAIN, { zoneId: String(used.id), name: used.name });
    await control.resetStats();
    await plugin.create(DOMAIN, "used", usedInputs, true);
    expect((await control.stats()).mutating).toBe(0);
    const previewWarning = await waitForWarning(used.name);
    expect(previewWarning).toContain('MX "10 mx.old.example"');
    expect(previewWarning).toContain('TXT "v=spf1 include:old.example ~all"');
    // The clean domain's preview and create came first, so a warning of theirs would be here by now.
    expect(warningsAbout(clean.name)).toEqual([]);

    plugin.engineLogs.length = 0;
    const usedDomain = await plugin.create(DOMAIN, "used", usedInputs);
    // Only the records that were there before: the warning came before the domain published its own.
    expect(await waitForWarning(used.name)).toBe(previewWarning);
    expect(previewWarning).not.toContain("mail.nsp-emulator.test");
    // Records the domain itself published are not news (a create retried after a lost answer).
    plugin.engineLogs.length = 0;
    await plugin.create(DOMAIN, "again", usedInputs, true);
    expect(await waitForWarning(used.name)).toBe(previewWarning);

    // A domain below the apex looks at its own name: an MX at `old` concerns `old.<zone>` only.
    const below = await checked(DOMAIN, { zoneId: String(clean.id), name: `old.${clean.name}` });
    await plugin.create(DOMAIN, "below", below, true);
    expect(await waitForWarning(`old.${clean.name}`)).toContain('MX "10 mx.old.example"');

    await plugin.delete(DOMAIN, "used", usedDomain.id, usedDomain.properties);
    await plugin.delete(DOMAIN, "clean", cleanDomain.id, cleanDomain.properties);
  });

  it("creates with non-default settings in one step, outside a hosted zone too", async () => {
    const inputs = await checked(DOMAIN, { name: `news.${uniq("ext")}.example`, mode: "forward", dmarcPolicy: "quarantine", catchAll: "ops@example.net" });
    const created = await plugin.create(DOMAIN, "d", inputs);
    expect(created.properties).toMatchObject({ zoneId: null, mode: "forward", dmarcPolicy: "quarantine", catchAll: "ops@example.net" });
    expect((created.properties.records as Obj[]).every((r) => r.status === "not_published" && r.recordId === null)).toBe(true);
    expect((await plugin.diff(DOMAIN, "d", created.id, created.properties, inputs, inputs)).changes).toBe(false);
    await plugin.delete(DOMAIN, "d", created.id, created.properties);
  });

  it("sees settings changed and the domain deleted through the API", async () => {
    const zone = await apiZone();
    const inputs = await checked(DOMAIN, { zoneId: String(zone.id), name: zone.name });
    const created = await plugin.create(DOMAIN, "d", inputs);
    await control.patch(`/mail/domains/${created.id}`, { dmarc_policy: "quarantine", backup_enabled: true });
    const read = await plugin.read(DOMAIN, "d", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ dmarcPolicy: "quarantine", backupEnabled: true });
    const d = await plugin.diff(DOMAIN, "d", created.id, read.properties, inputs, read.inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["backupEnabled", "dmarcPolicy"]);
    const repaired = await plugin.update(DOMAIN, "d", created.id, read.properties, inputs, false, read.inputs);
    expect(repaired).toMatchObject({ dmarcPolicy: "none", backupEnabled: false });
    await control.delete(`/mail/domains/${created.id}`);
    expect((await plugin.read(DOMAIN, "d", created.id, repaired, inputs)).id).toBe("");
    await plugin.delete(DOMAIN, "d", created.id, repaired); // already gone
  });
});

describe("a BYO server and the domains that use it", () => {
  it("refuses to delete the server first, naming the domain, and deletes in dependency order", async () => {
    const serverInputs = await checked(SERVER, { name: "mx-dep", ip4: "192.0.2.40" });
    const srv = await plugin.create(SERVER, "srv", serverInputs);
    const zone = await apiZone();
    const domainInputs = await checked(DOMAIN, { zoneId: String(zone.id), name: zone.name, serverId: srv.id });
    const dom = await plugin.create(DOMAIN, "dom", domainInputs);
    expect(dom.properties).toMatchObject({ serverId: srv.id, byo: true });
    expect((dom.properties.records as Obj[])[0]!.content).toBe(`10 ${srv.properties.hostname}`);
    const srvRead = await plugin.read(SERVER, "srv", srv.id, srv.properties, serverInputs);
    expect(srvRead.properties.domainIds).toEqual([dom.id]);

    await expect(plugin.delete(SERVER, "srv", srv.id, srvRead.properties)).rejects.toThrow(
      new RegExp(`nsp:mail:Server: cannot delete mail server ${srv.id} \\(mx-dep\\) while mail domains use it: ${zone.name.replace(/\./g, "\\.")} \\(id ${dom.id}\\)`),
    );
    expect((await plugin.read(SERVER, "srv", srv.id, srvRead.properties, serverInputs)).id).toBe(srv.id);

    // The engine's order: the dependent domain first, then the server.
    await plugin.delete(DOMAIN, "dom", dom.id, dom.properties);
    await plugin.delete(SERVER, "srv", srv.id, srvRead.properties);
    expect((await plugin.read(SERVER, "srv", srv.id, srvRead.properties, serverInputs)).id).toBe("");
    expect(await control.list(`/dns/zones/${zone.id}/records`)).toEqual([]);
  });
});

describe("nsp:mail:Mailbox", () => {
  it("creates, patches every setting, replaces on a new local part, imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(MAILBOX, { domainId, local: " Alice ", display: "Alice" });
    expect(inputs).toEqual({ domainId, local: "alice", display: "Alice", state: "active", sharedWith: [], collab: false });
    await previewSendsNothing(MAILBOX, inputs, "address");

    const created = await plugin.create(MAILBOX, "m", inputs);
    expect(created.id).toMatch(/^mbx_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, address: `alice@${domain.name}`, quotaBytes: 5 * 1024 ** 3, sendLimitHour: 200, userEmail: null, usedBytes: 0 });
    const read = await plugin.read(MAILBOX, "m", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(MAILBOX, "m", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const settings = await checked(MAILBOX, {
      ...inputs,
      display: "Alice Smith",
      quotaBytes: 1024 ** 3,
      state: "disabled",
      userEmail: "Alice@Corp.Example",
      sendLimitHour: 50,
      sharedWith: ["bob@corp.example"],
      collab: true,
    });
    const d = await plugin.diff(MAILBOX, "m", created.id, read.properties, settings, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["collab", "display", "quotaBytes", "sendLimitHour", "sharedWith", "state", "userEmail"]);
    const updated = await plugin.update(MAILBOX, "m", created.id, read.properties, settings, false, inputs);
    expect(updated).toMatchObject({ display: "Alice Smith", quotaBytes: 1024 ** 3, state: "disabled", userEmail: "alice@corp.example", sendLimitHour: 50, sharedWith: ["bob@corp.example"], collab: true });
    const apiBox = (await control.list<Obj>(`/mail/domains/${domainId}/mailboxes`))[0]!;
    expect(apiBox).toMatchObject({ state: "disabled", send_limit_hour: 50, collab: true });

    // Back to active, display and userEmail dropped (cleared).
    const { display: _d, userEmail: _u, ...lean } = settings;
    const back = await plugin.update(MAILBOX, "m", created.id, updated, { ...lean, state: "active" }, false, settings);
    expect(back).toMatchObject({ display: null, userEmail: null, state: "active" });

    const replaced = await plugin.diff(MAILBOX, "m", created.id, back, { ...lean, local: "alicia" }, lean);
    expect(replaced).toMatchObject({ changes: true, replaces: ["local"] });

    const imported = await importClean(MAILBOX, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toMatchObject({ domainId, local: "alice", quotaBytes: 1024 ** 3, sendLimitHour: 50, sharedWith: ["bob@corp.example"], collab: true });
    // The id `pulumi stack --show-ids` shows imports too: the one domain holding it is found.
    expect((await importClean(MAILBOX, created.id, created.id)).inputs).toEqual(imported.inputs);
    expect((await plugin.read(MAILBOX, "imp", "mbx_000000000000")).id).toBe("");

    await plugin.delete(MAILBOX, "m", created.id, back);
    expect((await plugin.read(MAILBOX, "m", created.id, back, lean)).id).toBe("");
  });

  it("creates a mailbox with non-default settings", async () => {
    const domain = await apiDomain();
    const inputs = await checked(MAILBOX, { domainId: String(domain.id), local: "bob", state: "disabled", collab: true, sharedWith: ["x@example.com"], sendLimitHour: 10 });
    const created = await plugin.create(MAILBOX, "m", inputs);
    expect(created.properties).toMatchObject({ state: "disabled", collab: true, sharedWith: ["x@example.com"], sendLimitHour: 10 });
    expect((await plugin.diff(MAILBOX, "m", created.id, created.properties, inputs, inputs)).changes).toBe(false);
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(MAILBOX, { domainId: String(domain.id), local: "carol", display: "Carol" });
    const created = await plugin.create(MAILBOX, "m", inputs);
    await control.patch(`/mail/mailboxes/${created.id}`, { display: "Someone else", state: "disabled" });
    const read = await plugin.read(MAILBOX, "m", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ display: "Someone else", state: "disabled" });
    expect((await plugin.diff(MAILBOX, "m", created.id, read.properties, inputs, read.inputs)).diffs.sort()).toEqual(["display", "state"]);
    await control.delete(`/mail/mailboxes/${created.id}`);
    expect((await plugin.read(MAILBOX, "m", created.id, read.properties, inputs)).id).toBe("");

    const again = await plugin.create(MAILBOX, "m2", inputs);
    await control.delete(`/mail/domains/${domain.id}`);
    expect((await plugin.read(MAILBOX, "m2", again.id, again.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:AppPassword", () => {
  it("keeps the one-time password as a secret through refreshes, replaces on a new label, imports, and deletes", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id, "dave");
    const inputs = await checked(APP, { mailboxId: box.id, label: "phone" });
    expect(inputs).toEqual({ mailboxId: box.id, label: "phone" });
    await previewSendsNothing(APP, inputs, "password");

    const created = await plugin.create(APP, "a", inputs);
    expect(created.id).toMatch(/^app_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, domainId: String(domain.id) });
    expect(isSecret(created.properties.password)).toBe(true);
    const password = plain(created.properties.password) as string;
    expect(password).toMatch(/^[a-z]{4}(-[a-z]{4}){4}$/);

    const read = await plugin.read(APP, "a", created.id, created.properties, inputs);
    expect(isSecret(read.properties.password)).toBe(true);
    expect(plain(read.properties.password)).toBe(password);
    expect(read.inputs).toEqual(inputs);
    const again = await plugin.read(APP, "a", created.id, read.properties, read.inputs);
    expect(plain(again.properties.password)).toBe(password);
    expect((await plugin.diff(APP, "a", created.id, again.properties, inputs, inputs)).changes).toBe(false);

    expect(await plugin.diff(APP, "a", created.id, again.properties, { ...inputs, label: "laptop" }, inputs)).toMatchObject({ changes: true, replaces: ["label"] });
    expect(await plugin.diff(APP, "a", created.id, again.properties, { mailboxId: "mbx_000000000000", label: "phone" }, inputs)).toMatchObject({ replaces: ["mailboxId"] });

    const imported = await importClean(APP, `${box.id}/${created.id}`, created.id);
    expect(imported.inputs).toEqual(inputs);
    expect(plain(imported.properties.password)).toBeNull();
    expect(imported.properties.domainId).toBe(String(domain.id));
    await expect(plugin.read(APP, "imp", created.id)).rejects.toThrow(/must have the form <mailboxId>\/<appPasswordId>/);

    await plugin.delete(APP, "a", created.id, again.properties);
    expect((await control.list<Obj>(`/mail/domains/${domain.id}/mailboxes`))[0]!.app_passwords).toEqual([]);
    expect((await plugin.read(APP, "a", created.id, again.properties, inputs)).id).toBe("");
  });

  it("sees the password deleted through the API, and with its mailbox", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const inputs = await checked(APP, { mailboxId: box.id });
    const a = await plugin.create(APP, "a", inputs);
    expect(a.properties).not.toHaveProperty("label");
    await control.delete(`/mail/apppasswords/${a.id}`);
    expect((await plugin.read(APP, "a", a.id, a.properties, inputs)).id).toBe("");
    const b = await plugin.create(APP, "b", inputs);
    await control.delete(`/mail/mailboxes/${box.id}`);
    expect((await plugin.read(APP, "b", b.id, b.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:Alias", () => {
  it("creates an alias, replaces it on any change (deleting first when the address stays), imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const box = await apiMailbox(domain.id, "erin");
    const other = await apiMailbox(domain.id, "frank");
    const inputs = await checked(ALIAS, { domainId, localPart: " Info ", targetMailboxId: box.id });
    expect(inputs).toEqual({ domainId, localPart: "info", targetMailboxId: box.id, enabled: true });
    await previewSendsNothing(ALIAS, inputs, "address");

    const created = await plugin.create(ALIAS, "al", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ ...inputs, address: `info@${domain.name}`, targetAddress: `erin@${domain.name}` });
    const read = await plugin.read(ALIAS, "al", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(ALIAS, "al", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const retarget = await plugin.diff(ALIAS, "al", created.id, read.properties, { ...inputs, targetMailboxId: other.id }, inputs);
    expect(retarget).toMatchObject({ changes: true, replaces: ["targetMailboxId"], deleteBeforeReplace: true });
    const renamed = await plugin.diff(ALIAS, "al", created.id, read.properties, { ...inputs, localPart: "hello" }, inputs);
    expect(renamed).toMatchObject({ replaces: ["localPart"], deleteBeforeReplace: false });
    expect(await plugin.diff(ALIAS, "al", created.id, read.properties, { ...inputs, enabled: false }, inputs)).toMatchObject({ replaces: ["enabled"] });

    await importClean(ALIAS, `${domainId}/${created.id}`, created.id);
    await expect(plugin.read(ALIAS, "imp", `${domainId}/x`)).rejects.toThrow(/<domainId>\/<aliasId>/);

    await plugin.delete(ALIAS, "al", created.id, read.properties);
    expect((await plugin.read(ALIAS, "al", created.id, read.properties, inputs)).id).toBe("");
  });

  it("adopts the identical alias a killed run made, and keeps refusing an address taken by another target", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const box = await apiMailbox(domain.id as number, "grace");
    const other = await apiMailbox(domain.id as number, "heidi");
    const orphan = await control.post<{ id: number }>(`/mail/domains/${domainId}/aliases`, { local_part: "sales", target_mailbox_id: String(box.id) });
    const adopted = await plugin.create(ALIAS, "sales", await checked(ALIAS, { domainId, localPart: "sales", targetMailboxId: String(box.id) }));
    expect(adopted.id).toBe(String(orphan.id));
    expect(plugin.engineLogs.join("\n")).toMatch(/alias sales: the API refused a duplicate of an existing object \(id \d+\); adopting it/);
    // The same address for another mailbox is not this alias: the conflict stands.
    await expect(plugin.create(ALIAS, "sales2", await checked(ALIAS, { domainId, localPart: "sales", targetMailboxId: String(other.id) }))).rejects.toThrow(/conflict/);
    expect(await control.list(`/mail/domains/${domainId}/aliases`)).toHaveLength(1);
  });

  it("sees an alias deleted through the API, and with its target mailbox", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const inputs = await checked(ALIAS, { domainId: String(domain.id), localPart: "sales", targetMailboxId: box.id, enabled: false });
    const a = await plugin.create(ALIAS, "al", inputs);
    expect(a.properties.enabled).toBe(false);
    await control.delete(`/mail/aliases/${a.id}`);
    expect((await plugin.read(ALIAS, "al", a.id, a.properties, inputs)).id).toBe("");
    const b = await plugin.create(ALIAS, "al2", inputs);
    await control.delete(`/mail/mailboxes/${box.id}`);
    expect((await plugin.read(ALIAS, "al2", b.id, b.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:Group", () => {
  it("creates a group, patches it (rename included) in place, imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(GROUP, { domainId, localPart: "Team", members: [{ address: "A@Example.com" }, { address: "b@example.com", role: "owner" }] });
    expect(inputs).toEqual({
      domainId,
      localPart: "team",
      members: [
        { address: "a@example.com", role: "member" },
        { address: "b@example.com", role: "owner" },
      ],
      allowExternalSenders: false,
      membersCanSend: true,
      enabled: true,
      archive: false,
      posting: "members",
      replyTo: "sender",
    });
    await previewSendsNothing(GROUP, inputs, "address");

    const created = await plugin.create(GROUP, "g", inputs);
    expect(created.id).toMatch(/^grp_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, name: "team", subjectTag: null, address: `team@${domain.name}` });
    const read = await plugin.read(GROUP, "g", created.id, created.properties, inputs);
    expect((await plugin.diff(GROUP, "g", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(GROUP, {
      ...inputs,
      localPart: "crew",
      name: "The crew",
      members: [{ address: "c@example.com", role: "manager" }],
      allowExternalSenders: true,
      membersCanSend: false,
      enabled: false,
      archive: true,
      posting: "anyone",
      replyTo: "group",
      subjectTag: "[crew]",
    });
    const d = await plugin.diff(GROUP, "g", created.id, read.properties, changed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs).toHaveLength(10);
    const updated = await plugin.update(GROUP, "g", created.id, read.properties, changed, false, inputs);
    expect(updated).toMatchObject({ ...changed, address: `crew@${domain.name}` });
    expect((await plugin.diff(GROUP, "g", created.id, updated, changed, changed)).changes).toBe(false);
    expect(await plugin.diff(GROUP, "g", created.id, updated, { ...changed, domainId: "999999" }, changed)).toMatchObject({ replaces: ["domainId"] });

    const imported = await importClean(GROUP, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toMatchObject({ localPart: "crew", name: "The crew", subjectTag: "[crew]", posting: "anyone" });

    await plugin.delete(GROUP, "g", created.id, updated);
    expect((await plugin.read(GROUP, "g", created.id, updated, changed)).id).toBe("");
  });

  it("takes an alias's place with replaceAlias", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const alias = await control.post(`/mail/domains/${domain.id}/aliases`, { local_part: "support", target_mailbox_id: box.id });
    const plainGroup = await checked(GROUP, { domainId: String(domain.id), localPart: "support" });
    await expect(plugin.create(GROUP, "g", plainGroup)).rejects.toThrow(/conflict.*set replace_alias/);
    const inputs = await checked(GROUP, { ...plainGroup, replaceAlias: true });
    const created = await plugin.create(GROUP, "g", inputs);
    expect(created.properties.replaceAlias).toBe(true);
    expect(await control.list(`/mail/domains/${domain.id}/aliases`)).toEqual([]);
    expect(alias.id).toEqual(expect.any(Number));
    expect((await plugin.diff(GROUP, "g", created.id, created.properties, inputs, inputs)).changes).toBe(false);
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(GROUP, { domainId: String(domain.id), localPart: "all", name: "Everyone" });
    const created = await plugin.create(GROUP, "g", inputs);
    await control.patch(`/mail/groups/${created.id}`, { local_part: "all", name: "Renamed", posting: "org" });
    const read = await plugin.read(GROUP, "g", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ name: "Renamed", posting: "org" });
    expect((await plugin.diff(GROUP, "g", created.id, read.properties, inputs, read.inputs)).diffs.sort()).toEqual(["name", "posting"]);
    await control.delete(`/mail/groups/${created.id}`);
    expect((await plugin.read(GROUP, "g", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:DomainRule", () => {
  it("creates a rule, patches it in place (kind included), imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(RULE, { domainId, kind: "forward_copy", pattern: " CEO@* ", target: "Archive@Example.NET" });
    expect(inputs).toEqual({ domainId, kind: "forward_copy", pattern: "ceo@*", target: "archive@example.net", enabled: true });
    await previewSendsNothing(RULE, inputs, "createdAt");

    const created = await plugin.create(RULE, "r", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject(inputs);
    const read = await plugin.read(RULE, "r", created.id, created.properties, inputs);
    expect((await plugin.diff(RULE, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const disabled = await checked(RULE, { ...inputs, target: "legal@example.net", enabled: false });
    expect((await plugin.diff(RULE, "r", created.id, read.properties, disabled, inputs)).diffs.sort()).toEqual(["enabled", "target"]);
    const updated = await plugin.update(RULE, "r", created.id, read.properties, disabled, false, inputs);
    expect(updated).toMatchObject({ target: "legal@example.net", enabled: false });

    // Another kind without a target: target is dropped with it.
    const reject = await checked(RULE, { domainId, kind: "reject_sender", pattern: "*@spam.example", enabled: false });
    const d = await plugin.diff(RULE, "r", created.id, updated, reject, disabled);
    expect(d).toMatchObject({ replaces: [] });
    expect(d.diffs.sort()).toEqual(["kind", "pattern", "target"]);
    const rejected = await plugin.update(RULE, "r", created.id, updated, reject, false, disabled);
    expect(rejected).toMatchObject({ kind: "reject_sender", pattern: "*@spam.example", target: null });
    expect((await plugin.diff(RULE, "r", created.id, rejected, reject, reject)).changes).toBe(false);
    expect(await plugin.diff(RULE, "r", created.id, rejected, { ...reject, domainId: "999999" }, reject)).toMatchObject({ replaces: ["domainId"] });

    const imported = await importClean(RULE, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toEqual({ domainId, kind: "reject_sender", pattern: "*@spam.example", enabled: false });

    await plugin.delete(RULE, "r", created.id, rejected);
    expect((await plugin.read(RULE, "r", created.id, rejected, reject)).id).toBe("");
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(RULE, { domainId: String(domain.id), kind: "relay_rcpt", pattern: "*@legacy.example", target: "relay.example.net:2525" });
    const created = await plugin.create(RULE, "r", inputs);
    await control.patch(`/mail/domainrules/${created.id}`, { enabled: false });
    const read = await plugin.read(RULE, "r", created.id, created.properties, inputs);
    expect(read.properties.enabled).toBe(false);
    expect((await plugin.diff(RULE, "r", created.id, read.properties, inputs, read.inputs)).diffs).toEqual(["enabled"]);
    await control.delete(`/mail/domainrules/${created.id}`);
    expect((await plugin.read(RULE, "r", created.id, read.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check", async () => {
    await expectCheckFailures(RULE, [
      [{ domainId: "1", pattern: "x" }, "kind"],
      [{ domainId: "1", kind: "drop", pattern: "x" }, "kind"],
      [{ domainId: "1", kind: "reject_sender" }, "pattern"],
      [{ domainId: "1", kind: "reject_sender", pattern: "a b" }, "pattern"],
      [{ domainId: "1", kind: "reject_sender", pattern: "x", target: "ops@example.com" }, "target"],
      [{ domainId: "1", kind: "forward_copy", pattern: "x" }, "target"],
      [{ domainId: "1", kind: "forward_copy", pattern: "x", target: "ops" }, "target"],
      [{ domainId: "1", kind: "relay_rcpt", pattern: "x" }, "target"],
      [{ domainId: "1", kind: "relay_rcpt", pattern: "x", target: "relay:99999" }, "target"],
    ], ["["]);
  });
});

describe("nsp:mail:Destination and nsp:mail:Route", () => {
  it("adds a destination, shows its confirmation, imports, and deletes", async () => {
    const inputs = await checked(DEST, { addr: " Ops@Example.NET " });
    expect(inputs).toEqual({ addr: "ops@example.net" });
    await previewSendsNothing(DEST, inputs, "confirmed");
    const created = await plugin.create(DEST, "d", inputs);
    expect(created.id).toBe("ops@example.net");
    expect(created.properties).toMatchObject({ addr: "ops@example.net", confirmed: false, confirmedAt: null, destinationId: expect.stringMatching(/^dst_/) });
    const read = await plugin.read(DEST, "d", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(DEST, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // The owner follows the link: a refresh shows it, and the program has nothing to change.
    confirmDestination(emulator.app.store, ACCOUNT, "ops@example.net");
    const confirmed = await plugin.read(DEST, "d", created.id, read.properties, inputs);
    expect(confirmed.properties).toMatchObject({ confirmed: true, confirmedAt: expect.any(String) });
    expect((await plugin.diff(DEST, "d", created.id, confirmed.properties, inputs, confirmed.inputs)).changes).toBe(false);
    expect(await plugin.diff(DEST, "d", created.id, confirmed.properties, { addr: "other@example.net" }, inputs)).toMatchObject({ replaces: ["addr"] });

    const imported = await importClean(DEST, "OPS@example.net", "ops@example.net");
    expect(imported.inputs).toEqual(inputs);
    await expect(plugin.read(DEST, "imp", "ops")).rejects.toThrow(/must be the destination's address/);

    await plugin.delete(DEST, "d", created.id, confirmed.properties);
    expect((await plugin.read(DEST, "d", created.id, confirmed.properties, inputs)).id).toBe("");
  });


  it("forwards a local part, changes its destination in place, imports, and deletes", async () => {
    const domain = await apiDomain({ mode: "forward" });
    const domainId = String(domain.id);
    await control.post("/mail/destinations", { addr: "fwd-a@example.net" });
    await control.post("/mail/destinations", { addr: "fwd-b@example.net" });
    const inputs = await checked(ROUTE, { domainId, localPart: "Sales", dest: "FWD-A@example.net" });
    expect(inputs).toEqual({ domainId, localPart: "sales", dest: "fwd-a@example.net" });
    await previewSendsNothing(ROUTE, inputs, "address");

    const created = await plugin.create(ROUTE, "r", inputs);
    expect(created.id).toBe(`${domainId}/sales`);
    expect(created.properties).toMatchObject({ ...inputs, address: `sales@${domain.name}`, destConfirmed: false });
    const read = await plugin.read(ROUTE, "r", created.id, created.properties, inputs);
    expect((await plugin.diff(ROUTE, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const moved = await checked(ROUTE, { ...inputs, dest: "fwd-b@example.net" });
    expect(await plugin.diff(ROUTE, "r", created.id, read.properties, moved, inputs)).toMatchObject({ changes: true, replaces: [], diffs: ["dest"] });
    const updated = await plugin.update(ROUTE, "r", created.id, read.properties, moved, false, inputs);
    expect(updated.dest).toBe("fwd-b@example.net");
    expect(await plugin.diff(ROUTE, "r", created.id, updated, { ...moved, localPart: "info" }, moved)).toMatchObject({ replaces: ["localPart"] });

    const imported = await importClean(ROUTE, `${domainId}/SALES`, `${domainId}/sales`);
    expect(imported.inputs).toEqual(moved);
    await expect(plugin.read(ROUTE, "imp", "sales")).rejects.toThrow(/<domainId>\/<localPart>/);

    await plugin.delete(ROUTE, "r", created.id, updated);
    expect((await plugin.read(ROUTE, "r", created.id, updated, moved)).id).toBe("");
  });

  it("sees a route changed and deleted through the API", async () => {
    const domain = await apiDomain({ mode: "both" });
    await control.post("/mail/destinations", { addr: "drift-a@example.net" });
    await control.post("/mail/destinations", { addr: "drift-b@example.net" });
    const inputs = await checked(ROUTE, { domainId: String(domain.id), localPart: "help", dest: "drift-a@example.net" });
    const created = await plugin.create(ROUTE, "r", inputs);
    await control.api("PUT", `/mail/domains/${domain.id}/routes`, { local_part: "help", dest: "drift-b@example.net" });
    const read = await plugin.read(ROUTE, "r", created.id, created.properties, inputs);
    expect(read.properties.dest).toBe("drift-b@example.net");
    expect((await plugin.diff(ROUTE, "r", created.id, read.properties, inputs, read.inputs)).diffs).toEqual(["dest"]);
    await control.delete(`/mail/domains/${domain.id}/routes/help`);
    expect((await plugin.read(ROUTE, "r", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:getDomain", () => {
  it("finds a domain by name and by id, with its records", async () => {
    const domain = await apiDomain();
    const byName = await plugin.invoke("nsp:mail:getDomain", { name: domain.name.toUpperCase() });
    expect(byName.failures).toEqual([]);
    expect(byName.result).toMatchObject({ id: String(domain.id), name: domain.name, zoneId: String(domain.zone_id), mode: "mailbox" });
    expect(byName.result.records).toHaveLength(8);
    const byId = await plugin.invoke("nsp:mail:getDomain", { id: String(domain.id) });
    expect(byId.result).toEqual(byName.result);
    expect((await plugin.invoke("nsp:mail:getDomain", {})).failures[0]?.property).toBe("name");
    await expect(plugin.invoke("nsp:mail:getDomain", { name: "missing.example" })).rejects.toThrow(/no mail domain named "missing.example"/);
  });
});

describe("zone and mail domain together", () => {
  it("publishes into a zone made by the provider", async () => {
    const zone = await plugin.create(ZONE, "z", await checked(ZONE, { serviceId: String(dnsService), name: `${uniq("together")}.example` }));
    const dom = await plugin.create(DOMAIN, "d", await checked(DOMAIN, { zoneId: zone.id, name: zone.properties.name }));
    expect((await control.list(`/dns/zones/${zone.id}/records`)).length).toBe(8);
    await plugin.delete(DOMAIN, "d", dom.id, dom.properties);
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
  });
});

describe("lost answers and half-made creates", () => {
  let once: PluginHandle;
  beforeAll(async () => {
    once = await anotherPlugin({ maxRetries: 0 });
  });
  afterAll(async () => {
    await control.clearFaults();
  });

  it("keeps a domain whose settings patch failed, and finishes it on the next update", async () => {
    const zone = await apiZone();
    const inputs = await checked(DOMAIN, { zoneId: String(zone.id), name: zone.name, dmarcPolicy: "reject", backupEnabled: true });
    await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["PATCH"], path: "/mail/domains/" });
    const err = (await once.create(DOMAIN, "d", inputs).then(() => undefined, (e: grpc.ServiceError) => e))!;
    await control.clearFaults();
    expect(err.details).toMatch(/the object \d+ exists/);
    const raw = err.metadata.get("grpc-status-details-bin")[0] as Buffer;
    const any = Status.deserializeBinary(new Uint8Array(raw)).getDetailsList()[0]!;
    const detail = providerPb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    const partial = { id: detail.getId(), properties: detail.getProperties()!.toJavaScript() as Obj };
    expect(partial.properties).toMatchObject({ name: zone.name, dmarcPolicy: "none", backupEnabled: false });
    const diff = await once.diff(DOMAIN, "d", partial.id, partial.properties, inputs, inputs);
    expect(diff.diffs.sort()).toEqual(["backupEnabled", "dmarcPolicy"]);
    const finished = await once.update(DOMAIN, "d", partial.id, partial.properties, inputs, false, inputs);
    expect(finished).toMatchObject({ dmarcPolicy: "reject", backupEnabled: true });
    expect((await control.list<Obj>("/mail/domains")).filter((d) => d.name === zone.name)).toHaveLength(1);
  });

  it("adopts a domain and a mailbox whose create answers were lost after the API acted", async () => {
    const zone = await apiZone();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/mail/domains", count: 1 });
    const dom = await once.create(DOMAIN, "d", await checked(DOMAIN, { zoneId: String(zone.id), name: zone.name }));
    expect((await control.list<Obj>("/mail/domains")).filter((d) => d.name === zone.name)).toEqual([expect.objectContaining({ id: Number(dom.id) })]);
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/mailboxes", count: 1 });
    const box = await once.create(MAILBOX, "m", await checked(MAILBOX, { domainId: dom.id, local: "lost" }));
    expect((await control.list<Obj>(`/mail/domains/${dom.id}/mailboxes`)).map((b) => b.id)).toEqual([box.id]);
    expect(once.engineLogs.join("\n")).toMatch(/answer to the create was lost, but the object exists; adopting it/);
  });
});

describe("batched reads", () => {
  it("refreshes the mailboxes of a domain from one list", async () => {
    const domain = await apiDomain();
    const boxes: { inputs: Obj; id: string; properties: Obj }[] = [];
    for (let i = 0; i < 12; i++) {
      const inputs = await checked(MAILBOX, { domainId: String(domain.id), local: `batch${i}` });
      boxes.push({ inputs, ...(await plugin.create(MAILBOX, `b${i}`, inputs)) });
    }
    const batched = await anotherPlugin();
    await control.resetStats();
    const reads = await Promise.all(boxes.map((b, i) => batched.read(MAILBOX, `b${i}`, b.id, b.properties, b.inputs)));
    reads.forEach((r, i) => expect(r.id).toBe(boxes[i]!.id));
    expect((await control.stats()).total).toBe(1);
  });
});
