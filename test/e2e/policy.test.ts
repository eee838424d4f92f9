// examples/policy-pack through the real pulumi CLI: `pulumi preview --policy-pack` starts the
// pack through our nodejs language host (RunPlugin), the pack judges the program's nsp
// resources, and a mandatory violation fails the preview. One stack, previews only.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startEmulatorProcess, Stack, type EmulatorProcess } from "./harness/pulumi-cli";

const PACK = join(ROOT, "examples/policy-pack");

/** Breaks every rule once: no DNSSEC, a proxied record without site settings, ttl 60, a block-all rule. */
const VIOLATING = `
  zone:
    type: nsp:dns:Zone
    properties: { serviceId: "\${authDns[0].id}", name: policy.example }
  www:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: www, type: A, content: 192.0.2.10, ttl: 60, proxied: true }
  shop:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: shop, type: A, content: 192.0.2.11, proxied: true }
  shopSite:
    type: nsp:cdn:SiteSettings
    properties: { hostname: shop.policy.example, waf: { enabled: false } }
    options: { dependsOn: ["\${shop}"] }
  blockAll:
    type: nsp:security:Rule
    properties: { zoneId: "\${zone.id}", field: ip, op: in, value: "198.51.100.0/24, ::/0", action: block }
`;

/** The same stack, compliant: signed, both proxied sites behind a blocking WAF, an allow-list rule. */
const COMPLIANT = `
  zone:
    type: nsp:dns:Zone
    properties: { serviceId: "\${authDns[0].id}", name: policy.example }
  signing:
    type: nsp:dns:ZoneDnssec
    properties: { zoneId: "\${zone.id}" }
  www:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: www, type: A, content: 192.0.2.10, ttl: 300, proxied: true }
  wwwSite:
    type: nsp:cdn:SiteSettings
    properties: { hostname: www.policy.example, waf: { enabled: true, mode: block } }
    options: { dependsOn: ["\${www}"] }
  shop:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: shop, type: A, content: 192.0.2.11, proxied: true }
  shopSite:
    type: nsp:cdn:SiteSettings
    properties: { hostname: shop.policy.example, waf: { enabled: true } }
    options: { dependsOn: ["\${shop}"] }
  onlyOurs:
    type: nsp:security:Rule
    properties: { zoneId: "\${zone.id}", field: ip, op: not_in, value: 198.51.100.0/24, action: block }
`;

let emulator: EmulatorProcess;
let stack: Stack;

function useProgram(resources: string): void {
  writeFileSync(
    join(stack.dir, "Pulumi.yaml"),
    Stack.yamlProgramText(`${Stack.yamlProgramHead("nsp-policy")}resources:${resources}`),
  );
}

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  const dir = Stack.yamlProject(`${Stack.yamlProgramHead("nsp-policy")}resources: {}\n`);
  stack = await Stack.init(dir, {
    env: { NSP_BASE_URL: emulator.baseUrl, NSP_API_TOKEN: Object.values(emulator.accounts)[0]! },
  });
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

describe("the nsp policy pack in pulumi preview", () => {
  it("fails a program that breaks each rule, naming the policy and the resource", async () => {
    useProgram(VIOLATING);
    const r = await stack.preview(["--policy-pack", PACK], true);
    const out = r.stdout + r.stderr;
    expect(r.code, out).not.toBe(0);
    expect(out).toMatch(/\[mandatory\]\s+nsp-zone-dnssec\s+\(nsp:dns:Zone: zone\)/);
    expect(out).toContain('zone "zone" has no enabled nsp:dns:ZoneDnssec in this stack');
    expect(out).toMatch(/\[mandatory\]\s+nsp-proxied-record-needs-waf\s+\(nsp:dns:Record: www\)/);
    expect(out).toContain('proxied record "www" has no nsp:cdn:SiteSettings with hostname "www.policy.example"');
    expect(out).toMatch(/\[mandatory\]\s+nsp-proxied-record-needs-waf\s+\(nsp:dns:Record: shop\)/);
    expect(out).toContain(
      'proxied record "shop" (shop.policy.example): its nsp:cdn:SiteSettings "shopSite" has waf.enabled false',
    );
    expect(out).toMatch(/\[mandatory\]\s+nsp-record-ttl-bounds\s+\(nsp:dns:Record: www\)/);
    expect(out).toContain('record "www": ttl 60 is below the minimum of 300 seconds');
    // shop's ttl is unset: the API's 3600 is within bounds.
    expect(out).not.toMatch(/nsp-record-ttl-bounds\s+\(nsp:dns:Record: shop\)/);
    expect(out).toMatch(/\[mandatory\]\s+nsp-no-block-all-security-rule\s+\(nsp:security:Rule: blockAll\)/);
    expect(out).toContain('security rule "blockAll" blocks every client: ip in "::/0" matches every address');
    // A preview changes nothing in the account, whatever the policies say.
    expect((await emulator.control().stats()).mutating).toBe(0);
  });

  it("passes the compliant program", async () => {
    useProgram(COMPLIANT);
    const r = await stack.preview(["--policy-pack", PACK]);
    expect(r.stdout).toMatch(/✅ nsp-guardrails@v0\.1\.0/);
    expect(r.stdout).not.toContain("[mandatory]");
  });

  it("takes its enforcement level and TTL bounds from --policy-pack-config", async () => {
    useProgram(VIOLATING);
    const config = join(stack.dir, "policy-config.json");
    writeFileSync(
      config,
      JSON.stringify({ all: "advisory", "nsp-record-ttl-bounds": { enforcementLevel: "advisory", minTtl: 60 } }),
    );
    const r = await stack.preview(["--policy-pack", PACK, "--policy-pack-config", config]);
    expect(r.stdout).toMatch(/\[advisory\]\s+nsp-zone-dnssec/);
    expect(r.stdout).toMatch(/\[advisory\]\s+nsp-no-block-all-security-rule/);
    expect(r.stdout).not.toContain("[mandatory]");
    expect(r.stdout).not.toContain("nsp-record-ttl-bounds  (");
  });
});
