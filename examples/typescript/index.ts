import * as pulumi from "@pulumi/pulumi";
import * as nsp from "@nsp/pulumi";

const config = new pulumi.Config();
const zoneName = config.get("zoneName") ?? "typescript.example";

// Zones belong to an auth_dns service; every account has one.
const authDns = nsp.dns.getServicesOutput({ type: "auth_dns" });

export const zone = new nsp.dns.Zone("zone", {
  serviceId: authDns.services.apply((services) => services[0].id),
  name: zoneName,
});

// Two A records for the same name spread traffic across both web servers.
const webServers = ["192.0.2.10", "192.0.2.11"];
export const web = webServers.map(
  (ip, i) => new nsp.dns.Record(`www-${i}`, { zoneId: zone.id, name: "www", type: "A", content: ip, ttl: 300 }),
);

export const mx = new nsp.dns.Record("mx", { zoneId: zone.id, type: "MX", content: `10 mail.${zoneName}.` });

export const spf = new nsp.dns.Record("spf", { zoneId: zone.id, type: "TXT", content: "v=spf1 mx -all" });

// Secondaries pull the zone with a TSIG key; the API shows the key once, so it is a secret output.
export const transfer = new nsp.dns.ZoneTransfer("transfer", {
  zoneId: zone.id,
  allow: ["198.51.100.53"],
  notify: ["198.51.100.53"],
  tsig: true,
});
export const tsigKey = transfer.tsigKey;

export const zoneId = zone.id;
export const wwwId = web[0].id;
export const nameServers = zone.nameServers;
