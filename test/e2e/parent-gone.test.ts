// Parents deleted outside Pulumi, with the real pulumi CLI: `refresh` drops them and their children
// from the state instead of failing, `up` recreates everything, and nothing is left to change.
// Run with batched reads on and off.
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { emulatorOfFile, Stack } from "./harness/pulumi-cli";

const emulator = emulatorOfFile(["--rate-limit", "0"]);

function program(tag: string): string {
  return `${Stack.yamlProgramHead("nsp-parent-gone")}  ams:
    fn::invoke:
      function: nsp:link:getLinkPops
      arguments: { code: ams }
      return: pops
resources:
  zone:
    type: nsp:dns:Zone
    properties: { serviceId: "\${authDns[0].id}", name: ${tag}.gone.example }
  www:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: www, type: A, content: 192.0.2.10 }
  api:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: api, type: A, content: 192.0.2.11 }
  ca:
    type: nsp:rpki:Ca
    properties: { handle: ${tag}-ca, asns: [64500] }
  roa:
    type: nsp:rpki:Roa
    properties: { caId: "\${ca.id}", asn: 64500, prefix: 192.0.2.0/24 }
  domain:
    type: nsp:mail:Domain
    properties: { name: ${tag}.mail.example, mode: both }
  mailbox:
    type: nsp:mail:Mailbox
    properties: { domainId: "\${domain.id}", local: alice }
  pbx:
    type: nsp:vgate:Pbx
    properties: { name: ${tag} office }
  extension:
    type: nsp:vgate:Extension
    properties: { pbxId: "\${pbx.id}", number: "101" }
  tunnel:
    type: nsp:link:Tunnel
    properties: { name: ${tag}-tunnel, localUrl: "http://localhost:8080", popId: "\${ams[0].id}" }
  hostnames:
    type: nsp:link:TunnelHostnames
    properties: { tunnelId: "\${tunnel.id}", hostnames: [app.${tag}.tun.example] }
`;
}

// The parents, and where the API deletes each one.
const PARENTS: Record<string, (id: string) => string> = {
  "nsp:dns:Zone": (id) => `/dns/zones/${id}`,
  "nsp:rpki:Ca": (id) => `/rpki/cas/${id}`,
  "nsp:mail:Domain": (id) => `/mail/domains/${id}`,
  "nsp:vgate:Pbx": (id) => `/vgate/pbx/${id}`,
  "nsp:link:Tunnel": (id) => `/link/tunnels/${id}`,
};
const RESOURCES = 11;

async function held(stack: Stack): Promise<{ type: string; id?: string }[]> {
  return (await stack.exportState()).deployment.resources.filter(
    (r) => r.type.startsWith("nsp:") && !r.type.startsWith("pulumi:providers:"),
  );
}

describe("parents deleted outside Pulumi, with the pulumi CLI", () => {
  it.each([true, false])(
    "batchReads=%s: refresh drops them and their children, up recreates them",
    async (batchReads) => {
      const tag = batchReads ? "batched" : "unbatched";
      const admin = emulator.process.control();
      const token = await admin.addAccount(`gone-${tag}`);
      const api = new EmulatorControl(emulator.process.baseUrl, token);
      const stack = await Stack.init(Stack.yamlProject(program(tag)), { stack: tag });
      emulator.stacks.push(stack);
      await stack.useAccount(emulator.process.baseUrl, token, { "nsp:batchReads": String(batchReads) });

      await stack.up();
      const before = await held(stack);
      expect(before).toHaveLength(RESOURCES);

      for (const r of before.filter((x) => PARENTS[x.type])) await api.delete(PARENTS[r.type]!(r.id!));

      // Refresh succeeds and forgets every parent and child; nothing is left that no longer exists.
      const refresh = await stack.refresh();
      expect(refresh.stdout).toMatch(new RegExp(`${RESOURCES} deleted`));
      expect(await held(stack)).toEqual([]);

      // The next up recreates them all on the server, and then there is nothing to change.
      const up = await stack.up();
      expect(up.stdout).toMatch(new RegExp(`${RESOURCES} created`));
      const after = await held(stack);
      expect(after).toHaveLength(RESOURCES);
      const zone = after.find((r) => r.type === "nsp:dns:Zone")!;
      expect((await api.list<{ name: string }>(`/dns/zones/${zone.id}/records`)).map((r) => r.name).sort()).toEqual(
        expect.arrayContaining(["api", "www"]),
      );
      await stack.preview(["--expect-no-changes"]);
    },
  );
});
