// nsp:mail:Server, nsp:mail:Domain (with the zone it publishes into, BYO servers, lost create answers)
// and nsp:mail:getDomain, through the built plugin binary over gRPC against a live emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as grpc from "@grpc/grpc-js";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { isSecret, plain, UNKNOWN, type PluginHandle } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useMailProvider } from "../helpers/mail-parents";
import { until } from "../helpers/until";

const ZONE = "nsp:dns:Zone";
const SERVER = "nsp:mail:Server";
const DOMAIN = "nsp:mail:Domain";
const MAILBOX = "nsp:mail:Mailbox";

type Obj = Record<string, any>;

const provider = useMailProvider();
const {
  control,
  plugin,
  anotherPlugin,
  checked,
  previewSendsNothing,
  importClean,
  updatesInPlace,
  serial,
  uniq,
  dnsServiceId,
  apiZone,
  apiDomain,
} = provider;

lifecycle(provider, [
  {
    type: SERVER,
    create: async () => ({ name: uniq("walk"), ip4: `192.0.2.${100 + serial()}` }),
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
]);

describe("nsp:mail:Server", () => {
  it("registers a server with a one-time install command kept as a secret, rotates it, imports, and deletes", async () => {
    const inputs = await checked(SERVER, { name: " mx-home ", ip4: " 192.0.2.25 ", ip6: "2001:DB8::25" });
    expect(inputs).toEqual({ name: "mx-home", ip4: "192.0.2.25", ip6: "2001:db8::25" });
    await previewSendsNothing(SERVER, inputs, "installCommand");

    const created = await plugin.create(SERVER, "s", inputs);
    expect(created.id).toMatch(/^srv_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({
      ...inputs,
      status: "waiting",
      domainIds: [],
      lastCheck: null,
      hostname: `${created.id.replace("_", "-")}.byo.mail.nsp-emulator.test`,
    });
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
    expect(await plugin.diff(SERVER, "s", created.id, afterRotation.properties, moved, rotate)).toMatchObject({
      changes: true,
      replaces: ["ip4"],
    });

    // Import: the command cannot be known, so it is null; the inputs diff clean.
    const imported = await importClean(SERVER, created.id, created.id);
    expect(imported.inputs).toEqual(inputs);
    expect(plain(imported.properties.installCommand)).toBeNull();
    await expect(plugin.read(SERVER, "imp", "srv/1")).rejects.toThrow(
      /is not a mail server id; a mail server is known by its id \(<serverId>, such as srv_0123456789ab\)/,
    );

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
    expect(inputs).toEqual({
      zoneId: String(zone.id),
      name: zone.name,
      mode: "mailbox",
      enabled: true,
      dmarcPolicy: "none",
      backupEnabled: false,
      forceDestroy: false,
    });
    // Preview may read the zone (to warn of mail records already there) but writes nothing.
    await control.resetStats();
    const preview = await plugin.create(DOMAIN, "p", inputs, true);
    expect(preview.id).toBe("");
    expect(plain(preview.properties.records)).toBe(UNKNOWN);
    expect((await control.stats()).mutating).toBe(0);

    const created = await plugin.create(DOMAIN, "d", inputs);
    expect(created.id).toMatch(/^\d+$/);
    const records = created.properties.records as Obj[];
    expect(records.map((r) => r.kind)).toEqual([
      "mx",
      "mx",
      "spf",
      "dkim",
      "dmarc",
      "tls_policy",
      "tls_policy",
      "tls_rpt",
    ]);
    for (const r of records)
      expect(r).toMatchObject({ status: "published", ttl: 3600, recordId: expect.stringMatching(/^\d+$/) });
    expect(records[4]).toMatchObject({
      name: `_dmarc.${zone.name}`,
      type: "TXT",
      content: expect.stringMatching(/^v=DMARC1; p=none;/),
    });
    expect(created.properties).toMatchObject({
      zoneName: zone.name,
      byo: false,
      dkimSelector: "nsp1",
      catchAll: null,
      defaultQuotaBytes: 5 * 1024 ** 3,
    });
    const zoneRecordIds = (await control.list<Obj>(`/dns/zones/${zone.id}/records`)).map((r) => String(r.id));
    expect(zoneRecordIds.sort()).toEqual(records.map((r) => r.recordId).sort());

    const read = await plugin.read(DOMAIN, "d", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(DOMAIN, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Every patchable setting at once.
    const settings = await checked(DOMAIN, {
      ...inputs,
      enabled: false,
      catchAll: "Postmaster@Example.NET",
      mode: "both",
      defaultQuotaBytes: 1024 ** 3,
      dmarcPolicy: "reject",
      backupEnabled: true,
    });
    const updated = await updatesInPlace(DOMAIN, "d", created.id, read.properties, settings, inputs, [
      "backupEnabled",
      "catchAll",
      "defaultQuotaBytes",
      "dmarcPolicy",
      "enabled",
      "mode",
    ]);
    expect(updated).toMatchObject({
      enabled: false,
      catchAll: "postmaster@example.net",
      mode: "both",
      defaultQuotaBytes: 1024 ** 3,
      dmarcPolicy: "reject",
      backupEnabled: true,
    });
    const dmarc = (updated.records as Obj[]).find((r) => r.kind === "dmarc")!;
    expect(dmarc.content).toMatch(/^v=DMARC1; p=reject;/);
    expect((await control.get(`/dns/zones/${zone.id}/records/${dmarc.recordId}`)).content).toBe(dmarc.content);
    expect((await plugin.diff(DOMAIN, "d", created.id, updated, settings, settings)).changes).toBe(false);

    // Dropping catchAll turns catch-all off.
    const { catchAll: _c, ...noCatchAll } = settings;
    const drop = await plugin.diff(DOMAIN, "d", created.id, updated, noCatchAll, settings);
    expect(drop).toMatchObject({ diffs: ["catchAll"], replaces: [] });
    expect(drop.detailed.catchAll).toBe(providerPb.PropertyDiff.Kind.DELETE);
    const dropped = await plugin.update(DOMAIN, "d", created.id, updated, noCatchAll, false, settings);
    expect(dropped.catchAll).toBeNull();

    // Create fields replace; the same name must be deleted first.
    const renamed = await plugin.diff(
      DOMAIN,
      "d",
      created.id,
      dropped,
      { ...noCatchAll, name: `lists.${zone.name}` },
      noCatchAll,
    );
    expect(renamed).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
    const byo = await plugin.diff(
      DOMAIN,
      "d",
      created.id,
      dropped,
      { ...noCatchAll, serverId: "srv_000000000000" },
      noCatchAll,
    );
    expect(byo).toMatchObject({ changes: true, replaces: ["serverId"], deleteBeforeReplace: true });

    const imported = await importClean(DOMAIN, created.id, created.id);
    expect(imported.inputs).toEqual({
      zoneId: String(zone.id),
      name: zone.name,
      zoneName: zone.name,
      mode: "both",
      enabled: false,
      defaultQuotaBytes: 1024 ** 3,
      dmarcPolicy: "reject",
      backupEnabled: true,
    });
    await expect(plugin.read(DOMAIN, "imp", zone.name)).rejects.toThrow(
      /is not a mail domain id; a mail domain is known by its numeric id \(<domainId>/,
    );

    await plugin.delete(DOMAIN, "d", created.id, dropped);
    expect(await control.list(`/dns/zones/${zone.id}/records`)).toEqual([]);
    expect((await plugin.read(DOMAIN, "d", created.id, dropped, noCatchAll)).id).toBe("");
  });

  it("warns, in preview and before it publishes, of MX and SPF records already at its name; not on a clean name", async () => {
    const warningsAbout = (name: string) =>
      plugin.engineLogs.filter((l) => l.includes(`${name} already has mail records`));
    async function waitForWarning(name: string): Promise<string> {
      await until(() => warningsAbout(name).length > 0);
      expect(warningsAbout(name)).toHaveLength(1);
      return warningsAbout(name)[0]!;
    }

    // A clean apex, with only records that do not route mail (and an MX at another name).
    const clean = await apiZone();
    await control.post(`/dns/zones/${clean.id}/records`, {
      name: "@",
      type: "TXT",
      content: "site-verification=abc",
      ttl: 3600,
    });
    await control.post(`/dns/zones/${clean.id}/records`, {
      name: "old",
      type: "MX",
      content: "10 mx.old.example",
      ttl: 3600,
    });
    const cleanInputs = await checked(DOMAIN, { zoneId: String(clean.id), name: clean.name });
    await plugin.create(DOMAIN, "clean", cleanInputs, true);
    const cleanDomain = await plugin.create(DOMAIN, "clean", cleanInputs);

    // An apex that already receives mail elsewhere.
    const used = await apiZone();
    await control.post(`/dns/zones/${used.id}/records`, {
      name: "@",
      type: "MX",
      content: "10 mx.old.example",
      ttl: 3600,
    });
    await control.post(`/dns/zones/${used.id}/records`, {
      name: "@",
      type: "TXT",
      content: "v=spf1 include:old.example ~all",
      ttl: 3600,
    });
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
    const inputs = await checked(DOMAIN, {
      name: `news.${uniq("ext")}.example`,
      mode: "forward",
      dmarcPolicy: "quarantine",
      catchAll: "ops@example.net",
    });
    const created = await plugin.create(DOMAIN, "d", inputs);
    expect(created.properties).toMatchObject({
      zoneId: null,
      mode: "forward",
      dmarcPolicy: "quarantine",
      catchAll: "ops@example.net",
    });
    expect(
      (created.properties.records as Obj[]).every((r) => r.status === "not_published" && r.recordId === null),
    ).toBe(true);
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
      new RegExp(
        `nsp:mail:Server: cannot delete mail server ${srv.id} \\(mx-dep\\) while mail domains use it: ${zone.name.replace(/\./g, "\\.")} \\(id ${dom.id}\\)`,
      ),
    );
    expect((await plugin.read(SERVER, "srv", srv.id, srvRead.properties, serverInputs)).id).toBe(srv.id);

    // The engine's order: the dependent domain first, then the server.
    await plugin.delete(DOMAIN, "dom", dom.id, dom.properties);
    await plugin.delete(SERVER, "srv", srv.id, srvRead.properties);
    expect((await plugin.read(SERVER, "srv", srv.id, srvRead.properties, serverInputs)).id).toBe("");
    expect(await control.list(`/dns/zones/${zone.id}/records`)).toEqual([]);
  });
});

describe("nsp:mail:getDomain", () => {
  it("finds a domain by name and by id, with its records", async () => {
    const domain = await apiDomain();
    const byName = await plugin.invoke("nsp:mail:getDomain", { name: domain.name.toUpperCase() });
    expect(byName.failures).toEqual([]);
    expect(byName.result).toMatchObject({
      id: String(domain.id),
      name: domain.name,
      zoneId: String(domain.zone_id),
      mode: "mailbox",
    });
    expect(byName.result.records).toHaveLength(8);
    const byId = await plugin.invoke("nsp:mail:getDomain", { id: String(domain.id) });
    expect(byId.result).toEqual(byName.result);
    expect((await plugin.invoke("nsp:mail:getDomain", {})).failures[0]?.property).toBe("name");
    await expect(plugin.invoke("nsp:mail:getDomain", { name: "missing.example" })).rejects.toThrow(
      /no mail domain named "missing.example"/,
    );
  });
});

describe("zone and mail domain together", () => {
  it("publishes into a zone made by the provider", async () => {
    const zone = await plugin.create(
      ZONE,
      "z",
      await checked(ZONE, { serviceId: await dnsServiceId(), name: `${uniq("together")}.example` }),
    );
    const dom = await plugin.create(
      DOMAIN,
      "d",
      await checked(DOMAIN, { zoneId: zone.id, name: zone.properties.name }),
    );
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
    const inputs = await checked(DOMAIN, {
      zoneId: String(zone.id),
      name: zone.name,
      dmarcPolicy: "reject",
      backupEnabled: true,
    });
    await control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["PATCH"], path: "/mail/domains/" });
    const err = (await once.create(DOMAIN, "d", inputs).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    ))!;
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
    expect((await control.list<Obj>("/mail/domains")).filter((d) => d.name === zone.name)).toEqual([
      expect.objectContaining({ id: Number(dom.id) }),
    ]);
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/mailboxes", count: 1 });
    const box = await once.create(MAILBOX, "m", await checked(MAILBOX, { domainId: dom.id, local: "lost" }));
    expect((await control.list<Obj>(`/mail/domains/${dom.id}/mailboxes`)).map((b) => b.id)).toEqual([box.id]);
    expect(once.engineLogs.join("\n")).toMatch(/answer to the create was lost, but the object exists; adopting it/);
  });
});
