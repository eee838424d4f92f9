import { describe, expect, it } from "vitest";
import { RateLimiter, type ApiClient } from "../../provider/src/client";
import { FakeClock, apiError, caught, json, makeClient } from "../helpers/scripted-client";
import { until } from "../helpers/until";

describe("RateLimiter", () => {
  it("serves a full bucket at once, then one request per refill interval", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 5, now: clock.now, sleep: clock.sleep });
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) waits.push((await rl.acquire()).waitedMs);
    expect(waits).toEqual([0, 0, 0, 0, 0, 12_000, 12_000]);
    expect(clock.t).toBe(24_000);
  });

  it("refills continuously, not per window", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 60, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 60; i++) await rl.acquire();
    clock.t += 2_500;
    expect(rl.available()).toBeCloseTo(2.5);
  });

  it("serves concurrent waiters first come, first served", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 2, now: clock.now, sleep: clock.sleep });
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        rl.acquire().then((r) => {
          order.push(i);
          return r;
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(clock.sleeps).toEqual([30_000, 30_000, 30_000]);
  });

  it("a server pause holds everyone and is reported as the reason", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 0, now: clock.now, sleep: clock.sleep, random: () => 0 });
    rl.pauseUntil(10_000);
    const r = await rl.acquire();
    expect(r).toEqual({ waitedMs: 10_000, reason: "server" });
  });

  it("after a pause lets exactly one request go, then refills from zero (no burst into another 429)", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 60, now: clock.now, sleep: clock.sleep, random: () => 0 });
    rl.pauseUntil(10_000);
    const served: number[] = [];
    await Promise.all([0, 1, 2].map(() => rl.acquire().then(() => served.push(clock.t))));
    expect(served).toEqual([10_000, 11_000, 12_000]);
  });

  it("never raises its tokens to the server's count, only lowers them", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 10, now: clock.now, sleep: clock.sleep });
    rl.observe({ remaining: 1000 });
    expect(rl.available()).toBe(10);
    rl.observe({ remaining: 3 });
    expect(rl.available()).toBe(3);
    rl.observe({});
    expect(rl.available()).toBe(3);
  });

  it("an aborted waiter leaves the queue and the others keep their places", async () => {
    const clock = new FakeClock();
    let release: (() => void) | undefined;
    const sleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        release = () => {
          clock.t += ms;
          resolve();
        };
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    const rl = new RateLimiter({ requestsPerMinute: 1, now: clock.now, sleep });
    await rl.acquire();
    const ctrl = new AbortController();
    const a = rl.acquire(ctrl.signal);
    const b = rl.acquire();
    ctrl.abort(new Error("gone"));
    await expect(a).rejects.toThrow("gone");
    release?.();
    await expect(b).resolves.toEqual({ waitedMs: 60_000, reason: "quota" });
  });
});

describe("client rate limiting", () => {
  it("6 sequential requests at 5/min: the 6th waits 12 s and the wait is logged", async () => {
    const { client, calls, logs } = makeClient([json(200, {})], { requestsPerMinute: 5 });
    for (let i = 0; i < 6; i++) await client.get(`/r/${i}`);
    expect(calls.map((c) => c.at)).toEqual([0, 0, 0, 0, 0, 12_000]);
    const info = logs.filter((l) => l.level === "info");
    expect(info).toHaveLength(1);
    expect(info[0]!.message).toBe(
      "GET /r/5 waited 12.0 s before sending: the client-side request quota of 5 requests per minute was used up",
    );
    expect(client.stats().throttledMs).toBe(12_000);
  });

  it("concurrent requests share one bucket, in order", async () => {
    const { client, calls } = makeClient([json(200, {})], { requestsPerMinute: 5 });
    await Promise.all(Array.from({ length: 7 }, (_, i) => client.get(`/r/${i}`)));
    expect(calls.map((c) => [c.path, c.at])).toEqual([
      ["/r/0", 0],
      ["/r/1", 0],
      ["/r/2", 0],
      ["/r/3", 0],
      ["/r/4", 0],
      ["/r/5", 12_000],
      ["/r/6", 24_000],
    ]);
  });

  it("lowers its bucket to the server's X-RateLimit-Remaining", async () => {
    const { client, calls } = makeClient(
      [
        json(200, {}, { "X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "60" }),
        json(200, {}, { "X-RateLimit-Remaining": "not-a-number" }),
      ],
      { requestsPerMinute: 60 },
    );
    await client.get("/a");
    await client.get("/b");
    await client.get("/c");
    // Remaining 0 leaves no tokens; at 60/min the next one comes after 1 s. The garbled header
    // on the second answer is ignored, and /c finds a token again 1 s later.
    expect(calls.map((c) => c.at)).toEqual([0, 1000, 2000]);
  });

  it("a server Remaining above its own count does not speed it up", async () => {
    const { client, calls } = makeClient([json(200, {}, { "X-RateLimit-Remaining": "299" })], { requestsPerMinute: 2 });
    for (let i = 0; i < 3; i++) await client.get("/x");
    expect(calls.map((c) => c.at)).toEqual([0, 0, 30_000]);
  });

  it("after a 429 every other request of the client pauses until Retry-After", async () => {
    const clock = new FakeClock();
    let second: Promise<unknown> | undefined;
    let self: ApiClient | undefined;
    const { client, calls } = makeClient([apiError(429, "rate_limited", "x", { "Retry-After": "10" }), json(200, {})], {
      clock,
      requestsPerMinute: 0,
      // Start another request at the moment the first one decides to retry.
      onLog: (level, message) => {
        if (level === "debug" && message.includes("retrying") && !second) second = self?.get("/other");
      },
    });
    self = client;
    await client.get("/first");
    expect(second).toBeDefined();
    await second;
    const other = calls.find((c) => c.path === "/other");
    expect(other).toBeDefined();
    expect(other!.at).toBeGreaterThanOrEqual(10_000);
    expect(client.stats().rateLimited).toBe(1);
  });

  it("requestsPerMinute 0 sends without waiting", async () => {
    const { client, calls, clock } = makeClient([json(200, {})], { requestsPerMinute: 0 });
    await Promise.all(Array.from({ length: 50 }, () => client.get("/x")));
    expect(calls).toHaveLength(50);
    expect(clock.sleeps).toEqual([]);
  });

  it("an abort while queued for the quota rejects and sends nothing", async () => {
    const clock = new FakeClock();
    let queued = false;
    const sleep = (_ms: number, signal?: AbortSignal) => {
      queued = true;
      return new Promise<void>((_, reject) =>
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
      );
    };
    const { client, calls } = makeClient([json(200, {})], { clock, sleep, requestsPerMinute: 1 });
    await client.get("/a");
    const ctrl = new AbortController();
    const p = client.get("/b", { signal: ctrl.signal });
    await until(() => queued);
    ctrl.abort(new Error("cancelled"));
    expect(((await caught(p)) as Error).message).toBe("cancelled");
    expect(calls).toHaveLength(1);
  });
});
