// examples/partner: one partner token, five managed customers, one partner-mode provider each,
// with the real pulumi CLI. The emulator's credentials live 3 s and the changes of the `up` are
// slowed so that it outlasts them: credentials expire and are renewed in the middle of it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const CUSTOMERS = ["acme", "globex", "initech", "umbrella", "hooli"];

interface Minted {
  token: string;
  subject: string;
  scope: "read" | "write";
}

let emulator: EmulatorProcess;
let partner: EmulatorControl;
let stack: Stack;

async function minted(): Promise<Minted[]> {
  const res = await fetch(`${partner.root}/_emulator/partner/credentials`);
  return ((await res.json()) as { data: Minted[] }).data;
}

/** The zones a customer's own account holds, read with a credential the test mints itself. */
async function customerZones(ref: string): Promise<string[]> {
  const { token } = await partner.post<{ token: string }>(`/partner/subjects/${ref}/token`, { scope: "read" });
  return (await new EmulatorControl(emulator.baseUrl, token).list<{ name: string }>("/dns/zones")).map((z) => z.name);
}

beforeAll(async () => {
  emulator = await startEmulatorProcess(["--account", "msp", "--partner-token-ttl", "3"]);
  partner = emulator.control("msp");
  stack = await Stack.init(prepareProject("partner"));
  await stack.useAccount(emulator.baseUrl, emulator.accounts.msp!);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

it("manages five customers' accounts with one partner token; minted credentials renew mid-up and appear nowhere", async () => {
  // A first preview: the customers do not exist yet, so their providers stay unconfigured.
  const preview = await stack.preview();
  expect(preview.stdout).toMatch(/\+ 26 to create/);
  expect(await minted()).toEqual([]);

  // Each zone and record create takes 2 s: a customer's write credential, minted for its zone,
  // has expired by the time its records are checked, so it must be renewed during the up.
  await partner.setFaults({ rate: 1, kinds: ["latency"], latencyMs: 2_000, methods: ["POST"], path: "/dns/zones" });
  const up = await stack.up();
  await partner.clearFaults();
  expect(up.stdout + up.stderr).not.toMatch(/error|warning/i);

  for (const ref of CUSTOMERS) expect(await customerZones(ref)).toEqual([`${ref}.partner.example`]);
  expect(await partner.list("/dns/zones")).toEqual([]);
  const afterUp = await minted();
  for (const ref of CUSTOMERS) {
    const writes = afterUp.filter((c) => c.subject === ref && c.scope === "write");
    expect(writes.length, `write credentials minted for ${ref}`).toBeGreaterThan(1);
  }

  await stack.preview(["--expect-no-changes"]);
  await stack.destroy();
  expect(await partner.list("/partner/subjects")).toEqual([]);

  const credentials = await minted();
  expect(credentials.length).toBeGreaterThan(afterUp.length);
  const everything = stack.artefacts() + stack.log.map((r) => r.stdout + r.stderr).join("\n");
  for (const c of credentials) expect(everything, `credential minted for ${c.subject}`).not.toContain(c.token);
  expect(everything).not.toContain(emulator.accounts.msp!);
});
