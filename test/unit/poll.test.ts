// pollUntil on an injected clock: how many checks a wait makes, and when, whatever the machine.
import { describe, expect, it } from "vitest";
import { pollUntil } from "../../provider/src/framework/api/poll";

function clock() {
  const c = { t: 0, sleeps: [] as number[] };
  return {
    c,
    now: () => c.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      c.sleeps.push(ms);
      c.t += ms;
    },
  };
}

describe("pollUntil", () => {
  it("checks every interval and once more on the deadline, then reports how many checks it made", async () => {
    const { c, now, sleep } = clock();
    const checkedAt: number[] = [];
    const err = await pollUntil({
      check: async () => checkedAt.push(now()),
      done: () => false,
      timeoutSeconds: 1,
      intervalSeconds: 0.3,
      signal: new AbortController().signal,
      timedOut: (_r, checks) => new Error(`${checks} checks`),
      sleep,
      now,
    }).catch((e: Error) => e);
    expect(checkedAt).toEqual([0, 300, 600, 900, 1000]);
    expect(c.sleeps).toEqual([300, 300, 300, 100]);
    expect((err as Error).message).toBe("5 checks");
  });

  it("stops at the first check that is done, and at a cancel during a wait", async () => {
    const { now, sleep } = clock();
    let n = 0;
    const base = { timeoutSeconds: 60, intervalSeconds: 1, timedOut: () => new Error("timed out"), sleep, now };
    expect(
      await pollUntil({ ...base, check: async () => ++n, done: (r) => r === 3, signal: new AbortController().signal }),
    ).toBe(3);
    const ctrl = new AbortController();
    const cancelled = pollUntil({
      ...base,
      check: async () => ctrl.abort(new Error("the operation was cancelled")),
      done: () => false,
      signal: ctrl.signal,
    });
    await expect(cancelled).rejects.toThrow(/cancelled/);
  });
});
