// The test's own API client waits out a 429 the way a user's script would: it sleeps the
// Retry-After the emulator names, then sends again, a bounded number of times. The emulator's
// clock and the client's sleep are one injected clock, so nothing here waits on real time.
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/src/process/server";
import { EmulatorControl } from "../helpers/emulator-control";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** An emulator allowing 2 requests a minute, on a clock that only `sleep` moves. */
async function limited(options: { rateLimitRetries?: number; sleepMovesClock: boolean }) {
  let clock = 1_700_000_000_000;
  const slept: number[] = [];
  emulator = await startEmulator({ rateLimitPerMinute: 2, now: () => clock });
  const api = new EmulatorControl(emulator.baseUrl, emulator.token, {
    rateLimitRetries: options.rateLimitRetries,
    sleep: async (ms) => {
      slept.push(ms);
      if (options.sleepMovesClock) clock += ms;
    },
  });
  return { api, slept };
}

describe("EmulatorControl.api on a 429", () => {
  it("sleeps the Retry-After the emulator names and then succeeds", async () => {
    const { api, slept } = await limited({ sleepMovesClock: true });
    await api.get("/me");
    await api.get("/me");
    expect(await api.get("/me")).toMatchObject({ name: "demo" });
    expect(slept).toEqual([30_000]); // one token of 2/min is back after 30 s
    expect(await api.stats()).toMatchObject({ total: 4, rateLimited: 1 });
  });

  it("gives up after the bounded number of retries, naming the 429", async () => {
    const { api, slept } = await limited({ rateLimitRetries: 2, sleepMovesClock: false });
    await api.get("/me");
    await api.get("/me");
    await expect(api.post("/dns/zones", { name: "x.example" })).rejects.toThrow(
      /^POST \/dns\/zones: 429 .*rate_limited/,
    );
    expect(slept).toEqual([30_000, 30_000]);
    expect(await api.stats()).toMatchObject({ total: 5, rateLimited: 3, byMethod: { GET: 2, POST: 3 } });
  });
});
