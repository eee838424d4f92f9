// The client in partner mode against the emulator over real HTTP: one clock for both, so renewal
// before expiry is exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/src/server";
import { ApiClient, PartnerCredentials, scrub } from "../../provider/src/client";

const PARTNER = `svc_${"7c41".repeat(8)}`;
let clock = Date.parse("2026-03-01T00:00:00.000Z");
const now = () => clock;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ accounts: [{ name: "msp", token: PARTNER }], now, partnerTokenTtlSeconds: 900 });
  for (const ref of ["c1", "c2"]) {
    await fetch(`${emu.baseUrl}/partner/subjects`, { method: "POST", headers: { authorization: `Bearer ${PARTNER}`, "content-type": "application/json" }, body: JSON.stringify({ external_ref: ref }) });
  }
});
afterAll(() => emu.close());

function customerClient(subject: string): { client: ApiClient; credentials: PartnerCredentials } {
  const common = { baseUrl: emu.baseUrl, token: PARTNER, now, requestsPerMinute: 0 };
  const credentials = new PartnerCredentials(new ApiClient(common), subject, now);
  return { client: new ApiClient({ ...common, credentials }), credentials };
}

async function mintedTokens(subject: string): Promise<string[]> {
  const res = await fetch(`${emu.baseUrl.replace(/\/api\/v1$/, "")}/_emulator/partner/credentials?subject=${subject}`);
  return ((await res.json()) as { data: { token: string }[] }).data.map((c) => c.token);
}

describe("PartnerCredentials", () => {
  it("mints once for concurrent requests, per scope", async () => {
    const { client, credentials } = customerClient("c1");
    await Promise.all(Array.from({ length: 8 }, () => client.get("/me")));
    expect(credentials.minted).toBe(1);
    await Promise.all(Array.from({ length: 4 }, (_, i) => client.post("/webhooks", { url: `https://hooks.example/${i}` })));
    expect(credentials.minted).toBe(2);
    expect((await client.listAll<{ url: string }>("/webhooks")).length).toBe(4);
    expect(credentials.minted).toBe(2);
  });

  it("renews 60 s before a 900 s credential expires, not earlier", async () => {
    const { client, credentials } = customerClient("c2");
    await client.get("/me");
    clock += 839_000;
    await client.get("/me");
    expect(credentials.minted).toBe(1);
    clock += 2_000;
    await client.get("/me");
    expect(credentials.minted).toBe(2);
  });

  it("blanks every minted credential in any scrubbed text", async () => {
    const tokens = await mintedTokens("c1");
    expect(tokens.length).toBeGreaterThan(0);
    const text = `leaked ${tokens.join(" and ")} ${encodeURIComponent(tokens[0]!)}`;
    expect(scrub(text)).toBe(`leaked ${tokens.map(() => "[REDACTED]").join(" and ")} [REDACTED]`);
  });
});
