// Nothing the program does not manage is deleted, with the real pulumi CLI: a destroy is refused
// while the zone and the mail domain hold a record and a mailbox made through the API, and
// leaves them on the server; `forceDestroy: true`, an update in place, lets it through; a zone
// that holds only what the program manages goes without it; and a replacement that deletes the
// zone first is refused before anything is deleted. One stack through every step.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { emulatorOfFile, Stack } from "./harness/pulumi-cli";

const emulator = emulatorOfFile(["--rate-limit", "0"]);

interface Options {
  forceDestroy?: boolean;
  /** The zone's mode; `host` replaces the zone, deleting it first (the name stays). */
  mode?: "zone" | "host";
  /** The mail domain in the zone (publishing its records there) instead of on its own. */
  mailInZone?: boolean;
}

function program({ forceDestroy, mode, mailInZone }: Options = {}): string {
  const flag = forceDestroy === undefined ? "" : `, forceDestroy: ${forceDestroy}`;
  return `${Stack.yamlProgramHead("nsp-force-destroy")}resources:
  zone:
    type: nsp:dns:Zone
    properties: { serviceId: "\${authDns[0].id}", name: held.example${mode ? `, mode: ${mode}` : ""}${flag} }
  www:
    type: nsp:dns:Record
    properties: { zoneId: "\${zone.id}", name: www, type: A, content: 192.0.2.10 }
  domain:
    type: nsp:mail:Domain
    properties: { ${mailInZone ? `zoneId: "\${zone.id}", name: held.example` : "name: mail.held.example"}, mode: both${flag} }
  alice:
    type: nsp:mail:Mailbox
    properties: { domainId: "\${domain.id}", local: alice }
outputs:
  zoneId: \${zone.id}
  domainId: \${domain.id}
`;
}

function useProgram(stack: Stack, options: Options = {}): void {
  writeFileSync(join(stack.dir, "Pulumi.yaml"), Stack.yamlProgramText(program(options)));
}

async function present(
  api: EmulatorControl,
  list: string,
  name: (item: Record<string, unknown>) => string,
): Promise<string[]> {
  return (await api.list<Record<string, unknown>>(list)).map(name).sort();
}

async function gone(api: EmulatorControl, path: string): Promise<boolean> {
  return api.get(path).then(
    () => false,
    (e: Error) => /404/.test(String(e)),
  );
}

describe("forceDestroy, with the pulumi CLI", () => {
  it(
    "refuses destroy over hand-made objects, destroys once forceDestroy is set in place or nothing " +
      "unmanaged is left, and refuses a delete-first replacement",
    async () => {
      const admin = emulator.process.control();
      const token = await admin.addAccount("force-destroy");
      const api = new EmulatorControl(emulator.process.baseUrl, token);
      const stack = await Stack.init(Stack.yamlProject(program()));
      emulator.stacks.push(stack);
      await stack.useAccount(emulator.process.baseUrl, token);

      await stack.up();
      const first = await stack.outputs();
      const zoneId = String(first.zoneId);
      const domainId = String(first.domainId);
      // A customer adds a record and a mailbox by hand.
      await api.post(`/dns/zones/${zoneId}/records`, { name: "handmade", type: "TXT", content: "by hand" });
      await api.post(`/mail/domains/${domainId}/mailboxes`, { domain_id: Number(domainId), local: "bob" });

      // The engine deletes the program's record and mailbox first; the zone and the domain refuse.
      const refused = await stack.run(["destroy", "--yes", "--skip-preview", "--continue-on-error"], {
        allowFailure: true,
      });
      expect(refused.code).not.toBe(0);
      const said = refused.stdout + refused.stderr;
      expect(said).toMatch(
        /nsp:dns:Zone "zone" \(id \d+\) still holds objects this program does not manage: 1 record \("handmade TXT"\)/,
      );
      expect(said).toMatch(
        /nsp:mail:Domain "domain" \(id \d+\) still holds objects this program does not manage: 1 mailbox \("bob@mail\.held\.example"\)/,
      );
      expect(said).toMatch(
        /so the zone and those objects were kept; the program's own objects in it may already be deleted/,
      );
      expect(said).toMatch(/so the mail domain and those objects were kept/);
      expect(said).toMatch(/set `forceDestroy: true` on it and run `pulumi up`/);
      expect(await present(api, `/dns/zones/${zoneId}/records`, (r) => `${r.name} ${r.type}`)).toEqual([
        "handmade TXT",
      ]);
      expect(await present(api, `/mail/domains/${domainId}/mailboxes`, (m) => String(m.local))).toEqual(["bob"]);

      // forceDestroy is an update in place: the up recreates the program's record and mailbox (as
      // the refusal says) and replaces nothing; then the destroy deletes everything.
      useProgram(stack, { forceDestroy: true });
      const forced = await stack.up();
      expect(forced.stdout).toMatch(/2 updated/);
      expect(forced.stdout).toMatch(/2 created/);
      expect(forced.stdout).not.toMatch(/replaced/);
      await stack.destroy();
      expect(await gone(api, `/dns/zones/${zoneId}`)).toBe(true);
      expect(await gone(api, `/mail/domains/${domainId}`)).toBe(true);

      // Without the flag, a zone that holds only what the program manages (its mail domain's
      // records included) is destroyed; first, a replacement that deletes it first is refused.
      useProgram(stack, { mailInZone: true });
      await stack.up();
      const second = await stack.outputs();
      const zone2 = String(second.zoneId);
      await api.post(`/dns/zones/${zone2}/records`, { name: "handmade", type: "TXT", content: "by hand" });
      const before = await present(api, `/dns/zones/${zone2}/records`, (r) => `${r.name} ${r.type}`);
      useProgram(stack, { mailInZone: true, mode: "host" });
      const replace = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      expect(replace.code).not.toBe(0);
      expect(replace.stdout + replace.stderr).toMatch(
        /nsp:dns:Zone "zone" \(id \d+\) must be deleted before its replacement is created, and it holds \d+ records \(.*"handmade TXT".*\).*forceDestroy: true/s,
      );
      // Nothing was deleted: the program's records, the mail domain's and the hand-made one.
      expect(await present(api, `/dns/zones/${zone2}/records`, (r) => `${r.name} ${r.type}`)).toEqual(before);
      expect(before).toEqual(expect.arrayContaining(["www A", "handmade TXT"]));

      await api.delete(
        `/dns/zones/${zone2}/records/${(await api.list<{ id: number; name: string }>(`/dns/zones/${zone2}/records`)).find((r) => r.name === "handmade")!.id}`,
      );
      useProgram(stack, { mailInZone: true });
      await stack.destroy();
      expect(await gone(api, `/dns/zones/${zone2}`)).toBe(true);
    },
  );
});
