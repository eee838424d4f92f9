// What an `up` finds after an earlier run was killed with creates on the wire: objects the state
// never recorded. Over gRPC against the emulator: identical objects are adopted once each, names
// unique in the account fail with the import command that adopts them.
import type * as grpc from "@grpc/grpc-js";
import { beforeAll, describe, expect, it } from "vitest";
import type { PluginHandle } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

const { control, anotherPlugin } = useProvider({ plugin: false });
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

/** A plugin process stands for one pulumi command: adoption claims live as long as it does. */
function command(): Promise<PluginHandle> {
  return anotherPlugin();
}

async function apiZone(name: string): Promise<string> {
  return String((await control.post<{ id: number }>("/dns/zones", { service_id: Number(serviceId), name })).id);
}

type LiveRecord = { id: number; name: string; type: string; content: string; ttl: number };

it("adopts an orphan record instead of doubling it, claims each orphan once, and patches what differs", async () => {
  const zoneId = await apiZone("orphans.example");
  // What a killed run left: two identical orphans of one record and one of another, TTL 600.
  const orphans = [
    await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, { name: "_v", type: "TXT", content: "a", ttl: 600 }),
    await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, { name: "_v", type: "TXT", content: "a", ttl: 600 }),
    await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, { name: "_v", type: "TXT", content: "b", ttl: 600 }),
  ];
  const plugin = await command();
  const input = async (content: string) =>
    (await plugin.check("nsp:dns:Record", `r-${content}`, { zoneId, name: "_v", type: "TXT", content, ttl: 300 }))
      .inputs;
  // Three resources of one program, two of them with the same content, all in one command.
  const [a1, a2, b, c] = await Promise.all([
    plugin.create("nsp:dns:Record", "a1", await input("a")),
    plugin.create("nsp:dns:Record", "a2", await input("a")),
    plugin.create("nsp:dns:Record", "b", await input("b")),
    plugin.create("nsp:dns:Record", "c", await input("c")),
  ]);
  expect([a1.id, a2.id].sort()).toEqual([String(orphans[0]!.id), String(orphans[1]!.id)].sort());
  expect(b.id).toBe(String(orphans[2]!.id));
  expect(a1.properties).toMatchObject({ content: "a", ttl: 300 });
  const live = await control.list<LiveRecord>(`/dns/zones/${zoneId}/records`);
  expect(live.map((r) => `${r.id} ${r.content} ${r.ttl}`).sort()).toEqual(
    [a1, a2, b, c].map((r) => `${r.id} ${r.properties.content} 300`).sort(),
  );
  expect(plugin.engineLogs.join("\n")).toMatch(
    /record _v TXT: an identical object already exists \(id \d+\); adopting it/,
  );
});

it("adopts an orphan whose content the API stored in its own spelling", async () => {
  const zoneId = await apiZone("spelling.example");
  // The API keeps IPv6 compressed in lower case and host names without the trailing dot.
  const v6 = await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, {
    name: "v6",
    type: "AAAA",
    content: "2001:0DB8:0000:0000:0000:0000:0000:0001",
  });
  const cname = await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, {
    name: "@",
    type: "CNAME",
    content: "Target.Example.COM.",
  });
  const plugin = await command();
  const create = async (name: string, type: string, content: string) =>
    plugin.create(
      "nsp:dns:Record",
      name,
      (await plugin.check("nsp:dns:Record", name, { zoneId, name, type, content })).inputs,
    );
  expect((await create("v6", "AAAA", "2001:DB8::0:1")).id).toBe(String(v6.id));
  expect((await create("@", "CNAME", "target.example.com")).id).toBe(String(cname.id));
  expect(await control.list(`/dns/zones/${zoneId}/records`)).toHaveLength(2);
});

it("makes 120 records with one list of the zone beyond the 120 creates", async () => {
  const zoneId = await apiZone("count.example");
  const plugin = await command();
  const inputs = await Promise.all(
    Array.from(
      { length: 120 },
      async (_, i) =>
        (await plugin.check("nsp:dns:Record", `t${i}`, { zoneId, name: `t${i}`, type: "TXT", content: `v=${i}` }))
          .inputs,
    ),
  );
  await control.resetStats();
  await Promise.all(inputs.map((inp, i) => plugin.create("nsp:dns:Record", `t${i}`, inp)));
  const stats = await control.stats();
  console.log(`requests for 120 record creates: ${JSON.stringify(stats.byMethod)} (total ${stats.total})`);
  expect(stats.byMethod).toEqual({ POST: 120, GET: 1 });
  expect(await control.list(`/dns/zones/${zoneId}/records`)).toHaveLength(120);
});

it("leaves an adopted record to its new resource when the old one is deleted in the same command (a rename)", async () => {
  const zoneId = await apiZone("rename.example");
  const first = await command();
  const inp = (await first.check("nsp:dns:Record", "old", { zoneId, name: "www", type: "A", content: "192.0.2.7" }))
    .inputs;
  const old = await first.create("nsp:dns:Record", "old", inp);
  // The program renames the resource: the engine creates "new", then deletes "old".
  const second = await command();
  const renamed = await second.create("nsp:dns:Record", "new", inp);
  expect(renamed.id).toBe(old.id);
  await second.delete("nsp:dns:Record", "old", old.id, old.properties);
  expect(await control.list<LiveRecord>(`/dns/zones/${zoneId}/records`)).toEqual([
    expect.objectContaining({ id: Number(old.id), content: "192.0.2.7" }),
  ]);
});

it("never adopts a record this command deleted", async () => {
  const zoneId = await apiZone("deleted.example");
  const doomed = await control.post<LiveRecord>(`/dns/zones/${zoneId}/records`, {
    name: "x",
    type: "TXT",
    content: "same",
  });
  const plugin = await command();
  const inp = (await plugin.check("nsp:dns:Record", "other", { zoneId, name: "y", type: "TXT", content: "other" }))
    .inputs;
  const other = await plugin.create("nsp:dns:Record", "other", inp); // the zone's list is taken here, with `doomed` in it
  await plugin.delete("nsp:dns:Record", "gone", String(doomed.id), { zoneId, name: "x", type: "TXT", content: "same" });
  const again = await plugin.create(
    "nsp:dns:Record",
    "again",
    (await plugin.check("nsp:dns:Record", "again", { zoneId, name: "x", type: "TXT", content: "same" })).inputs,
  );
  expect(again.id).not.toBe(String(doomed.id));
  expect((await control.list<LiveRecord>(`/dns/zones/${zoneId}/records`)).map((r) => String(r.id)).sort()).toEqual(
    [other.id, again.id].sort(),
  );
});

it("adopts a ROA the API refuses to create twice, but not one that another create of the command made", async () => {
  const caId = String((await control.post<{ id: number }>("/rpki/cas", { handle: "adopt-ca", asns: [64500] })).id);
  const orphan = await control.post<{ id: number }>(`/rpki/cas/${caId}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
  const plugin = await command();
  const inp = (await plugin.check("nsp:rpki:Roa", "roa", { caId, asn: 64500, prefix: "192.0.2.0/24" })).inputs;
  const adopted = await plugin.create("nsp:rpki:Roa", "roa", inp);
  expect(adopted.id).toBe(String(orphan.id));
  expect(plugin.engineLogs.join("\n")).toMatch(/API refused a duplicate of an existing object \(id \d+\); adopting it/);
  // A second resource with the same origin, prefix and max length in the same command.
  const twin = await plugin.create("nsp:rpki:Roa", "twin", inp).then(
    () => undefined,
    (e: grpc.ServiceError) => e,
  );
  expect(twin?.details).toMatch(/conflict/);
  expect(await control.list(`/rpki/cas/${caId}/roas`)).toHaveLength(1);
});

describe("a create refused because its natural key is taken fails with the pulumi import command that adopts the object", () => {
  // Each row: the parents it needs (made first), then the object. One plugin stands for the
  // killed run whose create landed, a second one for the next command. (Aliases, ROAs, records
  // and rules identical to the program's are adopted instead; see the tests above.)
  type Row = [
    token: string,
    inputs: (ids: Record<string, string>) => Record<string, unknown>,
    parents: [name: string, token: string, inputs: (ids: Record<string, string>) => Record<string, unknown>][],
  ];
  const domain = (tag: string): Row[2][number] => [
    "domain",
    "nsp:mail:Domain",
    () => ({ name: `${tag}.taken-mail.example`, mode: "both" }),
  ];
  const pbx: Row[2][number] = ["pbx", "nsp:vgate:Pbx", () => ({ name: "taken office" })];
  const rows: Row[] = [
    ["nsp:dns:Zone", () => ({ serviceId, name: "taken.example" }), []],
    ["nsp:mail:Domain", () => ({ name: "taken2-mail.example", mode: "both" }), []],
    ["nsp:mail:Mailbox", (p) => ({ domainId: p.domain, local: "m15" }), [domain("mailbox")]],
    [
      "nsp:mail:Group",
      (p) => ({ domainId: p.domain, localPart: "team", members: [{ address: "a@example.com" }] }),
      [domain("group")],
    ],
    ["nsp:vgate:Extension", (p) => ({ pbxId: p.pbx, number: "101" }), [pbx]],
    ["nsp:vgate:RingGroup", (p) => ({ pbxId: p.pbx, number: "601" }), [pbx]],
    ["nsp:vgate:Queue", (p) => ({ pbxId: p.pbx, number: "701" }), [pbx]],
    ["nsp:mail:Destination", () => ({ addr: "ops@taken.example.net" }), []],
    ["nsp:services:Client", () => ({ serviceId: resolverId, name: "office", clientId: "office" }), []],
    [
      "nsp:cdn:Site",
      () => ({ hostname: "www.taken-site.example", origin: "origin.example.net", serviceId: cdnServiceId }),
      [],
    ],
    ["nsp:rpki:Ca", () => ({ handle: "taken-ca", asns: [64500] }), []],
    ["nsp:link:Tunnel", () => ({ name: "taken-tunnel", localUrl: "http://localhost:8080", popId }), []],
    ["nsp:pages:Project", () => ({ name: "taken-pages" }), []],
    ["nsp:verify:Site", () => ({ name: "taken-verify", hostnames: ["shop.example.com"] }), []],
  ];
  let cdnServiceId: string;
  let popId: string;
  let resolverId: string;
  // Shared by the rows, whose objects differ: these kinds claim nothing per command.
  let killedRun: PluginHandle;
  let next: PluginHandle;
  beforeAll(async () => {
    cdnServiceId = String((await control.services()).find((s) => s.type === "cdn")!.id);
    resolverId = String((await control.services()).find((s) => s.type === "resolver")!.id);
    popId = String((await control.list<{ id: number | string }>("/link/pops"))[0]!.id);
    [killedRun, next] = await Promise.all([command(), command()]);
  });

  it.each(rows)("%s", async (token, inputs, parents) => {
    const ids: Record<string, string> = {};
    for (const [name, parentToken, parentInputs] of parents) {
      ids[name] = (
        await killedRun.create(parentToken, name, (await killedRun.check(parentToken, name, parentInputs(ids))).inputs)
      ).id;
    }
    const landed = await killedRun.create(token, "first", (await killedRun.check(token, "first", inputs(ids))).inputs);

    const inp = (await next.check(token, "my object", inputs(ids))).inputs;
    const err = await next.create(token, "my object", inp).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    const command_ = err?.details.match(new RegExp(`pulumi import ${token} 'my object' (\\S+) --protect=false --yes`));
    expect(command_, err?.details).not.toBeNull();
    expect(err?.details).toMatch(/already exists in this account/);
    // The id it prints is one `pulumi import` takes: a read of it finds the object that landed.
    const read = await next.read(token, "my object", command_![1]!);
    expect(read.id.split("/").pop()).toBe(landed.id.split("/").pop());
  });
});

it("adopts an orphan security rule of the same site, found in the site's rules only", async () => {
  const site = await control.post<{ id: number }>("/cdn/sites", {
    hostname: "adopt.rules.example",
    origin: "203.0.113.9",
  });
  const other = await control.post<{ id: number }>("/cdn/sites", {
    hostname: "other.rules.example",
    origin: "203.0.113.10",
  });
  const rule = { field: "asn", op: "in", value: "AS64600", action: "block" };
  await control.post("/security/rules", { site_id: other.id, ...rule });
  const orphan = await control.post<{ id: number }>("/security/rules", { site_id: site.id, ...rule });
  const plugin = await command();
  const created = await plugin.create(
    "nsp:security:Rule",
    "block",
    (await plugin.check("nsp:security:Rule", "block", { siteId: String(site.id), ...rule })).inputs,
  );
  expect(created.id).toBe(String(orphan.id));
  expect(await control.list(`/security/rules?site_id=${site.id}`)).toHaveLength(1);
});
