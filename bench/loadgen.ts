// P6's load generator, one process of several: keeps `connections` GETs in flight on an undici
// Pool for warmup + duration, and reports what it completed during the measured window.
// Usage: node loadgen.js <origin> <path> <token|-> <connections> <warmupMs> <durationMs>
import { Pool } from "undici";

async function main(): Promise<void> {
  const [origin, path, token, connArg, warmupArg, durationArg] = process.argv.slice(2);
  const connections = Number(connArg);
  const warmupMs = Number(warmupArg);
  const durationMs = Number(durationArg);
  const pool = new Pool(origin!, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const headers: Record<string, string> = token && token !== "-" ? { authorization: `Bearer ${token}` } : {};
  const t0 = performance.now();
  const measureFrom = t0 + warmupMs;
  const end = measureFrom + durationMs;
  let ok = 0;
  let bad = 0;
  let errors = 0;
  let firstProblem = "";
  let cpuAtStart = process.cpuUsage();
  let measuring = false;
  const loop = async () => {
    for (;;) {
      const now = performance.now();
      if (now >= end) return;
      if (!measuring && now >= measureFrom) {
        measuring = true;
        cpuAtStart = process.cpuUsage();
      }
      const counted = measuring;
      try {
        const res = await pool.request({ origin, path: path!, method: "GET", headers });
        await res.body.dump();
        if (!counted || performance.now() > end) continue;
        if (res.statusCode === 200) ok++;
        else {
          bad++;
          firstProblem ||= `status ${res.statusCode}`;
        }
      } catch (e) {
        if (counted) errors++;
        firstProblem ||= String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const cpu = process.cpuUsage(cpuAtStart);
  await pool.close();
  process.stdout.write(
    `${JSON.stringify({ ok, bad, errors, firstProblem, cpuMs: (cpu.user + cpu.system) / 1000, durationMs })}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`loadgen: ${String(e)}\n`);
  process.exit(1);
});
