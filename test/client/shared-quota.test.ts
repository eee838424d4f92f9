import { describe, expect, it } from "vitest";
import { RateLimiter as ServerBucket } from "../../emulator/src/pipeline/rate-limit";
import { ApiClient, type QuotaPacing, RateLimiter } from "../../provider/src/client";
import { BASE, FakeClock, TOKEN, apiError, json } from "../helpers/scripted-client";

/** Deterministic stand-in for Math.random, one sequence per simulated process. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LATENCY_MS = 20;

/**
 * K processes, each its own ApiClient, sharing one token's bucket: the emulator's own bucket
 * (300 a minute), on one virtual clock. Each process creates `perProcess` objects with `inFlight`
 * at a time, as the engine does.
 */
async function shareOneToken(k: number, perProcess: number, pacing: QuotaPacing, inFlight = 10) {
  const clock = new FakeClock();
  const server = new ServerBucket(300, clock.now);
  let counted = 0;
  let rejected = 0;
  const fetch = async () => {
    await clock.sleep(LATENCY_MS);
    const { allowed, headers } = server.take(TOKEN);
    if (!allowed) {
      rejected++;
      return apiError(429, "rate_limited", "too many requests", headers);
    }
    counted++;
    return json(201, { id: counted }, headers);
  };
  const failures: unknown[] = [];
  await Promise.all(
    Array.from({ length: k }, async (_, p) => {
      const client = new ApiClient({
        baseUrl: BASE,
        token: TOKEN,
        fetch,
        sleep: clock.sleep,
        now: clock.now,
        random: seeded(p + 1),
        pacing,
      });
      let next = 0;
      const worker = async () => {
        while (next < perProcess) {
          next++;
          await client.post("/dns/zones/1/records", {}).catch((e: unknown) => failures.push(e));
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
    }),
  );
  // The bucket starts full: everything past its 300 comes at 5 a second.
  const floorMs = ((counted - 300) / 300) * 60_000;
  return { elapsedMs: clock.t, floorMs, counted, rejected, failures };
}

describe("one token shared by several processes", () => {
  it("4 processes × 150 creates: under 2% answered 429, nothing fails, within 15% of the floor", async () => {
    const run = await shareOneToken(4, 150, "shared");
    expect(run.failures).toEqual([]);
    expect(run.counted).toBe(600);
    expect(run.rejected / (run.counted + run.rejected)).toBeLessThan(0.02);
    expect(run.elapsedMs).toBeLessThanOrEqual(1.15 * run.floorMs);
  });

  it("the pacing before (local) collects far more 429s in the same run", async () => {
    const run = await shareOneToken(4, 150, "local");
    expect(run.rejected / (run.counted + run.rejected)).toBeGreaterThan(0.1);
  });

  it("a process alone is not slowed: as fast as the local pacing, 429-free", async () => {
    const shared = await shareOneToken(1, 600, "shared");
    const local = await shareOneToken(1, 600, "local");
    expect(shared.failures).toEqual([]);
    expect(shared.rejected).toBe(0);
    expect(shared.elapsedMs).toBeLessThanOrEqual(local.elapsedMs * 1.01);
  });
});

describe("RateLimiter with shared pacing", () => {
  /** Answers as a server bucket of `limit`/min would, when others spend `othersPerOwn` units for each of ours. */
  function observeDrain(
    rl: RateLimiter,
    clock: FakeClock,
    limit: number,
    start: number,
    n: number,
    othersPerOwn: number,
  ): number {
    let tokens = start;
    for (let i = 0; i < n; i++) {
      clock.t += 10;
      tokens = Math.min(limit, tokens + (10 * limit) / 60_000) - 1 - othersPerOwn;
      rl.observe({ limit, remaining: Math.floor(tokens) });
    }
    return Math.floor(tokens);
  }

  it("claims only its share of what Remaining says is left when others drain the bucket too", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 300, now: clock.now, sleep: clock.sleep });
    const remaining = observeDrain(rl, clock, 300, 300, 20, 3);
    expect(rl.share).toBeCloseTo(0.25, 1);
    // A quarter of what is left, less a reserve that keeps processes from colliding on the last unit.
    expect(rl.available()).toBeLessThan(remaining * 0.3);
    expect(rl.available()).toBeGreaterThan(remaining / 4 - 10);

    const local = new RateLimiter({ requestsPerMinute: 300, pacing: "local", now: clock.now, sleep: clock.sleep });
    observeDrain(local, clock, 300, 300, 20, 3);
    expect(local.available()).toBe(remaining);
  });

  it("alone, it claims all that remains and refills at the full rate", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 300, now: clock.now, sleep: clock.sleep });
    const remaining = observeDrain(rl, clock, 300, 300, 20, 0);
    expect(rl.share).toBe(1);
    // Refilled a little since the last answer.
    expect(rl.available()).toBeGreaterThanOrEqual(remaining);
    expect(rl.available()).toBeLessThan(remaining + 1);
  });

  it("takes back what others leave once they stop", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 300, now: clock.now, sleep: clock.sleep });
    observeDrain(rl, clock, 300, 300, 20, 3);
    expect(rl.available()).toBeLessThan(60);
    // The others are gone: the bucket refills at 5 a second and only this process spends it.
    let remaining = 220;
    for (let i = 0; i < 40; i++) {
      clock.t += 1_000;
      remaining = Math.min(300, remaining + 5) - 1;
      rl.observe({ limit: 300, remaining });
    }
    expect(rl.share).toBe(1);
    expect(rl.available()).toBe(remaining);
  });

  it("takes its share of the server's rate, within the configured budget", async () => {
    const clock = new FakeClock();
    const capped = new RateLimiter({ requestsPerMinute: 60, now: clock.now, sleep: clock.sleep });
    await capped.acquire();
    capped.observe({ limit: 600, remaining: 0 });
    // Alone on a 600/min token, but configured for 60/min: one a second.
    expect((await capped.acquire()).waitedMs).toBe(1_000);

    const half = new RateLimiter({ requestsPerMinute: 600, now: clock.now, sleep: clock.sleep });
    observeDrain(half, clock, 600, 100, 40, 1);
    expect(half.share).toBeCloseTo(0.5, 1);
    // Its share of what remains goes at once; then it refills at half of 600/min and a little
    // more, to probe: about 330/min, 180 ms a request.
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) waits.push((await half.acquire()).waitedMs);
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    const waited = waits.at(-1)!;
    expect(waited).toBeGreaterThan(150);
    expect(waited).toBeLessThan(250);
  });

  it("holds back the answers still on the wire, which Remaining may not count yet", async () => {
    const clock = new FakeClock();
    const rl = new RateLimiter({ requestsPerMinute: 300, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 5; i++) await rl.acquire();
    rl.observe({ limit: 300, remaining: 100 });
    expect(rl.available()).toBe(100 - 4);
  });

  it("spreads the end of a 429 pause at random, by at most a second", async () => {
    const ends = [0, 0.5, 0.999].map((r) => {
      const clock = new FakeClock();
      const rl = new RateLimiter({ requestsPerMinute: 300, now: clock.now, sleep: clock.sleep, random: () => r });
      rl.pauseUntil(3_000);
      return rl.acquire().then(() => clock.t);
    });
    expect(await Promise.all(ends)).toEqual([3_000, 3_500, 3_999]);
  });
});
