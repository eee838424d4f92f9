// Shared pieces of the benchmark: a spawned emulator (its own process, so its CPU is not the
// harness's), bounded concurrency, /proc readings, and the result rows.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { EmulatorControl } from "../test/helpers/emulator-control";
import { ROOT } from "../test/helpers/plugin";

export { ROOT };

/** One line of the final table. */
export interface Figure {
  name: string;
  measured: string;
  baseline: string;
  ratio: string;
  goal: string;
  /** undefined: no goal could be judged (a part that is not available, ...). */
  met: boolean | undefined;
  notes?: string[];
}

export interface PartResult {
  figures: Figure[];
  notes: string[];
}

export const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

export function loadText(): string {
  const [a, b, c] = loadavg().map((x) => x.toFixed(2));
  return `load average ${a}, ${b}, ${c} on ${cpus().length} CPUs`;
}

export interface SpawnedEmulator {
  baseUrl: string;
  token: string;
  pid: number;
  control: EmulatorControl;
  /** A second token of the same account, with its own rate-limit bucket, for setup and checks. */
  setupControl: EmulatorControl;
  serviceId: number;
  stop(): Promise<void>;
}

const TOKEN = `svc_${"be7c".repeat(8)}`;
const SETUP_TOKEN = `svc_${"5e7a".repeat(8)}`;

/** Starts `node dist/emulator.js --rate-limit N` and reads its ready line. */
export async function spawnEmulator(rateLimit: number): Promise<SpawnedEmulator> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "dist", "emulator.js"), "--rate-limit", String(rateLimit), "--account", `demo=${TOKEN}`],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ baseUrl: string }>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${err}`)), 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(JSON.parse(out.split("\n")[0]!) as { baseUrl: string });
      }
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${err}`)));
  });
  const control = new EmulatorControl(ready.baseUrl, TOKEN);
  await controlPost(ready.baseUrl, "/accounts", { name: "demo", token: SETUP_TOKEN, scope: "write" });
  const setupControl = new EmulatorControl(ready.baseUrl, SETUP_TOKEN);
  const serviceId = (await setupControl.services()).find((s) => s.type === "auth_dns")!.id;
  await resetRateLimit(ready.baseUrl);
  await control.resetStats();
  return {
    baseUrl: ready.baseUrl,
    token: TOKEN,
    pid: child.pid!,
    control,
    setupControl,
    serviceId,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A POST to the emulator's control API (outside /api/v1: not rate-limited, not counted). */
async function controlPost(baseUrl: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${baseUrl.replace(/\/api\/v1\/?$/, "")}/_emulator${path}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /_emulator${path}: ${res.status} ${await res.text()}`);
}

/** Refills every rate-limit bucket of the emulator. */
export const resetRateLimit = (baseUrl: string) => controlPost(baseUrl, "/rate-limit/reset");

/** Runs `fn` over `items` with at most `limit` in flight; every result or error, in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await fn(items[i]!, i) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function errorText(e: unknown): string {
  if (e && typeof e === "object") {
    const o = e as { details?: string; message?: string };
    return o.details || o.message || String(e);
  }
  return String(e);
}

/** A field of /proc/<pid>/status in kB (VmHWM, VmRSS). */
export function procStatusKb(pid: number, field: string): number {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m"));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** Pids of this process's children whose command line contains `needle`. */
export function childPids(needle: string): Set<number> {
  const found = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) found.add(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export const ms = (n: number) => `${n.toFixed(0)} ms`;
export const sec = (n: number) => `${(n / 1000).toFixed(1)} s`;
export const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
export const x = (r: number) => (r >= 100 ? `${r.toFixed(0)}×` : r >= 10 ? `${r.toFixed(1)}×` : `${r.toFixed(2)}×`);

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function notAvailable(name: string, why: string): Figure {
  return { name, measured: "not available yet", baseline: "-", ratio: "-", goal: "-", met: undefined, notes: [why] };
}

/** Machine-wide CPU counters from /proc/stat (jiffies): total and the part stolen by the hypervisor. */
export function cpuCounters(): { total: number; steal: number; idle: number } {
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith("cpu "))!;
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0, idle: (f[3] ?? 0) + (f[4] ?? 0) };
  } catch {
    return { total: 0, steal: 0, idle: 0 };
  }
}

/** "busy 80%, steal 35%" between two readings: how contended the machine was meanwhile. */
export function cpuText(a: ReturnType<typeof cpuCounters>, b: ReturnType<typeof cpuCounters>): string {
  const total = b.total - a.total;
  if (total <= 0) return "CPU use unknown";
  const pct = (n: number) => `${((n / total) * 100).toFixed(0)}%`;
  return `CPU busy ${pct(total - (b.idle - a.idle) - (b.steal - a.steal))}, idle ${pct(b.idle - a.idle)}, stolen by the host ${pct(b.steal - a.steal)}`;
}
