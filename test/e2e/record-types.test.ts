// Every DNS record type, written in the spellings a program may use, through the real pulumi CLI
// against the emulator: after `up`, neither preview nor refresh may find a change, both for
// nsp:dns:Record and for nsp:dns:ZoneRecords. The DNS service id comes from stack configuration
// as a number, as `pulumi config set svcId 2` gives it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorProcess, Stack, type EmulatorProcess } from "./harness/pulumi-cli";

let emulator: EmulatorProcess;
let stack: Stack | undefined;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

const LONG_TXT = `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(8)}`;

/** [name, type, content] in the spellings under test. */
const RECORDS: [string, string, string][] = [
  ["@", "A", "192.0.2.1"],
  ["*", "A", "192.0.2.2"],
  ["V6", "AAAA", "2001:0DB8:0000:0000:0000:0000:0000:0001"],
  ["Www", "CNAME", "Target.Example.COM."],
  ["cname2", "CNAME", "target.example.com"],
  ["Alias1", "ALIAS", "lb.example.net."],
  ["alias2", "ALIAS", "LB.example.net"],
  ["Sub", "NS", "NS1.Delegated.example."],
  ["sub2", "NS", "ns2.delegated.example"],
  ["Ptr1", "PTR", "host.example.org."],
  ["ptr2", "PTR", "Host.Example.org"],
  ["@", "MX", "10 Mail.Example.COM."],
  ["@", "MX", "20 mx2.example.com"],
  ["_sip._tcp", "SRV", "10 60 5060 SIP.example.com."],
  ["@", "CAA", "0 issue letsencrypt.org"],
  ["@", "CAA", '0 issuewild "pki.goog"'],
  ["Dkim._domainkey", "TXT", LONG_TXT],
  ["quoted", "TXT", 'say "hello" to them'],
  ["@", "HTTPS", '1 . ALPN="h2,h3" port=443'],
  ["_svc", "SVCB", "1 Svc.Example.net. alpn=h2"],
];

function program(): string {
  const lines = [
    Stack.yamlPluginHead("nsp-record-types").trimEnd(),
    "config:",
    "  svcId:",
    "    type: integer",
    "resources:",
    "  zone:",
    "    type: nsp:dns:Zone",
    '    properties: { serviceId: "${svcId}", name: records.example }',
    "  listZone:",
    "    type: nsp:dns:Zone",
    '    properties: { serviceId: "${svcId}", name: list-records.example }',
  ];
  RECORDS.forEach(([name, type, content], i) => {
    lines.push(
      `  r${i}:`,
      "    type: nsp:dns:Record",
      `    properties: { zoneId: "\${zone.id}", name: ${JSON.stringify(name)}, type: ${type}, content: ${JSON.stringify(content)} }`,
    );
  });
  lines.push(
    "  list:",
    "    type: nsp:dns:ZoneRecords",
    "    properties:",
    '      zoneId: "${listZone.id}"',
    "      records:",
  );
  for (const [name, type, content] of RECORDS)
    lines.push(`        - { name: ${JSON.stringify(name)}, type: ${type}, content: ${JSON.stringify(content)} }`);
  return `${lines.join("\n")}\n`;
}

describe("every record type converges", () => {
  it("up, then preview and refresh find no change", async () => {
    const api = emulator.control();
    const serviceId = (await api.services()).find((s) => s.type === "auth_dns")!.id;
    stack = await Stack.init(Stack.yamlProject(program()));
    await stack.useAccount(emulator.baseUrl, api.token, { svcId: String(serviceId) });

    await stack.up();
    const zones = await api.list<{ id: number; name: string }>("/dns/zones");
    for (const zoneName of ["records.example", "list-records.example"]) {
      const zone = zones.find((z) => z.name === zoneName)!;
      const live = await api.list<{ name: string; type: string; content: string }>(`/dns/zones/${zone.id}/records`);
      expect(live).toHaveLength(RECORDS.length);
      // The API keeps its own spelling, so the absence of a diff below is the provider's doing.
      expect(live.find((r) => r.type === "AAAA")!.content).toBe("2001:db8::1");
      expect(live.find((r) => r.name === "www")!.content).toBe("target.example.com");
    }

    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes"]);

    // Refresh left the program's spelling in the inputs and the API's in the outputs.
    const v6 = (await stack.exportState()).deployment.resources.find((r) => r.urn.endsWith("::r2"))!;
    expect(v6.inputs?.content).toBe("2001:0DB8:0000:0000:0000:0000:0000:0001");
    expect(v6.outputs?.content).toBe("2001:db8::1");
    expect(v6.inputs?.zoneId).toMatch(/^\d+$/);

    await stack.destroy();
  });
});
