// The checks of examples/policy-pack as plain functions; test/e2e/policy.test.ts runs the pack
// itself through the pulumi CLI.
import { describe, expect, it } from "vitest";
import {
  RECORD,
  SITE_SETTINGS,
  ZONE,
  ZONE_DNSSEC,
  blockAllItem,
  proxiedRecordsWithoutWaf,
  recordHostname,
  ttlProblem,
  zonesWithoutDnssec,
  type StackResource,
} from "../../examples/policy-pack/rules";

function resource(
  type: string,
  name: string,
  props: Record<string, unknown>,
  links: { zone?: StackResource; dependsOn?: StackResource[] } = {},
): StackResource {
  return {
    type,
    name,
    urn: `urn:pulumi:s::p::${type}::${name}`,
    props,
    dependencies: [...(links.zone ? [links.zone] : []), ...(links.dependsOn ?? [])],
    propertyDependencies: links.zone ? { zoneId: [links.zone] } : {},
  };
}

describe("ttlProblem", () => {
  const bounds = { minTtl: 300, maxTtl: 86400 };
  it("takes an unset ttl as the API's 3600", () => {
    expect(ttlProblem(undefined, bounds)).toBeUndefined();
    expect(ttlProblem(undefined, { minTtl: 300, maxTtl: 600 })).toBe(
      "ttl unset (3600) is above the maximum of 600 seconds",
    );
  });
  it("accepts the bounds themselves and refuses what is outside", () => {
    expect(ttlProblem(300, bounds)).toBeUndefined();
    expect(ttlProblem(86400, bounds)).toBeUndefined();
    expect(ttlProblem(299, bounds)).toBe("ttl 299 is below the minimum of 300 seconds");
    expect(ttlProblem(600, { minTtl: 60, maxTtl: 599 })).toBe("ttl 600 is above the maximum of 599 seconds");
  });
  it("says when the configuration itself is impossible", () => {
    expect(ttlProblem(300, { minTtl: 900, maxTtl: 600 })).toBe("the policy's minTtl (900) is above its maxTtl (600)");
  });
});

describe("blockAllItem", () => {
  const rule = { field: "ip", op: "in", action: "block", enabled: true };
  it("finds a prefix of length 0 among the rule's items", () => {
    expect(blockAllItem({ ...rule, value: "0.0.0.0/0" })).toBe("0.0.0.0/0");
    expect(blockAllItem({ ...rule, value: " 198.51.100.0/24 , ::/0 " })).toBe("::/0");
  });
  it("lets every narrower or other rule through", () => {
    expect(blockAllItem({ ...rule, value: "10.0.0.0/8, 0.0.0.0/1, 2001:db8::/32" })).toBeUndefined();
    expect(blockAllItem({ ...rule, value: "0.0.0.0/0", enabled: false })).toBeUndefined();
    expect(blockAllItem({ ...rule, value: "0.0.0.0/0", op: "not_in" })).toBeUndefined();
    expect(blockAllItem({ ...rule, value: "0.0.0.0/0", action: "challenge" })).toBeUndefined();
    expect(blockAllItem({ ...rule, field: "country", value: "DE" })).toBeUndefined();
  });
  it("counts an unset enabled as enabled", () => {
    expect(blockAllItem({ field: "ip", op: "in", action: "block", value: "::/0" })).toBe("::/0");
  });
});

describe("zonesWithoutDnssec", () => {
  const a = resource(ZONE, "a", { name: "a.example" });
  const b = resource(ZONE, "b", { name: "b.example" });
  it("finds the zones that no enabled ZoneDnssec takes its zoneId from", () => {
    const signA = resource(ZONE_DNSSEC, "signA", {}, { zone: a });
    expect(zonesWithoutDnssec([a, b, signA])).toEqual([b]);
    const signBOff = resource(ZONE_DNSSEC, "signB", { enabled: false }, { zone: b });
    expect(zonesWithoutDnssec([a, b, signA, signBOff])).toEqual([b]);
    const signB = resource(ZONE_DNSSEC, "signB", { enabled: true }, { zone: b });
    expect(zonesWithoutDnssec([a, b, signA, signB])).toEqual([]);
  });
  it("does not count a DNSSEC resource that merely depends on the zone some other way", () => {
    const loose = resource(ZONE_DNSSEC, "loose", {}, { dependsOn: [a] });
    expect(zonesWithoutDnssec([a, loose])).toEqual([a]);
  });
});

describe("proxiedRecordsWithoutWaf", () => {
  const zone = resource(ZONE, "zone", { name: "Shop.Example." });
  it("names a record by its zone, `@` being the apex", () => {
    expect(recordHostname(resource(RECORD, "apex", { name: "@" }, { zone }))).toBe("shop.example");
    expect(recordHostname(resource(RECORD, "www", { name: "www" }, { zone }))).toBe("www.shop.example");
    expect(recordHostname(resource(RECORD, "loose", { name: "www" }))).toBeUndefined();
  });
  it("matches a record to the site settings of its hostname and wants a blocking WAF", () => {
    const www = resource(RECORD, "www", { name: "www", proxied: true }, { zone });
    const on = resource(SITE_SETTINGS, "on", { hostname: "WWW.shop.example", waf: { enabled: true } });
    const log = resource(SITE_SETTINGS, "log", { hostname: "www.shop.example", waf: { enabled: true, mode: "log" } });
    const none = resource(SITE_SETTINGS, "none", { hostname: "www.shop.example" });
    expect(proxiedRecordsWithoutWaf([zone, www, on])).toEqual([]);
    expect(proxiedRecordsWithoutWaf([zone, www, log]).map((f) => f.message)).toEqual([
      'proxied record "www" (www.shop.example): its nsp:cdn:SiteSettings "log" has waf.mode "log", which ' +
        "records attacks without stopping them",
    ]);
    expect(proxiedRecordsWithoutWaf([zone, www, none]).map((f) => f.message)).toEqual([
      'proxied record "www" (www.shop.example): its nsp:cdn:SiteSettings "none" sets no waf',
    ]);
    expect(proxiedRecordsWithoutWaf([zone, www]).map((f) => [f.resource.name, f.message])).toEqual([
      [
        "www",
        'proxied record "www" has no nsp:cdn:SiteSettings with hostname "www.shop.example", so its site\'s ' +
          "WAF is not shown to be on",
      ],
    ]);
  });
  it("leaves records that are not proxied alone", () => {
    const plain = resource(RECORD, "plain", { name: "mail", proxied: false }, { zone });
    expect(proxiedRecordsWithoutWaf([zone, plain])).toEqual([]);
  });
  it("with the zone outside the stack, takes the site settings that depend on the record", () => {
    const www = resource(RECORD, "www", { name: "www", proxied: true });
    const other = resource(SITE_SETTINGS, "other", { hostname: "www.elsewhere.example", waf: { enabled: true } });
    expect(proxiedRecordsWithoutWaf([www, other]).map((f) => f.message)).toEqual([
      'proxied record "www" has no nsp:cdn:SiteSettings that depends on it (its zone is not in this stack), ' +
        "so its site's WAF is not shown to be on",
    ]);
    const dependent = resource(
      SITE_SETTINGS,
      "dependent",
      { hostname: "www.elsewhere.example", waf: { enabled: false } },
      { dependsOn: [www] },
    );
    expect(proxiedRecordsWithoutWaf([www, dependent]).map((f) => f.message)).toEqual([
      'proxied record "www" (zone not in this stack): its nsp:cdn:SiteSettings "dependent" has waf.enabled false',
    ]);
  });
});
