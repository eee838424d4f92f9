// Fills an emulator account through the API with one or more of every kind of object a team
// brings to adoption: zones full of records of every type, zone settings, a reverse zone with a
// range, an edge site with a rule, RPKI, mail, a tunnel, a PBX and a webhook. Used by the adoption e2e test and bench P7.
import type { EmulatorControl } from "./emulator-control";

export interface SeedOptions {
  zones: number;
  /** Records across all zones, of every record type. */
  records: number;
  /** Prefix of the zone names, so several seeds can share an emulator. */
  prefix?: string;
}

export interface Seeded {
  zoneIds: number[];
  /** Records made by the seed (the zones also hold the records a mail domain publishes). */
  records: number;
}

/** Record data of each type, the i-th of its kind; names are unique per zone, type and i. */
function recordLine(i: number): string {
  const kinds: ((n: number) => string)[] = [
    (n) => `a${n} 300 IN A 192.0.2.${(n % 250) + 1}`,
    (n) => `aaaa${n} 300 IN AAAA 2001:db8::${(n % 9000) + 1}`,
    (n) => `ptr${n} 300 IN PTR host${n}.example.net.`,
    (n) => `cname${n} 300 IN CNAME target${n}.example.net.`,
    (n) => `txt${n} 300 IN TXT "seed text ${n}"`,
    (n) => `mx${n} 300 IN MX 10 mx${n}.example.net.`,
    (n) => `ns${n} 300 IN NS ns${n}.example.net.`,
    (n) => `_sip${n}._tcp 300 IN SRV 10 5 5060 sip${n}.example.net.`,
    (n) => `caa${n} 300 IN CAA 0 issue "ca${n}.example.net"`,
    (n) => `alias${n} 300 IN ALIAS target${n}.example.org.`,
    (n) => `https${n} 300 IN HTTPS 1 . alpn=h2`,
    (n) => `svcb${n} 300 IN SVCB 1 svc${n}.example.net. alpn=h2`,
  ];
  return kinds[i % kinds.length]!(Math.floor(i / kinds.length));
}

export async function seedAccount(api: EmulatorControl, opts: SeedOptions): Promise<Seeded> {
  const prefix = opts.prefix ?? "adopt";
  const services = await api.services();
  const dnsService = services.find((s) => s.type === "auth_dns")!.id;
  const zoneIds: number[] = [];
  for (let z = 0; z < opts.zones; z++) {
    const zone = await api.post<{ id: number }>("/dns/zones", {
      service_id: dnsService,
      name: `${prefix}${z}.example`,
    });
    zoneIds.push(zone.id);
    const lines: string[] = [];
    for (let i = z; i < opts.records; i += opts.zones) lines.push(recordLine(i));
    // Two records that share a name and type, so discovery must tell them apart by a suffix.
    if (z === 0) lines.push("www 300 IN A 192.0.2.201", "www 300 IN A 192.0.2.202");
    const result = await api.post<{ added: number }>(`/dns/zones/${zone.id}/import`, {
      text: `${lines.join("\n")}\n`,
      mode: "apply",
    });
    if (result.added !== lines.length)
      throw new Error(`zone ${zone.id}: the import added ${result.added} of ${lines.length} records`);
  }
  // A reverse zone with a range granted in it: ranges live only in reverse zones. Its third octet
  // comes from the prefix, so that several seeds can share an emulator.
  const octet = [...prefix].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 256;
  const reverse = await api.post<{ id: number }>("/dns/zones", {
    service_id: dnsService,
    name: `${octet}.51.198.in-addr.arpa`,
  });
  await api.post(`/dns/zones/${reverse.id}/ranges`, { prefix: `198.51.${octet}.0/26`, owner: `${prefix}-customer` });

  const [first, second] = zoneIds as [number, number];
  await api.put(`/dns/zones/${first}/dnssec`, { enabled: true });
  await api.put(`/dns/zones/${second ?? first}/transfer`, {
    allow: ["198.51.100.0/24"],
    notify: ["198.51.100.53"],
    tsig: true,
  });

  const site = await api.post<{ id: number }>("/cdn/sites", {
    hostname: `shop.${prefix}-edge.example.com`,
    origin: "origin.example.net",
  });
  await api.patch(`/cdn/sites/${site.id}`, { cache_ttl: 600, force_https: true });
  await api.post("/security/rules", { site_id: site.id, field: "country", op: "in", value: "NL", action: "block" });

  const ca = await api.post<{ id: number }>("/rpki/cas", { handle: `${prefix}-ca`, asns: [64500] });
  await api.post(`/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
  await api.post(`/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "2001:db8::/32", max_length: 48 });

  const zoneName = `${prefix}0.example`;
  const domain = await api.post<{ id: number }>("/mail/domains", { zone_id: first, name: zoneName });
  const box = await api.post<{ id: string }>(`/mail/domains/${domain.id}/mailboxes`, {
    domain_id: domain.id,
    local: "alice",
  });
  await api.post(`/mail/domains/${domain.id}/mailboxes`, { domain_id: domain.id, local: "bob" });
  await api.post(`/mail/domains/${domain.id}/aliases`, { local_part: "support", target_mailbox_id: box.id });
  await api.post(`/mail/domains/${domain.id}/groups`, {
    local_part: "team",
    name: "Team",
    members: [{ address: `alice@${zoneName}` }, { address: `bob@${zoneName}` }],
  });

  const pops = await api.list<{ id: number }>("/link/pops");
  const tunnel = await api.post<{ id: number }>("/link/tunnels", {
    name: `${prefix}-tunnel`,
    local_url: "http://127.0.0.1:8080",
    pop_id: pops[0]!.id,
  });
  await api.put(`/link/tunnels/${tunnel.id}/hostnames`, {
    managed_by: "ops",
    hostnames: [`app.${prefix}-edge.example.com`, `api.${prefix}-edge.example.com`],
  });

  const pbx = await api.post<{ id: string }>("/vgate/pbx", { name: `${prefix}-pbx`, template: "blank" });
  const ext = (number: string, name: string) =>
    api.post<{ id: string }>(`/vgate/pbx/${pbx.id}/extensions`, { number, name });
  const a = await ext("201", "Reception");
  const b = await ext("202", "Sales");
  const group = await api.post<{ id: string }>(`/vgate/pbx/${pbx.id}/groups`, {
    number: "300",
    name: "Front desk",
    members: [a.id, b.id],
  });
  await api.post(`/vgate/pbx/${pbx.id}/ivrs`, {
    name: "Main menu",
    greeting: "hello",
    options: { "1": `group:${group.id}`, "#": "hangup" },
  });

  await api.post("/webhooks", { url: `https://hooks.${prefix}.example.com/nsp` });
  return { zoneIds, records: opts.records + 2 };
}
