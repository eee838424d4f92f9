// The plugin's List (what `pulumi do <kind> list` calls), over gRPC as the engine calls it: it
// finds what nsp-discover finds, from the same list facts; it pages with the API's pages and a
// continuation token; its inputs are checked before any request; and a plugin configured only
// from NSP_* variables (the engine filling in the schema's defaults) lists too.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../provider/src/client";
import { discover } from "../../provider/src/discover/discover";
import { withState } from "../../provider/src/discover/with-state";
import { configureSession } from "../../provider/src/config/session";
import { resources } from "../../provider/src/modules/all-definitions";
import { DEFAULT_BASE_URL } from "../../provider/src/config/provider-config";
import { seedAccount, type Seeded } from "../helpers/account-seed";
import { secret, type PluginHandle } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";
import type * as grpc from "@grpc/grpc-js";

const { emulator, control, plugin, anotherPlugin } = useProvider();

let seeded: Seeded;
let bigZone: number;
const BIG = 1200;

/** Every page of a List, as `pulumi do <kind> list --all` reads them, and how many calls that took. */
async function listAll(p: PluginHandle, type: string, query: Record<string, unknown> = {}) {
  const ids: string[] = [];
  let continuation: string | undefined;
  let calls = 0;
  do {
    const page = await p.list(type, query, continuation ? { continuation } : {});
    calls++;
    ids.push(...page.results.map((r) => r.id));
    continuation = page.continuation;
  } while (continuation);
  return { ids, calls };
}

beforeAll(async () => {
  seeded = await seedAccount(control, { zones: 2, records: 48, prefix: "lst" });
  const services = await control.services();
  const zone = await control.post<{ id: number }>("/dns/zones", {
    service_id: services.find((s) => s.type === "auth_dns")!.id,
    name: "big-list.example",
  });
  bigZone = zone.id;
  const lines = Array.from({ length: BIG }, (_, i) => `h${i} 300 IN A 192.0.2.${(i % 250) + 1}`);
  const imported = await control.post<{ added: number }>(`/dns/zones/${zone.id}/import`, {
    text: `${lines.join("\n")}\n`,
    mode: "apply",
  });
  if (imported.added !== BIG) throw new Error(`the import added ${JSON.stringify(imported)}`);
}, 60_000);

describe("List", () => {
  it("finds every object nsp-discover finds, kind by kind, from the definition's list facts", async () => {
    const client = new ApiClient({ baseUrl: emulator.baseUrl, token: emulator.token, requestsPerMinute: 0 });
    // Records one by one, however large the zone: List lists records, not zone files.
    const { file } = await discover(client, resources, { zoneRecordsAbove: Infinity }).finally(() => client.close());
    const byType = new Map<string, string[]>();
    for (const r of file.resources) byType.set(r.type, [...(byType.get(r.type) ?? []), r.id]);
    // The seed holds objects of these kinds; every one of them must be listed.
    expect([...byType.keys()].sort()).toEqual(
      [
        "nsp:cdn:Site",
        "nsp:dns:Range",
        "nsp:dns:Record",
        "nsp:dns:Zone",
        "nsp:dns:ZoneDnssec",
        "nsp:dns:ZoneTransfer",
        "nsp:index:Webhook",
        "nsp:link:Tunnel",
        "nsp:link:TunnelHostnames",
        "nsp:mail:Alias",
        "nsp:mail:Domain",
        "nsp:mail:Group",
        "nsp:mail:Mailbox",
        "nsp:rpki:Ca",
        "nsp:rpki:Roa",
        "nsp:security:Rule",
        "nsp:vgate:Extension",
        "nsp:vgate:Ivr",
        "nsp:vgate:Pbx",
        "nsp:vgate:RingGroup",
      ].sort(),
    );
    for (const [type, ids] of byType) {
      const def = resources.find((r) => r.token === type)!;
      const parentInput = def.list!.parent?.input;
      // A child kind is listed per parent: the first part of its import id.
      const parents =
        parentInput && def.importId.includes("/") ? [...new Set(ids.map((id) => id.split("/")[0]!))] : [undefined];
      const listed = new Set<string>();
      for (const parent of parents)
        for (const id of (await listAll(plugin, type, parent ? { [parentInput!]: parent } : {})).ids) listed.add(id);
      expect(
        ids.filter((id) => !listed.has(id)),
        `${type}: found by nsp-discover, not by List`,
      ).toEqual([]);
    }
  });

  it("nsp-discover --with-state gives each entry the inputs and outputs the plugin's Read gives at import", async () => {
    const client = new ApiClient({ baseUrl: emulator.baseUrl, token: emulator.token, requestsPerMinute: 0 });
    const { file } = await discover(client, resources, { zones: seeded.zoneIds.map(String) }).finally(() =>
      client.close(),
    );
    const session = configureSession(
      { apiToken: emulator.token, baseUrl: emulator.baseUrl, requestsPerMinute: 0 },
      { userAgent: "test", log: () => {}, tokenSettings: { config: "test", env: "test" }, explicitProviders: true },
    );
    const signal = new AbortController().signal;
    const { entries, leftToRead } = await withState(file.resources, resources, () =>
      session.context({ signal, log: () => {} }),
    ).finally(() => session.api().client.close());
    // Only objects holding a secret are left to the import's read (the seeded zone's transfer has a TSIG key).
    expect(leftToRead.map((l) => l.reason)).toEqual(leftToRead.map(() => expect.stringMatching(/^holds the secret /)));
    expect(entries.filter((e) => e.outputs).length).toBeGreaterThan(file.resources.length / 2);
    for (const entry of entries.filter((e) => e.outputs)) {
      const read = await plugin.read(entry.type, entry.name, entry.id);
      expect({ inputs: entry.inputs, outputs: entry.outputs }, `${entry.type} ${entry.id}`).toEqual({
        inputs: read.inputs,
        outputs: read.properties,
      });
    }
  });

  it("pages a zone of 1,200 records with the API's pages: ceil(1200/500) list requests and a continuation token between them", async () => {
    await control.resetStats();
    const { ids, calls } = await listAll(plugin, "nsp:dns:Record", { zoneId: String(bigZone) });
    const stats = await control.stats();
    const pages = Math.ceil(BIG / 500);
    expect(new Set(ids).size).toBe(BIG);
    expect(calls).toBe(pages);
    expect(stats.byRoute["GET /dns/zones/:id/records"]).toBe(pages);
    expect(stats.total).toBe(pages);
    expect(ids[0]).toMatch(new RegExp(`^${bigZone}/\\d+$`));
  });

  it("stops at the limit it is given, asking the API for no more", async () => {
    await control.resetStats();
    const page = await plugin.list("nsp:dns:Record", { zoneId: String(bigZone) }, { limit: 7 });
    expect(page.results).toHaveLength(7);
    expect(page.continuation).toBe("7");
    const next = await plugin.list(
      "nsp:dns:Record",
      { zoneId: String(bigZone) },
      { limit: 3, continuation: page.continuation! },
    );
    expect(next.results.map((r) => r.id)).not.toContain(page.results[0]!.id);
    expect((await control.stats()).total).toBe(2);
  });

  it("narrows by the filters the kind declares: a record's name and type, a zone's service", async () => {
    const named = await listAll(plugin, "nsp:dns:Record", { zoneId: String(bigZone), name: "h17", type: "A" });
    expect(named.ids).toHaveLength(1);
    expect(
      (await listAll(plugin, "nsp:dns:Record", { zoneId: String(seeded.zoneIds[1]), type: "MX" })).ids,
    ).toHaveLength(4);
    expect(
      (await listAll(plugin, "nsp:dns:Record", { zoneId: String(bigZone), name: "h17", type: "TXT" })).ids,
    ).toEqual([]);
    const auth = (await control.services()).find((s) => s.type === "auth_dns")!.id;
    const zones = await listAll(plugin, "nsp:dns:Zone", { serviceId: String(auth) });
    expect(zones.ids).toEqual(expect.arrayContaining([String(bigZone), ...seeded.zoneIds.map(String)]));
    expect((await plugin.list("nsp:dns:Zone", { serviceId: "999999" })).results).toEqual([]);
    const names = (await plugin.list("nsp:dns:Record", { zoneId: String(bigZone), name: "h17" })).results.map(
      (r) => r.name,
    );
    expect(names).toEqual(["h17-a"]);
  });

  it("names a missing parent or a bad filter before any request, and a kind the API cannot list", async () => {
    await control.resetStats();
    const refused = async (type: string, query: Record<string, unknown>) =>
      (await plugin.list(type, query).then(
        () => undefined,
        (e: grpc.ServiceError) => e.details,
      )) ?? "";
    expect(await refused("nsp:dns:Record", {})).toMatch(/zoneId.*required/);
    expect(await refused("nsp:dns:Record", { zoneId: String(bigZone), type: "BOGUS" })).toMatch(/type must be one of/);
    expect(await refused("nsp:dns:Record", { zoneId: String(bigZone), ttl: 5 })).toMatch(/unknown property "ttl"/);
    expect(await refused("nsp:org:Apps", {})).toMatch(/cannot be listed/);
    // ...and a good query, after them all, is the one request made.
    expect(await refused("nsp:dns:Record", { zoneId: String(bigZone) })).toBe("");
    expect((await control.stats()).total).toBe(1);
  });

  it("lists with a plugin configured from NSP_* alone, the engine having filled in the schema's defaults", async () => {
    const fromEnv = await anotherPlugin(
      {},
      { env: { NSP_API_TOKEN: emulator.token, NSP_BASE_URL: emulator.baseUrl }, configure: false },
    );
    await fromEnv.configure({
      apiToken: secret(null),
      baseUrl: DEFAULT_BASE_URL,
      insecureHttp: false,
      requestsPerMinute: 300,
      maxRetries: 5,
      batchReads: true,
    });
    const zones = await listAll(fromEnv, "nsp:dns:Zone");
    expect(zones.ids).toContain(String(bigZone));
    const services = await fromEnv.invoke("nsp:dns:getServices", { type: "auth_dns" });
    expect(services.failures).toEqual([]);
    expect(fromEnv.stderr()).not.toContain(emulator.token);
  });
});
