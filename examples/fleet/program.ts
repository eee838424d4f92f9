// One customer's stack: its zone, its records and its mail domain, made with an explicit
// provider that acts for that customer only.
import * as pulumi from "@pulumi/pulumi";
import * as nsp from "@nsp/pulumi";
import type { Customer, RecordSpec } from "./customers";

export type Access = { partnerToken: string } | { customerToken: string };

/** The provider for the customer's own objects. */
function customerProvider(customer: Customer, access: Access, baseUrl: string | undefined): nsp.Provider {
  if ("customerToken" in access) return new nsp.Provider("customer", { apiToken: pulumi.secret(access.customerToken), baseUrl });
  // The partner token, on a provider of its own, makes (or adopts) the subject; a second provider
  // with the same token acts for the customer once the subject exists. Its partnerSubject is the
  // subject's id, unknown in the preview of a new customer, so the engine never configures it
  // for a subject that does not exist yet.
  const partner = new nsp.Provider("partner", { apiToken: pulumi.secret(access.partnerToken), baseUrl });
  const subject = new nsp.partner.Subject("subject", { externalRef: customer.ref }, { provider: partner, import: customer.adoptSubject ? customer.ref : undefined });
  return new nsp.Provider("customer", { apiToken: pulumi.secret(access.partnerToken), partnerSubject: subject.id, baseUrl });
}

/**
 * Resource names that stay the same when the input's records are reordered: `<type>-<name>`,
 * and a counter for a second record of the same name and type.
 */
function recordNames(records: RecordSpec[]): string[] {
  const used = new Map<string, number>();
  return records.map((r) => {
    const base = `${r.type.toLowerCase()}-${r.name}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

export function customerProgram(customer: Customer, access: Access, baseUrl: string | undefined): () => Promise<Record<string, unknown>> {
  return async () => {
    const provider = customerProvider(customer, access, baseUrl);
    const authDns = nsp.dns.getServicesOutput({ type: "auth_dns" }, { provider });
    const zone = new nsp.dns.Zone("zone", { serviceId: authDns.services.apply((s) => s[0]!.id), name: customer.zone }, { provider });
    const names = recordNames(customer.records);
    customer.records.forEach((r, i) => new nsp.dns.Record(names[i]!, { zoneId: zone.id, name: r.name, type: r.type, content: r.content, ttl: r.ttl }, { provider }));
    // The mail domain publishes its own MX, SPF, DKIM and DMARC records into the zone.
    const mail = new nsp.mail.Domain("mail", { zoneId: zone.id, name: customer.zone }, { provider });
    return { zoneId: zone.id, mailDomainId: mail.id, nameServers: zone.nameServers };
  };
}
