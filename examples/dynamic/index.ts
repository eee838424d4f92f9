import * as pulumi from "@pulumi/pulumi";
import { dns } from "@nsp/pulumi-dynamic";

const config = new pulumi.Config();
const zoneName = config.get("zoneName") ?? "dynamic.example";
// The dynamic-provider host cannot call provider functions (getServices and the like), so the
// auth_dns service that serves the zone is given by id.
const serviceId = config.require("serviceId");

const zone = new dns.Zone("zone", { serviceId, name: zoneName });

const www = new dns.Record("www", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.20", ttl: 600 });

new dns.Record("spf", { zoneId: zone.id, type: "TXT", content: "v=spf1 -all" });

// The API shows the TSIG key once; it is kept in the state as a secret, as with the plugin.
const transfer = new dns.ZoneTransfer("transfer", {
  zoneId: zone.id,
  allow: ["198.51.100.53"],
  notify: ["198.51.100.53"],
  tsig: true,
});

export const zoneId = zone.id;
export const wwwId = www.id;
export const status = zone.status;
export const nameServers = zone.nameServers;
export const tsigKey = transfer.tsigKey;
