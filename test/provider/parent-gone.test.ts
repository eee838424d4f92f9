// A parent removed outside Pulumi (deleted through the API, or lost by the service) takes its
// children with it: Read of the parent and of every child reports gone, with batched reads on and
// off, so a refresh drops them and the next `up` recreates them. A parent that merely cannot be
// read (5xx, 429 storm) is an error, never a silent delete.
import { beforeAll, describe, expect, it } from "vitest";
import type { PluginHandle } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

type Obj = Record<string, any>;

/** An object as the engine holds it in the state: what Read is called with on refresh. */
interface Held {
  type: string;
  id: string;
  properties: Obj;
  inputs: Obj;
  /** False for a child whose Read reports it only in a state the emulator does not reach here (a verified zone). */
  readable?: boolean;
}

interface Family {
  name: string;
  /** Creates the parent (undefined type: a parent that is no Pulumi resource, like a service) and its children. */
  build(): Promise<{ parent: Held; children: Held[] }>;
  /** Removes the parent outside Pulumi, the way a user or the service would. */
  remove(parent: Held): Promise<unknown>;
}

// Few retries: the fault rows below wait out the client's backoff on every failed request.
const RETRIES = { maxRetries: 1 };
const {
  control,
  plugin: unbatched,
  anotherPlugin,
  checked,
} = useProvider({
  emulator: { accounts: [{ name: "gone", token: `svc_${"9a7e".repeat(8)}` }] },
  config: { ...RETRIES, batchReads: false },
});
let batched: PluginHandle;
let authDns: string;
let resolver: string;
let pop: string;
let seq = 0;

beforeAll(async () => {
  const services = await control.services();
  authDns = String(services.find((s) => s.type === "auth_dns")!.id);
  resolver = String(services.find((s) => s.type === "resolver")!.id);
  pop = String((await control.list<{ id: number }>("/link/pops"))[0]!.id);
  batched = await anotherPlugin({ ...RETRIES, batchReads: true });
});

const uniq = (prefix: string) => `${prefix}${++seq}`;

async function make(type: string, news: Obj, readable = true): Promise<Held> {
  const inputs = await checked(type, news);
  const { id, properties } = await unbatched.create(type, uniq("r"), inputs);
  return { type, id, properties, inputs, readable };
}

async function zoneWithChildren(): Promise<{ parent: Held; children: Held[] }> {
  const zone = await make("nsp:dns:Zone", { serviceId: authDns, name: `${uniq("gone")}.example` });
  const zoneId = zone.id;
  const children = [
    await make("nsp:dns:Record", { zoneId, name: "www", type: "A", content: "192.0.2.10" }),
    // A proxied record makes a zone-hosted edge site, whose settings are held by hostname.
    await make("nsp:dns:Record", { zoneId, name: "edge", type: "A", content: "192.0.2.80", proxied: true }),
    await make("nsp:cdn:SiteSettings", { hostname: `edge.${zone.inputs.name}`, cacheTtl: 120 }),
    await make("nsp:dns:Record", { zoneId, name: "mail", type: "A", content: "192.0.2.11" }),
    await make("nsp:dns:ZoneRecords", { zoneId, records: [{ name: "api", type: "A", content: "192.0.2.12" }] }),
    await make("nsp:dns:ZoneGrant", { zoneId, email: "ops@example.com", role: "viewer" }),
    await make("nsp:dns:ZoneDnssec", { zoneId }),
    await make("nsp:dns:ZoneTransfer", { zoneId, notify: ["192.0.2.53"] }),
    await make("nsp:security:Rule", { zoneId, field: "ip", op: "in", value: "198.51.100.1", action: "block" }),
  ];
  // Verification is only ever held for an active zone; Read of the id must still report it gone.
  children.push({
    type: "nsp:dns:ZoneVerification",
    id: zoneId,
    properties: { zoneId },
    inputs: { zoneId },
    readable: false,
  });
  return { parent: zone, children };
}

async function mailDomainWithChildren(): Promise<{ parent: Held; children: Held[] }> {
  const domain = await make("nsp:mail:Domain", { name: `${uniq("maildom")}.example`, mode: "both" });
  const domainId = domain.id;
  const box = await make("nsp:mail:Mailbox", { domainId, local: "alice" });
  const dest = `${uniq("fwd")}@example.net`;
  await control.post("/mail/destinations", { addr: dest });
  return {
    parent: domain,
    children: [
      box,
      await make("nsp:mail:Mailbox", { domainId, local: "bob" }),
      await make("nsp:mail:AppPassword", { mailboxId: box.id, label: "phone" }),
      await make("nsp:mail:Alias", { domainId, localPart: "info", targetMailboxId: box.id }),
      await make("nsp:mail:Group", { domainId, localPart: "team" }),
      await make("nsp:mail:DomainRule", { domainId, kind: "reject_sender", pattern: "*@spam.example" }),
      await make("nsp:mail:Route", { domainId, localPart: "sales", dest }),
    ],
  };
}

const FAMILIES: Family[] = [
  {
    name: "DNS zone: records, record set, edge site settings, grant, DNSSEC, transfer, security rule, verification",
    build: zoneWithChildren,
    remove: (z) => control.delete(`/dns/zones/${z.id}`),
  },
  {
    name: "reverse DNS zone: range",
    async build() {
      const zone = await make("nsp:dns:Zone", { serviceId: authDns, name: "2.0.192.in-addr.arpa" });
      return { parent: zone, children: [await make("nsp:dns:Range", { zoneId: zone.id, prefix: "192.0.2.0/26" })] };
    },
    remove: (z) => control.delete(`/dns/zones/${z.id}`),
  },
  {
    name: "RPKI CA: ROAs",
    async build() {
      const ca = await make("nsp:rpki:Ca", { handle: uniq("ca"), asns: [64500] });
      const roas = [
        await make("nsp:rpki:Roa", { caId: ca.id, asn: 64500, prefix: "192.0.2.0/24" }),
        await make("nsp:rpki:Roa", { caId: ca.id, asn: 64500, prefix: "2001:db8::/48" }),
      ];
      return { parent: ca, children: roas };
    },
    remove: (ca) => control.delete(`/rpki/cas/${ca.id}`),
  },
  {
    name: "mail domain: mailboxes, app password, alias, group, rule, route",
    build: mailDomainWithChildren,
    remove: (d) => control.delete(`/mail/domains/${d.id}`),
  },
  {
    name: "mailbox: app passwords",
    async build() {
      const domain = await make("nsp:mail:Domain", { name: `${uniq("boxdom")}.example`, mode: "both" });
      const box = await make("nsp:mail:Mailbox", { domainId: domain.id, local: "carol" });
      return { parent: box, children: [await make("nsp:mail:AppPassword", { mailboxId: box.id, label: "laptop" })] };
    },
    remove: (box) => control.delete(`/mail/mailboxes/${box.id}`),
  },
  {
    name: "PBX: extensions, trunk, ring group, number, flow, routes, IVR, queue, time condition, voice endpoint",
    async build() {
      const pbx = await make("nsp:vgate:Pbx", { name: uniq("Office ") });
      const pbxId = pbx.id;
      const alice = await make("nsp:vgate:Extension", { pbxId, number: "101" });
      const bob = await make("nsp:vgate:Extension", { pbxId, number: "102" });
      const trunk = await make("nsp:vgate:Trunk", { pbxId, mode: "peer", host: "192.0.2.60" });
      const group = await make("nsp:vgate:RingGroup", { pbxId, name: "Sales", members: [alice.id, bob.id] });
      const number = await make("nsp:vgate:Number", { pbxId, e164: `+493055560${seq % 10}`, trunkId: trunk.id });
      const voiceNumber = (await control.post<{ number: string }>("/voice/numbers", { label: uniq("line ") })).number;
      return {
        parent: pbx,
        children: [
          alice,
          bob,
          trunk,
          group,
          number,
          await make("nsp:vgate:NumberFlow", {
            pbxId,
            numberId: number.id,
            flow: { destination: `extension:${alice.id}` },
          }),
          await make("nsp:vgate:InboundRoute", {
            pbxId,
            name: "Main line",
            numberId: number.id,
            destination: `group:${group.id}`,
          }),
          await make("nsp:vgate:OutboundRoute", {
            pbxId,
            name: "Out",
            patterns: [{ match: "X." }],
            trunks: [trunk.id],
          }),
          await make("nsp:vgate:Ivr", { pbxId, name: "Main menu" }),
          await make("nsp:vgate:Queue", { pbxId, name: "Support" }),
          await make("nsp:vgate:TimeCondition", { pbxId, schedule: [{ days: ["mon"], from: "09:00", to: "17:00" }] }),
          await make("nsp:voice:NumberEndpoint", { number: voiceNumber, pbxId, ext: bob.id }),
        ],
      };
    },
    remove: (pbx) => control.delete(`/vgate/pbx/${pbx.id}`),
  },
  {
    name: "tunnel: hostnames",
    async build() {
      const tunnel = await make("nsp:link:Tunnel", {
        name: uniq("tunnel-"),
        localUrl: "http://localhost:8080",
        popId: pop,
      });
      return {
        parent: tunnel,
        children: [
          await make("nsp:link:TunnelHostnames", { tunnelId: tunnel.id, hostnames: [`${uniq("h")}.tun.example`] }),
        ],
      };
    },
    remove: (t) => control.delete(`/link/tunnels/${t.id}`),
  },
  {
    name: "resolver service: client group, DDNS token, filter, policy",
    async build() {
      const serviceId = resolver;
      const client = await make("nsp:services:Client", { serviceId, name: "Kids" });
      return {
        // The service is no Pulumi resource: only its children are held.
        parent: { type: "", id: serviceId, properties: {}, inputs: {} },
        children: [
          client,
          await make("nsp:services:ClientDdnsToken", { serviceId, clientGroupId: client.id }),
          await make("nsp:services:Filter", { serviceId, customBlock: ["ads.example"] }),
          await make("nsp:services:Policy", { serviceId, logMode: "blocked" }),
        ],
      };
    },
    remove: (s) => control.endService(s.id),
  },
  {
    name: "SMS brand: campaigns",
    async build() {
      const brand = await make("nsp:sgate:Brand", { legalName: uniq("Acme ") });
      return { parent: brand, children: [await make("nsp:sgate:Campaign", { brandId: brand.id, useCase: "2fa" })] };
    },
    // The API deletes only a brand without campaigns: its campaigns go first (they are read by
    // their own id, not through the brand, so this row proves the brand's Read and theirs).
    async remove(brand) {
      const campaigns = await control.list<{ id: string; brand_id: string }>("/sgate/campaigns");
      for (const c of campaigns.filter((x) => x.brand_id === brand.id))
        await control.delete(`/sgate/campaigns/${c.id}`);
      await control.delete(`/sgate/brands/${brand.id}`);
    },
  },
  {
    name: "edge site: security rule, verification",
    async build() {
      const site = await make("nsp:cdn:Site", { hostname: `${uniq("www")}.site.example`, origin: "203.0.113.20" });
      const siteId = site.id;
      return {
        parent: site,
        children: [
          await make("nsp:security:Rule", { siteId, field: "ip", op: "in", value: "198.51.100.2", action: "block" }),
          { type: "nsp:cdn:SiteVerification", id: siteId, properties: { siteId }, inputs: { siteId }, readable: false },
        ],
      };
    },
    remove: (s) => control.delete(`/cdn/sites/${s.id}`),
  },
  {
    name: "stream channel: programme",
    async build() {
      const channel = await make("nsp:stream:Channel", { name: uniq("studio") });
      return {
        parent: channel,
        children: [
          await make("nsp:stream:Programme", { channelId: channel.id, items: [{ asset_id: "vid_1", seconds: 30 }] }),
        ],
      };
    },
    remove: (c) => control.delete(`/stream/streams/${c.id}`),
  },
];

async function readAs(plugin: PluginHandle, held: Held) {
  return plugin.read(held.type, "held", held.id, held.properties, held.inputs);
}

describe("a parent removed outside Pulumi", () => {
  it.each(FAMILIES)("$name: every child and the parent read as gone, batched reads on and off", async (family) => {
    const { parent, children } = await family.build();
    const held = parent.type ? [parent, ...children] : children;
    // The rows are real: before the removal every object reads back (unbatched, so no list is kept).
    for (const h of held.filter((x) => x.readable !== false))
      expect((await readAs(unbatched, h)).id, h.type).toBe(h.id);

    await family.remove(parent);

    for (const [mode, plugin] of [
      ["batched", batched],
      ["unbatched", unbatched],
    ] as const) {
      const reads = await Promise.allSettled(held.map((h) => readAs(plugin, h)));
      const got = reads.map((r, i) => [
        held[i]!.type,
        r.status === "fulfilled" ? r.value.id || "gone" : String(r.reason),
      ]);
      expect(got, mode).toEqual(held.map((h) => [h.type, "gone"]));
    }
  });

  it("costs one list request for a deleted zone of many records, batched", async () => {
    const zone = await make("nsp:dns:Zone", { serviceId: authDns, name: `${uniq("big")}.example` });
    const records: Held[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await control.post<{ id: number }>(`/dns/zones/${zone.id}/records`, {
        name: `h${i}`,
        type: "A",
        content: `192.0.2.${i + 1}`,
      });
      records.push({
        type: "nsp:dns:Record",
        id: `${zone.id}/${r.id}`,
        properties: { zoneId: zone.id },
        inputs: { zoneId: zone.id },
      });
    }
    await control.delete(`/dns/zones/${zone.id}`);

    await control.resetStats();
    const reads = await Promise.all(records.map((r) => readAs(batched, r)));
    expect(reads.every((r) => r.id === "")).toBe(true);
    // The rest, one after another, reuse the list's answer too.
    for (const r of records.slice(0, 5)) expect((await readAs(batched, r)).id).toBe("");
    expect((await control.stats()).total).toBe(1);
  });
});

describe("a parent that cannot be read is an error, never a delete", () => {
  const faults: [string, Obj, RegExp][] = [
    ["5xx", { kinds: ["error5xx"] }, /503|upstream|http_5/],
    ["429 storm", { kinds: ["rate_limit_storm"] }, /429|rate/],
  ];

  it.each(faults)("%s on the zone's records keeps each record, batched and not", async (_name, fault, message) => {
    const zone = await make("nsp:dns:Zone", { serviceId: authDns, name: `${uniq("flaky")}.example` });
    const record = await make("nsp:dns:Record", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.10" });
    await control.setFaults({
      rate: 1,
      methods: ["GET"],
      path: `^/api/v1/dns/zones/${zone.id}(/records.*)?$`,
      ...fault,
    });
    try {
      for (const plugin of [batched, unbatched]) {
        await expect(readAs(plugin, record)).rejects.toThrow(message);
        await expect(readAs(plugin, zone)).rejects.toThrow(message);
      }
    } finally {
      await control.clearFaults();
    }
    // Once the API answers again, both are there.
    expect((await readAs(batched, record)).id).toBe(record.id);
  });
});
