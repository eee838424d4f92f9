import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, createZone, startHarness } from "../helpers/emulator-http";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimitPerMinute: 4, now: () => 1_700_000_000_000 }); // a frozen clock: the bucket never refills mid-test
});
afterAll(() => h.emu.close());

describe("request stats", () => {
  it("counts by method, route pattern and status; mutating and 429s; the control API is not counted", async () => {
    await h.control("POST", "/_emulator/stats/reset");
    const z = await createZone(h.api, "counted.example"); // GET /services + POST /dns/zones
    await h.api("GET", `/dns/zones/${z.id}`);
    await h.api("GET", "/nowhere");
    await h.api("GET", "/me"); // 5th request of 4/min: 429
    const s = (await h.control("GET", "/_emulator/stats")).body;
    expect(s).toEqual({
      total: 5,
      mutating: 1,
      rateLimited: 1,
      byMethod: { GET: 4, POST: 1 },
      byRoute: {
        "GET /services": 1,
        "POST /dns/zones": 1,
        "GET /dns/zones/:id": 1,
        "GET (no route)": 1,
        "GET /me": 1,
      },
      byStatus: { "200": 2, "201": 1, "404": 1, "429": 1 },
      faults: {},
      byToken: {
        "account:demo": {
          total: 5,
          rateLimited: 1,
          byRoute: {
            "GET /services": 1,
            "POST /dns/zones": 1,
            "GET /dns/zones/:id": 1,
            "GET (no route)": 1,
            "GET /me": 1,
          },
          byStatus: { "200": 2, "201": 1, "404": 1, "429": 1 },
        },
      },
    });
    expect(h.emu.app.stats()).toEqual(s);
    expect((await h.control("POST", "/_emulator/stats/reset")).status).toBe(204);
    expect(h.emu.app.stats().total).toBe(0);
  });

  it(
    "counts per token, named without the token: an account's tokens, the credentials minted for each " +
      "customer, none and unknown",
    async () => {
      const p = await startHarness({
        accounts: [{ name: "msp" }],
        rateLimitPerMinute: 3,
        now: () => 1_700_000_000_000,
      });
      try {
        const partner = p.emu.app.accounts[0]!.token;
        const second = p.emu.app.addAccount({ name: "msp", scope: "read" }).token;
        expect((await p.api("POST", "/partner/subjects", { external_ref: "acme" })).status).toBe(201);
        const mint = async () =>
          (await p.api("POST", "/partner/subjects/acme/token", { scope: "read" })).body.token as string;
        const [first, renewed] = [await mint(), await mint()];
        // Two credentials of one customer: one name, as they share one quota.
        await p.api("GET", "/services", undefined, { token: first });
        await p.api("GET", "/dns/zones", undefined, { token: renewed });
        await p.api("GET", "/me", undefined, { token: second });
        await p.api("GET", "/me"); // the partner's 4th request of 3 a minute: 429
        await p.api("GET", "/me", undefined, { token: null });
        await p.api("GET", "/me", undefined, { token: `svc_${"0".repeat(32)}` });
        // Revoked, a token keeps its name: what it still sends is counted under it, refused.
        expect((await p.control("POST", "/_emulator/tokens/revoke", { token: partner })).status).toBe(204);
        expect((await p.api("GET", "/me")).status).toBe(401);
        expect((await p.control("POST", "/_emulator/tokens/revoke", { token: partner })).status).toBe(404);

        const s = (await p.control("GET", "/_emulator/stats")).body;
        expect(s.byToken).toEqual({
          "account:msp": {
            total: 5,
            rateLimited: 1,
            byRoute: { "POST /partner/subjects": 1, "POST /partner/subjects/{ref}/token": 2, "GET /me": 2 },
            byStatus: { "201": 3, "429": 1, "401": 1 },
          },
          "account:msp#2": { total: 1, rateLimited: 0, byRoute: { "GET /me": 1 }, byStatus: { "200": 1 } },
          "minted:msp/acme": {
            total: 2,
            rateLimited: 0,
            byRoute: { "GET /services": 1, "GET /dns/zones": 1 },
            byStatus: { "200": 2 },
          },
          none: { total: 1, rateLimited: 0, byRoute: { "GET /me": 1 }, byStatus: { "401": 1 } },
          unknown: { total: 1, rateLimited: 0, byRoute: { "GET /me": 1 }, byStatus: { "401": 1 } },
        });
        expect(s.total).toBe(10);
        expect(JSON.stringify(s)).not.toMatch(/svc_/);
        // A minted credential revoked there is refused and listed as revoked; the customer's other one still works.
        expect((await p.control("POST", "/_emulator/tokens/revoke", { token: first })).status).toBe(204);
        await p.control("POST", "/_emulator/rate-limit/reset");
        const listed = (await p.control("GET", "/_emulator/partner/credentials")).body.data as {
          token: string;
          revoked: boolean;
        }[];
        expect(listed.map((c) => [c.token === first, c.revoked])).toEqual([
          [true, true],
          [false, false],
        ]);
        expect((await p.api("GET", "/services", undefined, { token: first })).status).toBe(401);
        expect((await p.api("GET", "/services", undefined, { token: renewed })).status).toBe(200);
      } finally {
        await p.emu.close();
      }
    },
  );

  it("answers unknown control paths and methods like the API does", async () => {
    const r = await h.control("GET", "/_emulator/nope");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
    const m = await h.control("DELETE", "/_emulator/stats");
    expect(m.status).toBe(405);
    expect(m.headers.get("allow")).toBe("GET");
    expect(m.headers.get("x-service-api-version")).toBe("1");
  });
});
