// The checks of the pack as plain functions of resource properties, apart from the policy
// engine's wiring in index.ts. Property names and defaults are those of nsp's schema.json.
//
// During a preview, values that depend on resources not created yet (every `zoneId` of a new
// stack, for one) are unknown, and @pulumi/policy throws when such a value is read. So records,
// DNSSEC resources and zones are related by the dependencies the program declared
// (`propertyDependencies.zoneId`: the zone whose id was passed), never by comparing ids.

export const ZONE = "nsp:dns:Zone";
export const RECORD = "nsp:dns:Record";
export const ZONE_DNSSEC = "nsp:dns:ZoneDnssec";
export const SITE_SETTINGS = "nsp:cdn:SiteSettings";
export const SECURITY_RULE = "nsp:security:Rule";

/** The TTL the API gives a record whose `ttl` is unset. */
export const DEFAULT_RECORD_TTL = 3600;

/** The part of @pulumi/policy's PolicyResource that the stack checks read. */
export interface StackResource {
  type: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
  dependencies: StackResource[];
  propertyDependencies: Record<string, StackResource[]>;
}

export interface TtlBounds {
  minTtl: number;
  maxTtl: number;
}

/** Why a record's TTL is out of bounds, or undefined when it is within them. */
export function ttlProblem(ttl: number | undefined, bounds: TtlBounds): string | undefined {
  const effective = ttl ?? DEFAULT_RECORD_TTL;
  const shown = ttl === undefined ? `unset (${DEFAULT_RECORD_TTL})` : `${ttl}`;
  if (bounds.minTtl > bounds.maxTtl)
    return `the policy's minTtl (${bounds.minTtl}) is above its maxTtl (${bounds.maxTtl})`;
  if (effective < bounds.minTtl) return `ttl ${shown} is below the minimum of ${bounds.minTtl} seconds`;
  if (effective > bounds.maxTtl) return `ttl ${shown} is above the maximum of ${bounds.maxTtl} seconds`;
  return undefined;
}

export interface SecurityRuleProps {
  field?: string;
  op?: string;
  value?: string;
  action?: string;
  enabled?: boolean;
}

/**
 * The item of a security rule's value that makes it block every client, or undefined. A rule
 * blocks everything when it blocks requests whose `ip` is `in` a prefix of length 0
 * (`0.0.0.0/0` is every IPv4 client, `::/0` every IPv6 one). Nothing else can: a country or AS
 * list holds at most 100 items, and an empty list (`not_in ""`, `not_in " , "`) never reaches the
 * engine, since the provider refuses empty items when it checks the inputs. `not_in` with a real
 * list blocks all but that list: an allow-list, which is allowed.
 */
export function blockAllItem(rule: SecurityRuleProps): string | undefined {
  if (rule.enabled === false || rule.action !== "block" || rule.op !== "in" || rule.field !== "ip") return undefined;
  return (rule.value ?? "")
    .split(",")
    .map((item) => item.trim())
    .find((item) => /\/0+$/.test(item));
}

/** Whether `resource` names `target` as the source of its `property`. */
function takesFrom(resource: StackResource, property: string, target: StackResource): boolean {
  return (resource.propertyDependencies[property] ?? []).some((d) => d.urn === target.urn);
}

function normalHost(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/** The zones that no enabled nsp:dns:ZoneDnssec of the stack signs. */
export function zonesWithoutDnssec(resources: StackResource[]): StackResource[] {
  const signers = resources.filter((r) => r.type === ZONE_DNSSEC && r.props.enabled !== false);
  return resources.filter((r) => r.type === ZONE && !signers.some((d) => takesFrom(d, "zoneId", r)));
}

/** The full hostname of a record whose zone is in the stack, else undefined. */
export function recordHostname(record: StackResource): string | undefined {
  const zone = (record.propertyDependencies.zoneId ?? []).find((d) => d.type === ZONE);
  if (!zone || typeof zone.props.name !== "string") return undefined;
  const name = normalHost(String(record.props.name ?? "@"));
  const zoneName = normalHost(zone.props.name);
  return name === "@" ? zoneName : `${name}.${zoneName}`;
}

export interface Finding {
  resource: StackResource;
  message: string;
}

/** Why a site's settings do not count as a WAF that protects it, or undefined when they do. */
function wafProblem(settings: StackResource): string | undefined {
  const waf = settings.props.waf as { enabled?: boolean; mode?: string } | undefined;
  if (!waf) return `its nsp:cdn:SiteSettings "${settings.name}" sets no waf`;
  if (waf.enabled !== true) return `its nsp:cdn:SiteSettings "${settings.name}" has waf.enabled ${String(waf.enabled)}`;
  if (waf.mode === "log")
    return `its nsp:cdn:SiteSettings "${settings.name}" has waf.mode "log", which records attacks without stopping them`;
  return undefined;
}

/**
 * Each proxied record (`proxied: true`) whose edge site is not shown to have its WAF on in this
 * stack. A record's site is the nsp:cdn:SiteSettings whose `hostname` is the record's full name
 * (the record's name in its zone, with the zone in the stack), or one that depends on the record
 * (`dependsOn`, as SiteSettings' documentation asks) when the zone is not in the stack.
 */
export function proxiedRecordsWithoutWaf(resources: StackResource[]): Finding[] {
  const settings = resources.filter((r) => r.type === SITE_SETTINGS);
  const findings: Finding[] = [];
  for (const record of resources) {
    if (record.type !== RECORD || record.props.proxied !== true) continue;
    const hostname = recordHostname(record);
    const sites = settings.filter(
      (s) =>
        (hostname !== undefined && typeof s.props.hostname === "string" && normalHost(s.props.hostname) === hostname) ||
        s.dependencies.some((d) => d.urn === record.urn),
    );
    if (sites.length === 0) {
      const how = hostname ? `with hostname "${hostname}"` : "that depends on it (its zone is not in this stack)";
      findings.push({
        resource: record,
        message: `proxied record "${record.name}" has no nsp:cdn:SiteSettings ${how}, so its site's WAF is not shown to be on`,
      });
      continue;
    }
    const where = hostname ?? "zone not in this stack";
    for (const s of sites) {
      const problem = wafProblem(s);
      if (problem)
        findings.push({ resource: record, message: `proxied record "${record.name}" (${where}): ${problem}` });
    }
  }
  return findings;
}
