// Partner mode (`partnerSubject`): the plugin acts for one managed customer with credentials it
// mints from the partner's token, driven over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { secret, startPlugin, UNKNOWN, type PluginHandle } from "../helpers/plugin";
import { providerChecks } from "../helpers/provider-checks";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const RECORD = "nsp:dns:Record";
const partnerToken = `svc_${"9a31".repeat(8)}`;

interface Minted {
  token: string;
  subject: string;
  account: string;
  scope: "read" | "write";
  expired: boolean;
}

const { emulator, control, anotherPlugin } = useProvider({ emulator: { accounts: [{ name: "msp", token: partnerToken }] }, plugin: false });

async function minted(subject: string): Promise<Minted[]> {
  const res = await fetch(`${control.root}/_emulator/partner/credentials?subject=${encodeURIComponent(subject)}`);
  return ((await res.json()) as { data: Minted[] }).data;
}

async function customer(ref: string): Promise<void> {
  await control.post("/partner/subjects", { external_ref: ref });
}

/** The customer's own view of its zones, through a credential the test mints itself. */
async function customerZones(ref: string): Promise<string[]> {
  const { token } = await control.post<{ token: string }>(`/partner/subjects/${ref}/token`, { scope: "read" });
  const res = await fetch(`${emulator.baseUrl}/dns/zones`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { name: string }[] }).data.map((z) => z.name);
}

async function serviceId(plugin: PluginHandle): Promise<string> {
  const { result } = await plugin.invoke("nsp:dns:getServices", { type: "auth_dns" });
  return (result.services as { id: string }[])[0]!.id;
}

function expectNoCredentialIn(texts: string[], credentials: Minted[]): void {
  expect(credentials.length).toBeGreaterThan(0);
  const all = texts.join("\n");
  for (const c of credentials) expect(all).not.toContain(c.token);
  expect(all).not.toContain(partnerToken);
}

describe("partner mode over gRPC", () => {
  it("mints a read credential at Configure, a write credential once for concurrent changes, and works in the customer's account", async () => {
    await customer("acme");
    const plugin = await anotherPlugin({ partnerSubject: "acme" });
    const { checked } = providerChecks(() => ({ plugin, control }));
    expect((await minted("acme")).map((c) => c.scope)).toEqual(["read"]);

    // A preview reads and plans; it never holds a write credential.
    const sid = await serviceId(plugin);
    const zoneInputs = await checked(ZONE, { serviceId: sid, name: "acme.example" });
    expect((await plugin.create(ZONE, "z", zoneInputs, true)).id).toBe("");
    expect((await minted("acme")).map((c) => c.scope)).toEqual(["read"]);

    const zone = await plugin.create(ZONE, "z", zoneInputs);
    const records = await Promise.all(
      ["www", "api", "mail"].map(async (name) => plugin.create(RECORD, name, await checked(RECORD, { zoneId: zone.id, name, type: "A", content: "192.0.2.10" }))),
    );
    expect((await minted("acme")).map((c) => c.scope)).toEqual(["read", "write"]);
    expect(await customerZones("acme")).toEqual(["acme.example"]);
    expect((await control.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("acme.example");

    const read = await plugin.read(RECORD, "www", records[0]!.id, records[0]!.properties);
    expect(read.properties).toMatchObject({ name: "www", content: "192.0.2.10" });
    const creds = await minted("acme");
    expectNoCredentialIn([JSON.stringify([zone, records, read]), plugin.stderr(), plugin.stdout(), ...plugin.engineLogs], creds);
  });

  it("renews a credential before it expires, without a refused request", async () => {
    await customer("globex");
    await fetch(`${control.root}/_emulator/partner/token-ttl`, { method: "PUT", body: JSON.stringify({ seconds: 2 }) });
    try {
      const plugin = await anotherPlugin({ partnerSubject: "globex" });
      await serviceId(plugin);
      await new Promise((r) => setTimeout(r, 2_000));
      await serviceId(plugin);
      const creds = await minted("globex");
      expect(creds.map((c) => c.scope)).toEqual(["read", "read"]);
      expect(plugin.engineLogs.join("\n")).not.toMatch(/refused/);
    } finally {
      await fetch(`${control.root}/_emulator/partner/token-ttl`, { method: "PUT", body: JSON.stringify({ seconds: 900 }) });
    }
  });

  it("mints afresh and retries once when a credential is refused", async () => {
    await customer("initech");
    const plugin = await anotherPlugin({ partnerSubject: "initech" });
    await fetch(`${control.root}/_emulator/partner/credentials/expire`, { method: "POST", body: JSON.stringify({ subject: "initech" }) });
    expect(await serviceId(plugin)).toMatch(/^\d+$/);
    expect((await minted("initech")).map((c) => [c.scope, c.expired])).toEqual([
      ["read", true],
      ["read", false],
    ]);
    expect(plugin.engineLogs.join("\n")).toMatch(/the customer credential was refused; minting a fresh one/);

    // Once the partner stops acting for the customer, the fresh mint itself is refused, and says why.
    await control.delete("/partner/subjects/initech");
    const err = await plugin.invoke("nsp:dns:getServices", {}).then(
      () => undefined,
      (e: { details?: string }) => String(e.details),
    );
    expect(err).toMatch(/^partnerSubject "initech": the partner \(apiToken\) has no managed customer with this reference/);
    expectNoCredentialIn([err!, plugin.stderr(), ...plugin.engineLogs], await minted("initech"));
  });

  it("fails at Configure for an unknown customer, naming partnerSubject and the provider instance, without a token", async () => {
    const plugin = await startPlugin();
    try {
      const err = await plugin.configure({ apiToken: secret(partnerToken), baseUrl: emulator.baseUrl, partnerSubject: "nobody" }, "cust-nobody").then(
        () => undefined,
        (e: { details?: string }) => String(e.details),
      );
      expect(err).toMatch(/^nsp: partnerSubject "nobody": the partner \(apiToken\) has no managed customer with this reference.*\(provider "cust-nobody"\)$/);
      expect([err, plugin.stderr(), ...plugin.engineLogs].join("\n")).not.toContain(partnerToken);
      const bad = await plugin.checkConfig({ apiToken: secret(partnerToken), partnerSubject: "has space" });
      expect(bad.failures.map((f) => f.property)).toEqual(["partnerSubject"]);
    } finally {
      await plugin.stop();
    }
  });

  it("stays unconfigured while the customer reference is unknown, instead of acting as the partner", async () => {
    const plugin = await startPlugin();
    try {
      await plugin.configure({ apiToken: secret(partnerToken), baseUrl: emulator.baseUrl, partnerSubject: UNKNOWN });
      await control.resetStats();
      const err = await plugin.invoke("nsp:dns:getServices", {}).then(
        () => undefined,
        (e: { details?: string }) => String(e.details),
      );
      expect(err).toMatch(/partnerSubject is not known yet/);
      expect((await control.stats()).total).toBe(0);
    } finally {
      await plugin.stop();
    }
  });
});
