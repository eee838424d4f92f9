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
    });
    expect(h.emu.app.stats()).toEqual(s);
    expect((await h.control("POST", "/_emulator/stats/reset")).status).toBe(204);
    expect(h.emu.app.stats().total).toBe(0);
  });

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
