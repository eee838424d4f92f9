import * as pulumi from "@pulumi/pulumi";
import * as nsp from "@nsp/pulumi";

// One token, the partner's own (write scope), for everything:
//   pulumi config set --secret nsp:apiToken svc_...
// The default provider uses it to create the managed customers; each customer's provider uses it
// only to mint short-lived credentials acting for that customer, which never reach the state.
const nspConfig = new pulumi.Config("nsp");
const partnerToken = nspConfig.requireSecret("apiToken");
const baseUrl = nspConfig.get("baseUrl");
const customers = new pulumi.Config().getObject<string[]>("customers") ?? [
  "acme",
  "globex",
  "initech",
  "umbrella",
  "hooli",
];

export const zoneIds: Record<string, pulumi.Output<string>> = {};
for (const ref of customers) {
  const subject = new nsp.partner.Subject(ref, { externalRef: ref });
  // The subject's id is its reference, known only once the customer exists: a preview does not
  // configure this provider for a customer that is not there yet.
  const provider = new nsp.Provider(`${ref}-provider`, { apiToken: partnerToken, baseUrl, partnerSubject: subject.id });
  // Until then the lookup answers nothing (the engine does not call an unconfigured provider).
  const authDns = nsp.dns.getServicesOutput({ type: "auth_dns" }, { provider });
  const zone = new nsp.dns.Zone(
    `${ref}-zone`,
    { serviceId: authDns.services.apply((s) => s?.[0]?.id), name: `${ref}.partner.example` },
    { provider },
  );
  new nsp.dns.Record(`${ref}-www`, { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.80" }, { provider });
  new nsp.dns.Record(
    `${ref}-mx`,
    { zoneId: zone.id, name: "@", type: "MX", content: `10 mail.${ref}.partner.example.` },
    { provider },
  );
  zoneIds[ref] = zone.id;
}
