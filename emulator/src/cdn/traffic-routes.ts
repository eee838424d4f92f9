// What an edge site saw: analytics, threats, WAF hits and the sampled request logs.
import { z } from "zod";
import { invalid, notFound } from "../pipeline/errors";
import { cdnSites } from "./sites-routes";
import { LOG_ACTIONS, type TrafficEntry } from "./state";
import { analytics, logDetail, logLine, threats, toCsv, trafficOf, wafHits } from "./traffic";
import { queryInt } from "../pipeline/validation";

const LOG_LIMIT_DEFAULT = 100;
const LOG_LIMIT_MAX = 1000;
const CSV_ROWS_MAX = 10_000;

const logsQuery = z.strictObject({
  since: z.string().optional(),
  until: z.string().optional(),
  ray: z.string().optional(),
  ip: z.string().optional(),
  path: z.string().optional(),
  status: z
    .string()
    .regex(/^([1-5]\d\d|[1-5]xx)$/, { error: "must be a status such as 404 or a class such as 4xx" })
    .optional(),
  cc: z.string().optional(),
  cursor: z.string().optional(),
  action: z.enum(LOG_ACTIONS).optional(),
  limit: queryInt(1).optional(),
  format: z.enum(["json", "csv"]).optional(),
});

function timeParam(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(t))
    throw invalid(name, "must be an RFC 3339 timestamp such as 2026-11-21T12:00:00Z");
  return t;
}

// A cursor names the last entry of the page before; newer entries arriving meanwhile do not shift it.
const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString("base64url");

function decodeCursor(c: string): number {
  const m = /^s(\d+)$/.exec(Buffer.from(c, "base64url").toString());
  if (!m) throw invalid("cursor", "is not a cursor returned by this endpoint");
  return Number(m[1]);
}

export const cdnTrafficRoutes = [
  cdnSites.member(
    "GET",
    "analytics",
    (site, ctx) => analytics(trafficOf(ctx.store, site.id), site.id, ctx.query.range ?? "24h", ctx.now()),
    {
      query: z.strictObject({ range: z.enum(["1h", "24h", "7d"]).optional() }),
    },
  ),

  cdnSites.member(
    "GET",
    "threats",
    (site, ctx) => threats(trafficOf(ctx.store, site.id), site.id, ctx.query.range ?? "24h", ctx.now()),
    {
      query: z.strictObject({ range: z.enum(["24h", "7d"]).optional() }),
    },
  ),

  cdnSites.member(
    "GET",
    "waf/hits",
    (site, ctx) => wafHits(trafficOf(ctx.store, site.id), site.id, ctx.query.range ?? "24h", ctx.now()),
    {
      query: z.strictObject({ range: z.enum(["15m", "1h", "24h", "7d"]).optional() }),
    },
  ),

  cdnSites.member(
    "GET",
    "logs",
    (site, ctx) => {
      const q = ctx.query;
      const since = timeParam("since", q.since);
      const until = timeParam("until", q.until);
      const csv = q.format === "csv";
      const max = csv ? CSV_ROWS_MAX : LOG_LIMIT_MAX;
      if (q.limit !== undefined && q.limit > max)
        throw invalid("limit", `must be at most ${max}${csv ? " for csv" : ""}`);
      const limit = q.limit ?? (csv ? CSV_ROWS_MAX : LOG_LIMIT_DEFAULT);
      const before = q.cursor === undefined ? Infinity : decodeCursor(q.cursor);
      const match = (e: TrafficEntry): boolean => {
        const t = Date.parse(e.ts);
        if (e.seq >= before) return false;
        if (since !== undefined && t < since) return false;
        if (until !== undefined && t > until) return false;
        if (q.ray !== undefined && e.ray !== q.ray) return false;
        if (q.ip !== undefined && e.ip !== q.ip) return false;
        if (q.path !== undefined && !e.path.startsWith(q.path)) return false;
        if (q.cc !== undefined && e.cc !== q.cc.toUpperCase()) return false;
        if (q.action !== undefined && e.action !== q.action) return false;
        if (q.status !== undefined) {
          const s = String(e.status);
          if (q.status.endsWith("xx") ? s[0] !== q.status[0] : s !== q.status) return false;
        }
        return true;
      };
      const rows: TrafficEntry[] = [];
      let more = false;
      const all = trafficOf(ctx.store, site.id);
      for (let i = all.length - 1; i >= 0; i--) {
        const e = all[i] as TrafficEntry;
        if (!match(e)) continue;
        if (rows.length === limit) {
          more = true;
          break;
        }
        rows.push(e);
      }
      const last = rows[rows.length - 1];
      const nextCursor = more && last ? encodeCursor(last.seq) : null;
      if (csv) return { format: "csv", rows: rows.length, next_cursor: nextCursor, text: toCsv(rows) };
      return { data: rows.map(logLine), next_cursor: nextCursor };
    },
    { query: logsQuery },
  ),

  cdnSites.member("GET", "logs/{ray}", (site, ctx) => {
    const entry = trafficOf(ctx.store, site.id).find((e) => e.ray === ctx.params.ray);
    if (!entry) throw notFound("request");
    return logDetail(entry);
  }),
];
