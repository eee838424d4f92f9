// One customer's stack: its zone, its records and its mail domain, made with an explicit
// provider that acts for that customer only. The customer is the stack's configuration
// (`customer`, a JSON object: an entry of customers.json), which `nsp-fleet` sets on each run;
// a CI job, Pulumi Deployments or the Kubernetes Operator set it the same way and run this
// project with `pulumi up --stack <customer's ref>`. The tokens come from the environment
// (NSP_PARTNER_TOKEN, or the variable the customer's `tokenEnv` names) and go to the providers
// as secrets: no file holds them.
import * as pulumi from "@pulumi/pulumi";
import * as nsp from "@nsp/pulumi";

interface RecordSpec {
  name: string;
  type: string;
  content: string;
  ttl?: number;
}

interface Customer {
  ref: string;
  zone: string;
  records?: RecordSpec[];
  tokenEnv?: string;
  adoptSubject?: boolean;
}

const customer = new pulumi.Config().requireObject<Customer>("customer");
const baseUrl = process.env.NSP_BASE_URL || undefined;

function tokenFrom(variable: string): pulumi.Output<string> {
  const token = process.env[variable];
  if (!token)
    throw new Error(`${variable} is not set: the stack of customer ${customer.ref} reads its API token from it`);
  return pulumi.secret(token);
}

/** The provider for the customer's own objects. */
function customerProvider(): nsp.Provider {
  if (customer.tokenEnv) return new nsp.Provider("customer", { apiToken: tokenFrom(customer.tokenEnv), baseUrl });
  // The partner token, on a provider of its own, makes (or adopts) the subject; a second provider
  // with the same token acts for the customer once the subject exists. Its partnerSubject is the
  // subject's id, unknown in the preview of a new customer, so the engine never configures it
  // for a subject that does not exist yet.
  const partnerToken = tokenFrom("NSP_PARTNER_TOKEN");
  const partner = new nsp.Provider("partner", { apiToken: partnerToken, baseUrl });
  const subject = new nsp.partner.Subject(
    "subject",
    { externalRef: customer.ref },
    { provider: partner, import: customer.adoptSubject ? customer.ref : undefined },
  );
  return new nsp.Provider("customer", { apiToken: partnerToken, partnerSubject: subject.id, baseUrl });
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

const provider = customerProvider();
// No serviceId: the zone's create finds the account's auth_dns service. A look-up here would be a
// request on every run, one that changes nothing included (in partner mode, a credential minted).
const zone = new nsp.dns.Zone("zone", { name: customer.zone }, { provider });
const records = customer.records ?? [];
const names = recordNames(records);
for (const [i, r] of records.entries()) {
  new nsp.dns.Record(
    names[i]!,
    { zoneId: zone.id, name: r.name, type: r.type.toUpperCase(), content: r.content, ttl: r.ttl },
    { provider },
  );
}
// The mail domain publishes its own MX, SPF, DKIM and DMARC records into the zone.
const mail = new nsp.mail.Domain("mail", { zoneId: zone.id, name: customer.zone }, { provider });

export const zoneId = zone.id;
export const mailDomainId = mail.id;
export const nameServers = zone.nameServers;
