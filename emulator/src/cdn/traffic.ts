// Request logs of edge sites and the aggregates computed from them (analytics, threats, WAF
// hits). The emulator proxies no real traffic: tests put requests in with `addTraffic`, and every
// entry counts both as an exact counter and as a sampled log line.
import { randomBytes } from "node:crypto";
import type { Store } from "../model/store";
import { type TrafficEntry, cdnState } from "./state";

export type TrafficInput = Partial<Omit<TrafficEntry, "seq" | "host">>;

/** How many entries a site keeps; older ones fall off as on a real sampled log. */
const TRAFFIC_KEEP = 100_000;
let seqCounter = 0;

/** Records requests against a site (in-process test hook); returns the stored entries. */
export function addTraffic(store: Store, siteId: number, inputs: TrafficInput[]): TrafficEntry[] {
  const st = cdnState(store);
  const site = st.sites.get(siteId);
  if (!site) throw new Error(`no site ${siteId}`);
  const list = st.traffic.get(siteId) ?? [];
  st.traffic.set(siteId, list);
  const added = inputs.map((i): TrafficEntry => {
    const userAgent = i.user_agent ?? "Mozilla/5.0 (emulated)";
    return {
      seq: ++seqCounter,
      ray: i.ray ?? `${randomBytes(8).toString("hex")}-FRA`,
      ts: i.ts ?? store.timestamp(),
      ip: i.ip ?? "198.51.100.7",
      cc: (i.cc ?? "DE").toUpperCase(),
      asn: i.asn ?? 64500,
      isp: i.isp ?? "Example Networks",
      method: i.method ?? "GET",
      host: site.hostname,
      path: i.path ?? "/",
      status: i.status ?? 200,
      action: i.action ?? "pass",
      cache: i.cache ?? "miss",
      bytes: i.bytes ?? 1024,
      duration_ms: i.duration_ms ?? 40,
      risk: i.risk ?? 0,
      reason: i.reason ?? null,
      rule: i.rule ?? null,
      user_agent: userAgent,
      headers: i.headers ?? { host: site.hostname, "user-agent": userAgent, accept: "*/*" },
    };
  });
  list.push(...added);
  if (list.length > TRAFFIC_KEEP) list.splice(0, list.length - TRAFFIC_KEEP);
  return added;
}

export function trafficOf(store: Store, siteId: number): TrafficEntry[] {
  return cdnState(store).traffic.get(siteId) ?? [];
}

const RANGE_SECONDS = { "15m": 900, "1h": 3600, "24h": 86400, "7d": 604800 } as const;
export type RangeKey = keyof typeof RANGE_SECONDS;

interface Window {
  from: number;
  to: number;
  step: number;
}

function windowOf(range: RangeKey, step: number, nowMs: number): Window {
  return { from: nowMs - RANGE_SECONDS[range] * 1000, to: nowMs, step };
}

function inWindow(entries: TrafficEntry[], w: Window): TrafficEntry[] {
  return entries.filter((e) => {
    const t = Date.parse(e.ts);
    return t > w.from && t <= w.to;
  });
}

/** Buckets of `w.step` seconds, oldest first, each summed by `add`. */
function series<T extends object>(
  entries: TrafficEntry[],
  w: Window,
  zero: () => T,
  add: (b: T, e: TrafficEntry) => void,
) {
  const n = Math.round((w.to - w.from) / 1000 / w.step);
  const buckets = Array.from({ length: n }, (_, i) => ({
    t: new Date(w.from + i * w.step * 1000).toISOString(),
    ...zero(),
  }));
  for (const e of entries) {
    const i = Math.min(n - 1, Math.floor((Date.parse(e.ts) - w.from) / 1000 / w.step));
    const b = buckets[i];
    if (b) add(b as unknown as T, e);
  }
  return buckets;
}

function top<K extends string | number>(
  entries: TrafficEntry[],
  key: (e: TrafficEntry) => K | null,
  n = 10,
): Array<{ value: K; count: number }> {
  const counts = new Map<K, number>();
  for (const e of entries) {
    const k = key(e);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
    .slice(0, n)
    .map(([value, count]) => ({ value, count }));
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

const ANALYTICS_STEP: Record<"1h" | "24h" | "7d", number> = { "1h": 60, "24h": 300, "7d": 3600 };

export function analytics(entries: TrafficEntry[], siteId: number, range: "1h" | "24h" | "7d", nowMs: number) {
  const w = windowOf(range, ANALYTICS_STEP[range], nowMs);
  const rows = inWindow(entries, w);
  const statusClass = (s: number) => `${Math.floor(s / 100)}xx`;
  const durations = rows.map((e) => e.duration_ms).sort((a, b) => a - b);
  return {
    site_id: siteId,
    range,
    from: new Date(w.from).toISOString(),
    to: new Date(w.to).toISOString(),
    step_seconds: w.step,
    totals: {
      requests: rows.length,
      cached: rows.filter((e) => e.cache === "hit").length,
      bytes: rows.reduce((s, e) => s + e.bytes, 0),
      blocked: rows.filter((e) => !["pass", "redirect", "origin_error"].includes(e.action)).length,
      status: Object.fromEntries(
        ["2xx", "3xx", "4xx", "5xx"].map((c) => [c, rows.filter((e) => statusClass(e.status) === c).length]),
      ),
    },
    series: series(
      rows,
      w,
      () => ({ requests: 0, cached: 0, bytes: 0 }),
      (b, e) => {
        b.requests++;
        if (e.cache === "hit") b.cached++;
        b.bytes += e.bytes;
      },
    ),
    top: {
      paths: top(rows, (e) => e.path),
      countries: top(rows, (e) => e.cc),
      statuses: top(rows, (e) => e.status),
    },
    latency_ms: { p50: percentile(durations, 50), p95: percentile(durations, 95), p99: percentile(durations, 99) },
  };
}

function band(risk: number): "low" | "medium" | "high" {
  return risk < 30 ? "low" : risk < 70 ? "medium" : "high";
}

export function threats(entries: TrafficEntry[], siteId: number, range: "24h" | "7d", nowMs: number) {
  const w = windowOf(range, range === "24h" ? 3600 : 21600, nowMs);
  const rows = inWindow(entries, w);
  const share = (b: string) => (rows.length === 0 ? 0 : rows.filter((e) => band(e.risk) === b).length / rows.length);
  return {
    site_id: siteId,
    range,
    requests: rows.length,
    bands: { low: share("low"), medium: share("medium"), high: share("high") },
    top_asns: top(rows, (e) => e.asn),
    top_countries: top(rows, (e) => e.cc),
    top_reasons: top(rows, (e) => e.reason),
    timeline: series(
      rows,
      w,
      () => ({ low: 0, medium: 0, high: 0 }),
      (b, e) => {
        b[band(e.risk)]++;
      },
    ),
  };
}

export function wafHits(entries: TrafficEntry[], siteId: number, range: RangeKey, nowMs: number) {
  const rows = inWindow(entries, windowOf(range, 60, nowMs)).filter((e) => e.action === "waf" && e.rule !== null);
  const byRule = new Map<string, { rule: string; hits: number; example_path: string; last_at: string }>();
  for (const e of rows) {
    const hit = byRule.get(e.rule as string) ?? {
      rule: e.rule as string,
      hits: 0,
      example_path: e.path,
      last_at: e.ts,
    };
    hit.hits++;
    if (e.ts >= hit.last_at) {
      hit.last_at = e.ts;
      hit.example_path = e.path;
    }
    byRule.set(hit.rule, hit);
  }
  return {
    site_id: siteId,
    range,
    rules: [...byRule.values()].sort((a, b) => b.hits - a.hits || a.rule.localeCompare(b.rule)),
  };
}

export function logLine(e: TrafficEntry) {
  const { seq: _seq, headers: _headers, ...line } = e;
  return line;
}

export function logDetail(e: TrafficEntry) {
  const { seq: _seq, ...detail } = e;
  return { ...detail, headers: { ...e.headers } };
}

const CSV_COLUMNS = [
  "ray",
  "ts",
  "ip",
  "cc",
  "asn",
  "isp",
  "method",
  "host",
  "path",
  "status",
  "action",
  "cache",
  "bytes",
  "duration_ms",
  "risk",
  "reason",
  "rule",
  "user_agent",
] as const;

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(entries: TrafficEntry[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const e of entries) lines.push(CSV_COLUMNS.map((c) => csvCell(e[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
