// The built plugin binary, driven over gRPC as the engine drives it, against a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, secret, type PluginHandle } from "../helpers/plugin";
import { EmulatorControl } from "../helpers/emulator-control";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const RECORD = "nsp:dns:Record";

const provider = useProvider({ account: "demo" });
const { emulator, control, plugin, anotherPlugin, token } = provider;
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

let zones = 0;
lifecycle(provider, [
  {
    type: ZONE,
    create: async () => ({ serviceId, name: `walk${++zones}.example` }),
    unknownOutput: "createdAt",
    update: { enabled: false, negativeTtl: 600 },
    replace: { name: "walk-other.example" },
    apiPath: (_inputs, id) => `/dns/zones/${id}`,
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    bad: [
      [{ serviceId: "x", name: "a.example" }, "serviceId"],
      [{ serviceId: "1", name: "not a domain" }, "name"],
    ],
  },
  {
    type: RECORD,
    create: async () => ({
      zoneId: String(
        (
          await control.post<{ id: number }>("/dns/zones", {
            service_id: Number(serviceId),
            name: `records${++zones}.example`,
          })
        ).id,
      ),
      name: "www",
      type: "A",
      content: "192.0.2.1",
    }),
    unknownOutput: "createdAt",
    update: { content: "192.0.2.2", ttl: 600 },
    replace: { name: "api" },
    importId: (inputs, id) => `${inputs.zoneId}/${id}`,
    apiPath: (inputs, id) => `/dns/zones/${inputs.zoneId}/records/${id}`,
    drift: { body: { content: "198.51.100.99" }, inputs: { content: "198.51.100.99" } },
    bad: [
      [{ zoneId: "1", name: "www", type: "A", content: "192.0.2.1", ttl: 30 }, "ttl"],
      [{ zoneId: "1", name: "www", type: "TXT", content: "v=spf1 -all", proxied: true }, "proxied"],
      [{ zoneId: "1", name: "www", content: "192.0.2.1" }, "type"],
      [{ zoneId: "1", name: "my host", type: "A", content: "192.0.2.1" }, "name"],
      // The record has no preference field: an MX's data starts with it, as in a zone file.
      [{ zoneId: "1", name: "@", type: "MX", content: "mail.example.com" }, "content"],
      [{ zoneId: "1", name: "@", type: "MX", content: "70000 mail.example.com" }, "content"],
      [{ zoneId: "1", name: "_sip._tcp", type: "SRV", content: "10 sip.example.com" }, "content"],
    ],
  },
  {
    type: ZONE,
    create: async () => ({ serviceId, name: "Example.COM." }),
    // Check fills defaults and normalises.
    checkedAs: (given) => ({
      serviceId: given.serviceId,
      name: "example.com",
      mode: "zone",
      enabled: true,
      forceDestroy: false,
    }),
    unknownOutput: "status",
    idPattern: /^\d+$/,
    outputs: { status: "pending" },
    stableReads: true,
    update: { enabled: false, negativeTtl: 900 },
    // The name and the mode replace, deleting first (names are unique).
    replace: [{ inputs: { mode: "host" }, deleteBeforeReplace: true }],
    // The absolute spelling of its name, which a refresh of the adopted zone keeps: see the zone's importSpelling.
    imported: (inputs) => ({ serviceId: inputs.serviceId, name: "example.com.", enabled: false, negativeTtl: 900 }),
    apiPath: (_inputs, id) => `/dns/zones/${id}`,
    skip: { drift: "the row above", bad: "the row above" },
  },
  {
    type: RECORD,
    create: async () => ({
      zoneId: String(
        (
          await control.post<{ id: number }>("/dns/zones", {
            service_id: Number(serviceId),
            name: `records${++zones}.example`,
          })
        ).id,
      ),
      name: "WWW",
      type: "A",
      content: "192.0.2.10",
    }),
    checkedAs: (given) => ({ ...given, name: "www", ttl: 3600, enabled: true, proxied: false }),
    unknownOutput: "createdAt",
    stableReads: true,
    update: { content: "192.0.2.20", ttl: 300 },
    // A type change cannot be patched: replace.
    replace: [{ inputs: { type: "TXT", content: "hello" }, replaces: ["type"] }],
    importId: (inputs, id) => `${inputs.zoneId}/${id}`,
    imported: (inputs) => ({ zoneId: inputs.zoneId, name: "www", type: "A", content: "192.0.2.20", ttl: 300 }),
    importedOutputs: { content: "192.0.2.20", ttl: 300 },
    apiPath: (inputs, id) => `/dns/zones/${inputs.zoneId}/records/${id}`,
    skip: { drift: "the row above", bad: "the row above" },
  },
]);

describe("nsp:dns:Zone and nsp:dns:Record over gRPC", () => {
  it("refreshes the records of a zone from one list, fetched once, unless batching is off", async () => {
    const zone = await plugin.create(
      ZONE,
      "batch",
      (await plugin.check(ZONE, "batch", { serviceId, name: "batch.example" })).inputs,
    );
    const records: { inputs: Record<string, unknown>; id: string; properties: Record<string, unknown> }[] = [];
    for (let i = 0; i < 30; i++) {
      const inputs = (
        await plugin.check(RECORD, `r${i}`, {
          zoneId: zone.id,
          name: `host${i}`,
          type: "A",
          content: `192.0.2.${i + 1}`,
        })
      ).inputs;
      records.push({ inputs, ...(await plugin.create(RECORD, `r${i}`, inputs)) });
    }
    const refreshAll = async (p: PluginHandle) => {
      await control.resetStats();
      const reads = await Promise.all(records.map((r, i) => p.read(RECORD, `r${i}`, r.id, r.properties, r.inputs)));
      reads.forEach((read, i) => {
        expect(read.properties).toEqual(records[i]!.properties);
      });
      return (await control.stats()).total;
    };
    const [batched, unbatched] = await Promise.all([anotherPlugin(), anotherPlugin({ batchReads: false })]);
    expect(await refreshAll(batched)).toBe(1);
    expect(await refreshAll(unbatched)).toBe(30);
    // A write through the provider drops the list: the next Read sees the provider's own change.
    const changed = await batched.update(
      RECORD,
      "r0",
      records[0]!.id,
      records[0]!.properties,
      { ...records[0]!.inputs, ttl: 120 },
      false,
      records[0]!.inputs,
    );
    expect((await batched.read(RECORD, "r0", records[0]!.id, changed, records[0]!.inputs)).properties.ttl).toBe(120);
    await plugin.delete(ZONE, "batch", zone.id, { ...zone.properties, forceDestroy: true });
  });

  it(
    "makes a zone without serviceId on the account's auth_dns service, which it keeps whether the program " +
      "names it later or not",
    async () => {
      const inputs = (await plugin.check(ZONE, "nosvc", { name: "no-service.example" })).inputs;
      expect(inputs).not.toHaveProperty("serviceId");
      await control.resetStats();
      const zone = await plugin.create(ZONE, "nosvc", inputs);
      expect((await control.stats()).byRoute).toEqual({ "GET /services": 1, "POST /dns/zones": 1 });
      expect(zone.properties.serviceId).toBe(serviceId);

      // Named or not, the service is the zone's: neither is a change, so neither replaces the zone.
      const named = { ...inputs, serviceId };
      await control.resetStats();
      for (const [news, oldInputs] of [
        [inputs, inputs],
        [named, inputs],
        [inputs, named],
      ]) {
        expect(await plugin.diff(ZONE, "nosvc", zone.id, zone.properties, news!, oldInputs)).toMatchObject({
          changes: false,
          replaces: [],
        });
      }
      expect((await control.stats()).total).toBe(0);

      const { store } = emulator.app;
      const own = store.services.get(Number(serviceId))!;
      const second = { ...own, id: store.nextId(), name: "Second DNS" };
      store.services.set(second.id, second);
      try {
        // Another service, named, moves the zone, as it does a zone that named its service from the start.
        expect(
          (
            await plugin.diff(
              ZONE,
              "nosvc",
              zone.id,
              zone.properties,
              { ...inputs, serviceId: String(second.id) },
              inputs,
            )
          ).replaces,
        ).toEqual(["serviceId"]);
        await plugin.delete(ZONE, "nosvc", zone.id, zone.properties);
        // Of an account's several auth_dns services none is guessed: the create names them and makes nothing.
        const err = await plugin.create(ZONE, "two", inputs).then(
          () => "created",
          (e: { details?: string }) => String(e.details),
        );
        expect(err).toMatch(
          new RegExp(
            `^serviceId is unset for zone "no-service.example" and the account has 2 auth_dns services: ` +
              `${serviceId} \\("Authoritative DNS"\\), ${second.id} \\("Second DNS"\\); set serviceId`,
          ),
        );
        expect((await control.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain(
          "no-service.example",
        );
      } finally {
        store.services.delete(second.id);
      }
    },
  );

  it("finds a zone by name with nsp:dns:getZone", async () => {
    const zone = await plugin.create(
      ZONE,
      "fn",
      (await plugin.check(ZONE, "fn", { serviceId, name: "lookup.example" })).inputs,
    );
    const byName = await plugin.invoke("nsp:dns:getZone", { name: "Lookup.Example." });
    expect(byName.failures).toEqual([]);
    expect(byName.result).toMatchObject({ id: zone.id, name: "lookup.example", serviceId });
    const byId = await plugin.invoke("nsp:dns:getZone", { id: zone.id });
    expect(byId.result.name).toBe("lookup.example");
    expect((await plugin.invoke("nsp:dns:getZone", {})).failures[0]?.property).toBe("name");
    await expect(plugin.invoke("nsp:dns:getZone", { name: "missing.example" })).rejects.toThrow(
      /no zone named "missing.example"/,
    );
    await plugin.delete(ZONE, "fn", zone.id, zone.properties);
  });

  it("warns, never refuses, of a CNAME beside other records of its name or at the apex (RFC 1034 §3.6.2)", async () => {
    const zone = await plugin.create(
      ZONE,
      "rrset",
      (await plugin.check(ZONE, "rrset", { serviceId, name: "rrset.example" })).inputs,
    );
    await control.post(`/dns/zones/${zone.id}/records`, { name: "www", type: "A", content: "192.0.2.1" });
    const p = await anotherPlugin();
    const warnings = () => p.engineLogs.filter((l) => /RFC 1034 §3\.6\.2/.test(l));
    async function waitForWarnings(n: number): Promise<string[]> {
      for (let i = 0; i < 100 && warnings().length < n; i++) await new Promise((r) => setTimeout(r, 20));
      return warnings();
    }
    // At the apex: from Check alone, with no request.
    await control.resetStats();
    const apex = await p.check(RECORD, "apex", {
      zoneId: zone.id,
      name: "@",
      type: "CNAME",
      content: "elsewhere.example.net",
    });
    expect(apex.failures).toEqual([]);
    expect((await waitForWarnings(1))[0]).toMatch(
      /a CNAME at the apex \(@\) shares its name with the zone's SOA and NS records/,
    );
    expect((await control.stats()).total).toBe(0);
    // Beside the zone's A record: at the create, which goes ahead, from the zone's list the create
    // reads anyway to adopt an identical record (a preview sends nothing).
    const cname = (
      await p.check(RECORD, "cname", { zoneId: zone.id, name: "www", type: "CNAME", content: "cdn.example.net" })
    ).inputs;
    const made = await p.create(RECORD, "cname", cname);
    expect(made.id).not.toBe("");
    expect((await waitForWarnings(2))[1]).toMatch(
      /^www CNAME: the zone also has A "192\.0\.2\.1" at www \(RFC 1034 §3\.6\.2/,
    );
    // Two new records of one command are checked against each other too.
    const mx = (
      await p.check(RECORD, "mx", { zoneId: zone.id, name: "mail", type: "MX", content: "10 mx.example.net" })
    ).inputs;
    await p.create(RECORD, "mx", mx);
    await p.create(
      RECORD,
      "mailcname",
      (await p.check(RECORD, "mailcname", { zoneId: zone.id, name: "mail", type: "CNAME", content: "mx.example.net" }))
        .inputs,
    );
    expect((await waitForWarnings(3))[2]).toMatch(/^mail CNAME: the zone also has MX "10 mx\.example\.net" at mail/);
    // A record of a name of its own: no warning.
    await p.create(
      RECORD,
      "api",
      (await p.check(RECORD, "api", { zoneId: zone.id, name: "api", type: "CNAME", content: "api.example.net" }))
        .inputs,
    );
    await p.stop();
    expect(warnings()).toHaveLength(3);
    await plugin.delete(ZONE, "rrset", zone.id, { ...zone.properties, forceDestroy: true });
  });

  it("imports a record by the id `pulumi stack --show-ids` shows, finding its zone", async () => {
    const zone = await plugin.create(
      ZONE,
      "bare",
      (await plugin.check(ZONE, "bare", { serviceId, name: "bare-id.example" })).inputs,
    );
    const inputs = (await plugin.check(RECORD, "r", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.7" }))
      .inputs;
    const made = await plugin.create(RECORD, "r", inputs);
    const p = await anotherPlugin();
    const bare = await p.read(RECORD, "imp", made.id);
    expect(bare.id).toBe(made.id);
    expect(bare.inputs).toEqual((await p.read(RECORD, "imp", `${zone.id}/${made.id}`)).inputs);
    expect(bare.inputs).toMatchObject({ zoneId: zone.id, name: "www", type: "A", content: "192.0.2.7" });
    expect((await p.read(RECORD, "imp", "999999999")).id).toBe("");
    await plugin.delete(ZONE, "bare", zone.id, { ...zone.properties, forceDestroy: true });
  });

  it("refuses a serviceId copied from an example, naming the account's auth_dns services and getServices", async () => {
    const inputs = (await plugin.check(ZONE, "copied", { serviceId: "42", name: "copied.example" })).inputs;
    const err = await plugin.create(ZONE, "copied", inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(String((err as { details?: string } | undefined)?.details)).toMatch(
      new RegExp(
        `serviceId "42" is not an auth_dns service of this account \\(its auth_dns services: ${serviceId} ` +
          `\\(".+"\\)\\)\\. Look the id up in the program with nsp:dns:getServices`,
      ),
    );
  });

  it("refuses, in Diff and before any delete, to move a zone to a service that is not one of the account's auth_dns services", async () => {
    const inputs = (await plugin.check(ZONE, "moved", { serviceId, name: "moved.example" })).inputs;
    const created = await plugin.create(ZONE, "moved", inputs);
    const cdnService = String((await control.services()).find((s) => s.type === "cdn")!.id);
    for (const elsewhere of ["42", cdnService]) {
      const news = (await plugin.check(ZONE, "moved", { ...inputs, serviceId: elsewhere }, inputs)).inputs;
      const err = await plugin.diff(ZONE, "moved", created.id, created.properties, news, inputs).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(String((err as { details?: string } | undefined)?.details)).toMatch(
        new RegExp(
          `serviceId "${elsewhere}" is not an auth_dns service of this account .*The zone "moved.example" is kept: replacing it would delete it first`,
        ),
      );
    }
    // A move to one of the account's auth_dns services goes ahead (here from a state that names another).
    const movable = await plugin.diff(ZONE, "moved", created.id, { ...created.properties, serviceId: "42" }, inputs, {
      ...inputs,
      serviceId: "42",
    });
    expect(movable.replaces).toEqual(["serviceId"]);
    expect(movable.deleteBeforeReplace).toBe(true);
    // Other replacements that delete first are not held back.
    const hosted = (await plugin.check(ZONE, "moved", { ...inputs, mode: "host" }, inputs)).inputs;
    const d = await plugin.diff(ZONE, "moved", created.id, created.properties, hosted, inputs);
    expect(d.replaces).toEqual(["mode"]);
    expect(d.deleteBeforeReplace).toBe(true);
    expect((await control.get<{ name: string }>(`/dns/zones/${created.id}`)).name).toBe("moved.example");
  });
});

describe("the API token", () => {
  it("appears in no plugin output, error or returned property", async () => {
    const secretToken = `svc_${"5eC7".repeat(8).toLowerCase()}`;
    await control.addAccount("leakcheck", secretToken);
    const p = await anotherPlugin({}, { env: { NSP_DEBUG: "1" }, configure: false });
    const seen: string[] = [];
    const cfgCheck = await p.call<unknown, import("@pulumi/pulumi/proto/provider_pb").CheckResponse>(
      "checkConfig",
      new (await import("@pulumi/pulumi/proto/provider_pb")).CheckRequest()
        .setUrn("urn:pulumi:test::nsp-test::pulumi:providers:nsp::default")
        .setNews(
          (await import("google-protobuf/google/protobuf/struct_pb")).Struct.fromJavaScript({
            apiToken: secret(secretToken),
            baseUrl: emulator.baseUrl,
          } as never),
        ),
    );
    const cfgInputs = cfgCheck.getInputs()!.toJavaScript();
    expect(isSecret(cfgInputs.apiToken)).toBe(true);
    seen.push(JSON.stringify(cfgCheck.getFailuresList().map((f) => f.getReason())));

    await p.configure({ apiToken: secret(secretToken), baseUrl: emulator.baseUrl });
    const services = await new EmulatorControl(emulator.baseUrl, secretToken).services();
    const zoneIn = (
      await p.check(ZONE, "t", {
        serviceId: String(services.find((s) => s.type === "auth_dns")!.id),
        name: "token.example",
      })
    ).inputs;
    const z = await p.create(ZONE, "t", zoneIn);
    seen.push(JSON.stringify(z), JSON.stringify(await p.read(ZONE, "t", z.id, z.properties, zoneIn)));
    // Errors from the API, from the client and from Check all pass through the same scrubbing.
    for (const attempt of [
      () => p.create(ZONE, "dup", zoneIn),
      () =>
        p.create(RECORD, "bad", {
          zoneId: "999999",
          name: "x",
          type: "A",
          content: "192.0.2.1",
          ttl: 3600,
          enabled: true,
          proxied: false,
        }),
      () => p.read(ZONE, "x", "abc/def"),
    ]) {
      const err = await attempt().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err).toBeDefined();
      seen.push(err!.message, String((err as { details?: string }).details));
    }
    // A rejected token is not echoed in the failure either.
    const bad = await p.call<unknown, import("@pulumi/pulumi/proto/provider_pb").CheckResponse>(
      "checkConfig",
      new (await import("@pulumi/pulumi/proto/provider_pb")).CheckRequest().setNews(
        (await import("google-protobuf/google/protobuf/struct_pb")).Struct.fromJavaScript({
          apiToken: secret(`bad ${secretToken}`),
        } as never),
      ),
    );
    expect(bad.getFailuresList()[0]?.getReason()).toMatch(/^apiToken /);
    seen.push(
      bad
        .getFailuresList()
        .map((f) => f.getReason())
        .join(" "),
    );
    await p.delete(ZONE, "t", z.id, z.properties);
    // Stopped now, for everything it printed up to its exit.
    await p.stop();
    seen.push(p.stdout(), p.stderr(), ...p.engineLogs);
    const everything = seen.join("\n");
    expect(everything.length).toBeGreaterThan(100);
    expect(everything).not.toContain(secretToken);
    expect(everything).not.toContain(secretToken.slice(4));
  });

  it("is a clear error when missing", async () => {
    const p = await anotherPlugin({}, { configure: false });
    await p.configure({ baseUrl: emulator.baseUrl });
    const inputs = (await p.check(ZONE, "z", { serviceId, name: "no-token.example" })).inputs;
    await expect(p.create(ZONE, "z", inputs)).rejects.toThrow(/no API token is configured.*NSP_API_TOKEN/);
  });

  it("falls back to NSP_API_TOKEN and NSP_BASE_URL", async () => {
    const p = await anotherPlugin(
      {},
      { env: { NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl }, configure: false },
    );
    await p.configure({});
    const r = await p.invoke("nsp:dns:getZone", { name: "nothing-here.example" }).catch((e: Error) => e.message);
    expect(String(r)).toMatch(/no zone named/);
  });
});
