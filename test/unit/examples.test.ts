// The examples of every resource and function: one Pulumi YAML source beside each definition,
// and the TypeScript, Python and Go that schema.json and the docs pages show are what the
// generator makes of that source today. test/e2e/examples.test.ts runs and compiles them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examples as generatedSections } from "../../provider/src/examples.generated";
import { buildPackageSchema } from "../../provider/src/framework/schema";
import { packageInfo } from "../../provider/src/package-info";
import { functions, resources } from "../../provider/src/registry";
import { exampleSourcePath, examplesMarkdown, LANGUAGES, parseExampleSources, pythonName, renderExamples } from "../../scripts/example-programs";

const ROOT = join(__dirname, "..", "..");
const baseSchema = buildPackageSchema(packageInfo, resources, functions);
const committed = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
const tokens = [...resources.map((r) => r.token), ...functions.map((f) => f.token)];

/** Tokens whose examples are still being written; this list only shrinks, and ends empty. */
const NOT_YET: readonly string[] = [
  "nsp:org:Organization",
  "nsp:org:Member",
  "nsp:org:Apps",
  "nsp:partner:Subject",
  "nsp:registry:Link",
  "nsp:registry:Domain",
  "nsp:compute:VmPower",
  "nsp:stream:Channel",
  "nsp:stream:Programme",
  "nsp:vod:Asset",
  "nsp:vod:SigningKey",
  "nsp:vod:Webhook",
  "nsp:dns:Record",
  "nsp:dns:ZoneDnssec",
  "nsp:dns:ZoneTransfer",
  "nsp:dns:ZoneGrant",
  "nsp:dns:Range",
  "nsp:dns:ZoneVerification",
  "nsp:dns:ZoneRecords",
  "nsp:rpki:Ca",
  "nsp:rpki:Roa",
  "nsp:cdn:Site",
  "nsp:cdn:SiteSettings",
  "nsp:cdn:SiteVerification",
  "nsp:security:Rule",
  "nsp:link:Tunnel",
  "nsp:link:TunnelHostnames",
  "nsp:vgate:Pbx",
  "nsp:vgate:Extension",
  "nsp:vgate:Trunk",
  "nsp:vgate:Number",
  "nsp:vgate:NumberFlow",
  "nsp:vgate:InboundRoute",
  "nsp:vgate:OutboundRoute",
  "nsp:vgate:Ivr",
  "nsp:vgate:RingGroup",
  "nsp:vgate:Queue",
  "nsp:vgate:TimeCondition",
  "nsp:mail:Server",
  "nsp:mail:Domain",
  "nsp:mail:Mailbox",
  "nsp:mail:AppPassword",
  "nsp:mail:Alias",
  "nsp:mail:Group",
  "nsp:mail:DomainRule",
  "nsp:mail:Route",
  "nsp:mail:Destination",
  "nsp:sgate:NumberSettings",
  "nsp:sgate:Brand",
  "nsp:sgate:Campaign",
  "nsp:sgate:Sender",
  "nsp:sgate:Template",
  "nsp:sgate:Consent",
  "nsp:sgate:Broadcast",
  "nsp:verify:Site",
  "nsp:pages:Project",
  "nsp:index:Webhook",
  "nsp:services:Filter",
  "nsp:services:Policy",
  "nsp:services:Client",
  "nsp:services:ClientDdnsToken",
  "nsp:meet:Settings",
  "nsp:voice:Number",
  "nsp:voice:NumberEndpoint",
  "nsp:talk:Room",
  "nsp:rtc:Room",
  "nsp:storage:Destination",
  "nsp:ix:Member",
  "nsp:org:getOrgDomains",
  "nsp:registry:getRegistryResources",
  "nsp:registry:getRpkiPlan",
  "nsp:compute:getVms",
  "nsp:stream:getStreamCities",
  "nsp:dns:getZone",
  "nsp:dns:getService",
  "nsp:dns:getServices",
  "nsp:index:getMe",
  "nsp:index:getQuota",
  "nsp:rpki:getRpkiSuggestions",
  "nsp:rpki:getRpsl",
  "nsp:link:getLinkPops",
  "nsp:vgate:getCities",
  "nsp:vgate:getTemplates",
  "nsp:mail:getDomain",
  "nsp:sgate:getNumbers",
  "nsp:vgate:getBalance",
  "nsp:index:getWebhookEvents",
  "nsp:dns:getDnsLists",
  "nsp:talk:getTalkCities",
  "nsp:rtc:getRtcCities",
];

function descriptionOf(token: string): string {
  return (committed.resources[token] ?? committed.functions[token]).description;
}

function pageOf(token: string): string {
  const [, mod, name] = token.split(":");
  return readFileSync(join(ROOT, "docs", committed.resources[token] ? "resources" : "functions", `${mod}-${name}.md`), "utf8");
}

describe("examples", () => {
  it("every resource and function has an example source beside its definition", () => {
    const missing = tokens.filter((t) => !existsSync(join(ROOT, exampleSourcePath(t))));
    expect(missing).toEqual(NOT_YET);
  });

  it("schema.json, examples.generated.ts and the docs pages show what the generator makes of each source today, in four languages", () => {
    const withSource = tokens.filter((t) => existsSync(join(ROOT, exampleSourcePath(t))));
    expect(withSource.length).toBe(tokens.length - NOT_YET.length);
    for (const token of withSource) {
      const path = exampleSourcePath(token);
      const rendered = renderExamples(baseSchema, token, parseExampleSources(readFileSync(join(ROOT, path), "utf8"), path));
      expect(rendered.length).toBeGreaterThan(0);
      const section = examplesMarkdown(rendered);
      expect(generatedSections[token], token).toBe(section);
      expect(descriptionOf(token)).toContain(section);
      const page = pageOf(token);
      for (const e of rendered) {
        for (const lang of LANGUAGES) {
          expect(e[lang].trim().length, `${token} ${lang}`).toBeGreaterThan(0);
          expect(page, `${token} ${lang}`).toContain("```" + lang + "\n" + e[lang].trimEnd() + "\n```");
        }
      }
    }
    // No token shows examples without a source.
    expect(Object.keys(generatedSections).sort()).toEqual(withSource.sort());
  });
});

describe("the example generator", () => {
  const program = (text: string) => renderExamples(baseSchema, "nsp:dns:Record", parseExampleSources(text, "test.yaml"))[0]!;
  const source = `
- title: t
  program:
    variables:
      authDns:
        fn::invoke:
          function: nsp:dns:getServices
          arguments: { type: auth_dns }
    resources:
      zone:
        type: nsp:dns:Zone
        properties: { serviceId: "\${authDns.services[0].id}", name: t.example }
      mx:
        type: nsp:dns:Record
        properties: { zoneId: "\${zone.id}", name: "@", type: MX, content: "10 mail.\${zone.name}.", ttl: 300 }
        options: { dependsOn: ["\${zone}"] }
    outputs:
      serial: \${zone.serial}
`;

  it("spells each reference, interpolation and option in each language", () => {
    const e = program(source);
    expect(e.typescript).toContain("serviceId: authDns.services[0].id,");
    expect(e.typescript).toContain("content: pulumi.interpolate`10 mail.${zone.name}.`,");
    expect(e.typescript).toContain("{ dependsOn: [zone] });");
    expect(e.python).toContain("service_id=auth_dns.services[0].id,");
    expect(e.python).toContain('content=pulumi.Output.concat("10 mail.", zone.name, "."),');
    expect(e.python).toContain("opts=pulumi.ResourceOptions(depends_on=[zone]),");
    expect(e.go).toContain("ServiceId: authDns.Services().Index(pulumi.Int(0)).Id(),");
    expect(e.go).toContain('Content: pulumi.Sprintf("10 mail.%v.", zone.Name),');
    expect(e.go).toContain("Ttl: pulumi.Int(300),");
    expect(e.go).toContain("_, err = dns.NewRecord(ctx, \"mx\"");
    expect(e.go).toContain("pulumi.DependsOn([]pulumi.Resource{zone})");
    expect(e.yaml).toMatch(/^name: dns-record\nruntime: yaml\n/);
  });

  it("refuses what it does not handle, naming it", () => {
    expect(() => program(source.replace("ttl: 300", "ttl: 300, tll: 3"))).toThrow(/tll is not a property/);
    expect(() => program(source.replace("${zone.serial}", "${zone.serials}"))).toThrow(/zone has no property serials/);
    expect(() => program(source.replace("name: t.example", "name: { fn::join: [a, b] }"))).toThrow(/fn::join is outside the subset/);
    expect(() => program(source.replace("dependsOn", "protect"))).toThrow(/option protect is outside the subset/);
    expect(() => program(source.replace("zoneId: \"${zone.id}\", ", ""))).toThrow(/mx lacks the required zoneId/);
  });

  it("spells names as Pulumi's Python generator does", () => {
    expect(["serviceId", "popId2", "ip4", "delayS", "maxKbps", "e164", "dsRdata"].map(pythonName)).toEqual(["service_id", "pop_id2", "ip4", "delay_s", "max_kbps", "e164", "ds_rdata"]);
  });
});
