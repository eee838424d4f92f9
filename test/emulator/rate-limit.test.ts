import { afterAll, describe, expect, it } from "vitest";
import { buildApp, listen } from "../../emulator/src";
import { makeApi, startHarness } from "../helpers/emulator-http";

const A = "svc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B = "svc_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const FROZEN = 1_700_000_000_000;

describe("rate limit", () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it("counts down in the headers and answers the 6th request of 5/min with 429 and Retry-After", async () => {
    // A clock that stands still: no token refills between the requests, however long they take.
    const h = await startHarness({
      rateLimitPerMinute: 5,
      now: () => FROZEN,
      accounts: [
        { name: "a", token: A },
        { name: "b", token: B },
      ],
    });
    closers.push(() => h.emu.close());
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await h.api("GET", "/me");
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe("5");
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
      remaining.push(r.headers.get("x-ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const limited = await h.api("GET", "/me");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
    expect(limited.headers.get("x-service-api-version")).toBe("1");
    const retry = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBe(12);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    // buckets are per token
    const other = makeApi(h.emu.baseUrl, B);
    expect((await other("GET", "/me")).status).toBe(200);
    // 404s and errors spend the bucket too, and still carry the headers
    const r404 = await other("GET", "/nope");
    expect(r404.status).toBe(404);
    expect(r404.headers.get("x-ratelimit-remaining")).toBe("3");
    const stats = await h.control("GET", "/_emulator/stats");
    expect(stats.body.rateLimited).toBe(1);
  });

  it("throttles requests without a valid token by client address", async () => {
    const h = await startHarness({ rateLimitPerMinute: 3, now: () => FROZEN });
    closers.push(() => h.emu.close());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.api("GET", "/me", undefined, { token: null })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // the real token has its own bucket
    expect((await h.api("GET", "/me")).status).toBe(200);
  });

  it("refills continuously with time", async () => {
    let now = 1_700_000_000_000;
    const app = buildApp({ rateLimitPerMinute: 2, now: () => now, accounts: [{ name: "a", token: A }] });
    const srv = await listen(app);
    closers.push(() => srv.close());
    const api = makeApi(srv.baseUrl, A);
    expect((await api("GET", "/me")).status).toBe(200);
    expect((await api("GET", "/me")).status).toBe(200);
    const limited = await api("GET", "/me");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(limited.headers.get("x-ratelimit-reset")).toBe("60");
    now += 30_000;
    const again = await api("GET", "/me");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("can be switched off with 0, which also drops the headers", async () => {
    const h = await startHarness({ rateLimitPerMinute: 0 });
    closers.push(() => h.emu.close());
    for (let i = 0; i < 20; i++) expect((await h.api("GET", "/me")).status).toBe(200);
    expect((await h.api("GET", "/me")).headers.get("x-ratelimit-limit")).toBeNull();
  });
});
