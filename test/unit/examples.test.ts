// The examples of every resource and function: one Pulumi YAML source beside each definition,
// and the TypeScript, Python and Go that schema.json and the docs pages show are what the
// generator makes of that source today. test/e2e/examples.test.ts runs and compiles them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPackageSchema } from "../../provider/src/framework/engine/schema";
import { packageInfo } from "../../provider/src/config/package-info";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import {
  exampleSourcePath,
  examplesMarkdown,
  LANGUAGES,
  parseExampleSources,
  pythonName,
  renderAllExamples,
  renderExamples,
} from "../../scripts/example-programs";
import { exampleSections } from "../../scripts/schema-examples.mjs";

const ROOT = join(__dirname, "..", "..");
const baseSchema = buildPackageSchema(packageInfo, resources, functions);
const committed = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
const generatedSections = exampleSections(committed);
const tokens = [...resources.map((r) => r.token), ...functions.map((f) => f.token)];

function descriptionOf(token: string): string {
  return (committed.resources[token] ?? committed.functions[token]).description;
}

function pageOf(token: string): string {
  const [, mod, name] = token.split(":");
  return readFileSync(
    join(ROOT, "docs", committed.resources[token] ? "resources" : "functions", `${mod}-${name}.md`),
    "utf8",
  );
}

describe("examples", () => {
  it("every resource and function has an example source beside its definition", () => {
    const missing = tokens.filter((t) => !existsSync(join(ROOT, exampleSourcePath(t))));
    expect(missing).toEqual([]);
  });

  it("schema.json and the docs pages show what the generator makes of each source today, in four languages", () => {
    const withSource = tokens.filter((t) => existsSync(join(ROOT, exampleSourcePath(t))));
    expect(withSource.length).toBe(tokens.length);
    const renderedByToken = renderAllExamples(
      baseSchema,
      Object.fromEntries(
        withSource.map((t) => [
          t,
          parseExampleSources(readFileSync(join(ROOT, exampleSourcePath(t)), "utf8"), exampleSourcePath(t)),
        ]),
      ),
    );
    for (const token of withSource) {
      const rendered = renderedByToken[token]!;
      expect(rendered.length).toBeGreaterThan(0);
      const section = examplesMarkdown(rendered);
      expect(generatedSections[token], token).toBe(section);
      expect(descriptionOf(token)).toContain(section);
      const page = pageOf(token);
      for (const e of rendered) {
        for (const lang of LANGUAGES) {
          expect(e[lang].trim().length, `${token} ${lang}`).toBeGreaterThan(0);
          expect(page, `${token} ${lang}`).toContain(`\`\`\`${lang}\n${e[lang].trimEnd()}\n\`\`\``);
        }
      }
    }
    // No token shows examples without a source.
    expect(Object.keys(generatedSections).sort()).toEqual(withSource.sort());
  });
});

describe("the released docs", () => {
  /** What a release ships as docs: the registry pages, the guides, the resource and function pages. */
  const released = [
    "docs/_index.md",
    "docs/installation-configuration.md",
    ...["docs/guides", "docs/resources", "docs/functions"].flatMap((d) =>
      readdirSync(join(ROOT, d))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `${d}/${f}`),
    ),
  ];

  it("link to no repository file a release leaves out, and every relative link resolves", () => {
    const unshipped = /\]\((?!https?:)[^)]*(CHANGELOG\.md|examples\/|Pulumi\.yaml)[^)]*\)/;
    for (const file of released) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(text, file).not.toMatch(unshipped);
      for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#]+)(#[^)]*)?\)/g)) {
        expect(existsSync(resolve(dirname(join(ROOT, file)), target!)), `${file} links to ${target}`).toBe(true);
      }
    }
    expect(JSON.stringify(committed)).not.toMatch(unshipped);
  });

  it("has the guides, linked from _index.md", () => {
    const index = readFileSync(join(ROOT, "docs/_index.md"), "utf8");
    for (const guide of ["getting-started", "moving-a-zone", "gitops", "many-accounts", "fleet"])
      expect(index).toContain(`(./guides/${guide}.md)`);
  });
});

describe("the example generator", () => {
  const program = (text: string) =>
    renderExamples(baseSchema, "nsp:dns:Record", parseExampleSources(text, "test.yaml"))[0]!;
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
    // Laid out by gofmt: the fields of one literal aligned on its longest name (Content).
    expect(e.go).toContain('\t\t\tZoneId:  zone.ID(),\n\t\t\tName:    pulumi.String("@"),');
    expect(e.go).toContain("\t\t\tTtl:     pulumi.Int(300),");
    expect(e.go).toContain('_, err = dns.NewRecord(ctx, "mx"');
    expect(e.go).toContain("pulumi.DependsOn([]pulumi.Resource{zone})");
    expect(e.yaml).toMatch(/^name: dns-record\nruntime: yaml\n/);
  });

  it("refuses what it does not handle, naming it", () => {
    expect(() => program(source.replace("ttl: 300", "ttl: 300, tll: 3"))).toThrow(/tll is not a property/);
    expect(() => program(source.replace("${zone.serial}", "${zone.serials}"))).toThrow(/zone has no property serials/);
    expect(() => program(source.replace("name: t.example", "name: { fn::join: [a, b] }"))).toThrow(
      /fn::join is outside the subset/,
    );
    expect(() => program(source.replace("dependsOn", "protect"))).toThrow(/option protect is outside the subset/);
    expect(() => program(source.replace('zoneId: "${zone.id}", ', ""))).toThrow(/mx lacks the required zoneId/);
  });

  it("spells names as Pulumi's Python generator does", () => {
    expect(["serviceId", "popId2", "ip4", "delayS", "maxKbps", "e164", "dsRdata"].map(pythonName)).toEqual([
      "service_id",
      "pop_id2",
      "ip4",
      "delay_s",
      "max_kbps",
      "e164",
      "ds_rdata",
    ]);
  });
});
