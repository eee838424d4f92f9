// Three plugin processes, as three stacks run at once, spend one token against the emulator's
// real rate limit: together they stay under it instead of each pacing as if it were alone.
import { expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";

const QUOTA = 600;
const PROCESSES = 3;
const RECORDS = 24;
/** Creates in flight per process: the engine's default parallelism on this machine. */
const IN_FLIGHT = 8;

const { emulator, control, anotherPlugin } = useProvider({ emulator: { rateLimitPerMinute: QUOTA }, plugin: false });

/** Spends the token's whole bucket, as other stacks keep a busy token's bucket empty. */
async function drainBucket(): Promise<void> {
  for (let i = 0; i < QUOTA; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${emulator.baseUrl}/me`, { headers: { authorization: `Bearer ${emulator.token}` } }).then((r) => r.arrayBuffer())),
    );
  }
}

it("three processes on one token: under 2% of their requests answered 429, nothing fails", async () => {
  const serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
  const plugins = await Promise.all(Array.from({ length: PROCESSES }, () => anotherPlugin({ requestsPerMinute: QUOTA })));
  await drainBucket();
  await control.resetStats();

  await Promise.all(
    plugins.map(async (plugin, p) => {
      const zoneInputs = (await plugin.check("nsp:dns:Zone", "zone", { serviceId, name: `shared-quota-${p}.example` })).inputs;
      const zone = await plugin.create("nsp:dns:Zone", "zone", zoneInputs);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < RECORDS; i = next++) {
          const { inputs } = await plugin.check("nsp:dns:Record", `r${i}`, { zoneId: zone.id, name: `host${i}`, type: "A", content: `10.9.${p}.${i + 1}` });
          await plugin.create("nsp:dns:Record", `r${i}`, inputs);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    }),
  );

  const stats = await control.stats();
  // Every create answered (create throws otherwise); a zone's create also reads a little.
  expect(stats.total - stats.rateLimited).toBeGreaterThanOrEqual(PROCESSES * (RECORDS + 1));
  // The pacing before shared pacing (NSP_QUOTA_PACING=local) had about one in nine answered 429 here.
  expect(stats.rateLimited / stats.total).toBeLessThan(0.02);
}, 60_000);
