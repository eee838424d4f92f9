// A worker's /metrics, scraped over HTTP and read as Prometheus reads its text format.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../fleet/src/customers";
import { FleetMetrics, parseMetricsPort, serveMetrics, type FleetSnapshot } from "../../fleet/src/metrics";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The text exposition format (version 0.0.4): `# HELP` and `# TYPE` lines, and samples
 * `name{label="value",...} number`. Throws on a line that is none of these.
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE (\w+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP \w+ .+$/.test(line)) continue;
    const sample = /^(\w+)(?:\{(.*)\})? (-?[0-9.e+]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const m of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[m[1]!] = m[2]!.replace(/\\(.)/g, "$1");
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]!.replace("+Inf", "Infinity")) });
  }
  return { types, samples };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (s) =>
      s.name === name &&
      Object.entries(labels).every(([k, v]) => s.labels[k] === v) &&
      Object.keys(s.labels).length === Object.keys(labels).length,
  )?.value;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function serve(metrics: FleetMetrics, port = 0) {
  const served = await serveMetrics(metrics, port);
  closers.push(served.close);
  return served;
}

describe("the metrics of a worker", () => {
  it(
    "are served as Prometheus text at GET /metrics: jobs by operation and result, durations, 429s, and " +
      "the gauges read at scrape time",
    async () => {
      let snapshot: FleetSnapshot = {
        queueDepth: 7,
        driftedStacks: 2,
        latestRun: { id: "run-1", results: { succeeded: 5, failed: 1, running: 2 } },
      };
      let collected = 0;
      const metrics = new FleetMetrics(async () => {
        collected++;
        return snapshot;
      });
      metrics.jobFinished("up", "succeeded", 4.2);
      metrics.jobFinished("up", "succeeded", 95);
      metrics.jobFinished("up", "failed", 0.4);
      metrics.jobFinished("drift", "drifted", 2500);
      metrics.rateLimited(3);
      metrics.rateLimited(0);
      metrics.rateLimited(2);
      const { url } = await serve(metrics);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const { types, samples } = parsePrometheus(await res.text());
      expect(collected).toBe(1);
      expect(Object.fromEntries(types)).toEqual({
        nsp_fleet_jobs_total: "counter",
        nsp_fleet_stack_duration_seconds: "histogram",
        nsp_fleet_api_rate_limited_total: "counter",
        nsp_fleet_queue_depth: "gauge",
        nsp_fleet_drifted_stacks: "gauge",
        nsp_fleet_stacks: "gauge",
      });
      expect(value(samples, "nsp_fleet_jobs_total", { operation: "up", result: "succeeded" })).toBe(2);
      expect(value(samples, "nsp_fleet_jobs_total", { operation: "up", result: "failed" })).toBe(1);
      expect(value(samples, "nsp_fleet_jobs_total", { operation: "drift", result: "drifted" })).toBe(1);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_count", { operation: "up" })).toBe(3);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_sum", { operation: "up" })).toBeCloseTo(99.6);
      // Cumulative buckets: 0.4 s and 4.2 s by 5 s, all three by 120 s; the 42-minute drift only in +Inf.
      expect(value(samples, "nsp_fleet_stack_duration_seconds_bucket", { operation: "up", le: "1" })).toBe(1);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_bucket", { operation: "up", le: "5" })).toBe(2);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_bucket", { operation: "up", le: "120" })).toBe(3);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_bucket", { operation: "drift", le: "1800" })).toBe(0);
      expect(value(samples, "nsp_fleet_stack_duration_seconds_bucket", { operation: "drift", le: "+Inf" })).toBe(1);
      expect(value(samples, "nsp_fleet_api_rate_limited_total")).toBe(5);
      expect(value(samples, "nsp_fleet_queue_depth")).toBe(7);
      expect(value(samples, "nsp_fleet_drifted_stacks")).toBe(2);
      expect(value(samples, "nsp_fleet_stacks", { run: "latest", result: "succeeded" })).toBe(5);
      expect(value(samples, "nsp_fleet_stacks", { run: "latest", result: "running" })).toBe(2);

      // The next scrape reads the queue again; a result the latest run no longer has is gone.
      snapshot = { queueDepth: 0, driftedStacks: 0, latestRun: { id: "run-2", results: { succeeded: 8 } } };
      const again = parsePrometheus(await (await fetch(url)).text()).samples;
      expect(collected).toBe(2);
      expect(value(again, "nsp_fleet_queue_depth")).toBe(0);
      expect(value(again, "nsp_fleet_stacks", { run: "latest", result: "succeeded" })).toBe(8);
      expect(again.filter((s) => s.name === "nsp_fleet_stacks")).toHaveLength(1);
      expect(value(again, "nsp_fleet_jobs_total", { operation: "up", result: "succeeded" })).toBe(2);
    },
  );

  it("answer 404 off /metrics, and 503 with the reason when the queue's figures cannot be read", async () => {
    let fail = false;
    const metrics = new FleetMetrics(async () => {
      if (fail)
        throw new Error(
          "cannot reach the database (FLEET_DATABASE_URL=postgres://fleet:***@db:5432/fleet): ECONNREFUSED",
        );
      return { queueDepth: 0, driftedStacks: 0 };
    });
    const { url } = await serve(metrics);
    expect((await fetch(url.replace("/metrics", "/"))).status).toBe(404);
    expect((await fetch(url.replace("/metrics", "/metricsx"))).status).toBe(404);
    expect((await fetch(url, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${url}?x=1`)).status).toBe(200);
    fail = true;
    const res = await fetch(url);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/cannot read the queue's figures: cannot reach the database .*ECONNREFUSED/);
  });

  it("keep to their own registry: two workers' metrics in one process do not add up", async () => {
    const a = new FleetMetrics(async () => ({ queueDepth: 0, driftedStacks: 0 }));
    const b = new FleetMetrics(async () => ({ queueDepth: 0, driftedStacks: 0 }));
    a.jobFinished("up", "succeeded", 1);
    expect(
      value(parsePrometheus(await b.text()).samples, "nsp_fleet_jobs_total", { operation: "up", result: "succeeded" }),
    ).toBeUndefined();
    expect(
      value(parsePrometheus(await a.text()).samples, "nsp_fleet_jobs_total", { operation: "up", result: "succeeded" }),
    ).toBe(1);
  });

  it("refuse a port in use with an InputError naming the flag, the port and the host", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    closers.push(() => new Promise((resolve) => taken.close(() => resolve())));
    const metrics = new FleetMetrics(async () => ({ queueDepth: 0, driftedStacks: 0 }));
    const attempt = serveMetrics(metrics, port);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(`--metrics-port ${port}: port ${port} on 127.0.0.1 is in use (`);
  });

  it("parseMetricsPort takes 1 to 65535 and names the flag otherwise", () => {
    expect(parseMetricsPort("9464")).toBe(9464);
    for (const bad of ["0", "65536", "-1", "94a", ""])
      expect(() => parseMetricsPort(bad)).toThrow(`--metrics-port: "${bad}" must be a port number from 1 to 65535`);
  });
});
