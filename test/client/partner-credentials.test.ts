// The client in partner mode against the emulator over real HTTP: one clock for both, so renewal
// before expiry is exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/src/process/server";
import { ApiClient, PartnerCredentials, UnauthorizedError, scrub, type FetchLike } from "../../provider/src/client";

const PARTNER = `svc_${"7c41".repeat(8)}`;
let clock = Date.parse("2026-03-01T00:00:00.000Z");
const now = () => clock;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ accounts: [{ name: "msp", token: PARTNER }], now, partnerTokenTtlSeconds: 900 });
  for (const ref of ["c1", "c2"]) {
    await fetch(`${emu.baseUrl}/partner/subjects`, {
      method: "POST",
      headers: { authorization: `Bearer ${PARTNER}`, "content-type": "application/json" },
      body: JSON.stringify({ external_ref: ref }),
    });
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
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => client.post("/webhooks", { url: `https://hooks.example/${i}` })),
    );
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

describe("a credential refused even when fresh", () => {
  it("is minted afresh once, then the refusal is the answer: no loop", async () => {
    const sent: string[] = [];
    let mints = 0;
    const json = (status: number, body: unknown) => ({
      status,
      headers: new Headers(),
      text: async () => JSON.stringify(body),
    });
    const fetch: FetchLike = async (url, init) => {
      sent.push(`${init.method} ${new URL(url).pathname}`);
      if (url.endsWith("/token")) return json(201, { token: `svc_minted${++mints}`, expires_in: 900 });
      return json(401, { error: { code: "unauthorized", message: "credential revoked" } });
    };
    const common = {
      baseUrl: "https://api.example.test/api/v1",
      token: PARTNER,
      fetch,
      requestsPerMinute: 0,
      sleep: async () => undefined,
    };
    const client = new ApiClient({ ...common, credentials: new PartnerCredentials(new ApiClient(common), "c9") });
    await expect(client.get("/me")).rejects.toBeInstanceOf(UnauthorizedError);
    expect(sent).toEqual([
      "POST /api/v1/partner/subjects/c9/token",
      "GET /api/v1/me",
      "POST /api/v1/partner/subjects/c9/token",
      "GET /api/v1/me",
    ]);
  });
});

describe("a credential that outlives its life on the way (a slow server)", () => {
  /** A server whose every GET takes 2 s of the client's clock and refuses the first `refusals` of them; credentials live 1 s. */
  function slowServer(refusals: number, maxRetries: number): { client: ApiClient; sent: string[] } {
    const sent: string[] = [];
    let clock = 0;
    let mints = 0;
    const json = (status: number, body: unknown) => ({
      status,
      headers: new Headers(),
      text: async () => JSON.stringify(body),
    });
    const fetch: FetchLike = async (url, init) => {
      sent.push(`${init.method} ${new URL(url).pathname}`);
      if (url.endsWith("/token")) return json(201, { token: `svc_minted${++mints}`, expires_in: 1 });
      clock += 2_000;
      if (refusals-- > 0) return json(401, { error: { code: "unauthorized", message: "the credential expired" } });
      return json(200, { id: 1 });
    };
    const common = {
      baseUrl: "https://api.example.test/api/v1",
      token: PARTNER,
      fetch,
      requestsPerMinute: 0,
      sleep: async () => undefined,
      now: () => clock,
      maxRetries,
    };
    return {
      client: new ApiClient({
        ...common,
        credentials: new PartnerCredentials(new ApiClient(common), "c9", () => clock),
      }),
      sent,
    };
  }
  const MINT = "POST /api/v1/partner/subjects/c9/token";
  const GET = "GET /api/v1/me";

  it("is minted afresh again, as a retry, until one arrives in its life", async () => {
    const { client, sent } = slowServer(2, 3);
    await expect(client.get("/me")).resolves.toEqual({ id: 1 });
    expect(sent).toEqual([MINT, GET, MINT, GET, MINT, GET]);
    expect(client.stats().retries).toBe(1);
  });

  it("stops after the client's retries", async () => {
    const { client, sent } = slowServer(Number.POSITIVE_INFINITY, 2);
    await expect(client.get("/me")).rejects.toBeInstanceOf(UnauthorizedError);
    // One fresh credential free, then two retries.
    expect(sent).toEqual([MINT, GET, MINT, GET, MINT, GET, MINT, GET]);
  });
});
