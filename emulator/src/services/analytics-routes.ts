// The read-only tools of a service: rule-test (what the custom rules would do to a name), the
// query log and the statistics. The emulator resolves no queries, so the log is empty and the
// counters are zero; the rules, however, are evaluated for real.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { paginate, pagingQuery } from "../model/paging";
import { route } from "../pipeline/route";
import { DEFAULT_FILTER, DEFAULT_POLICY, ownResolver, resolverTables } from "./state";
import { queryInt } from "../pipeline/validation";

const QTYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SRV", "PTR", "CAA", "HTTPS", "SVCB", "ANY"] as const;
const ACTIONS = ["pass", "blocked", "rewritten", "safesearch", "ratelimited"] as const;

/** `||example.com^` (the name and its subdomains), `@@` in front to allow, `|name|` exactly, or a bare name. */
function ruleMatches(rule: string, name: string): boolean {
  let r = rule.startsWith("@@") ? rule.slice(2) : rule;
  if (r.startsWith("|") && r.endsWith("|") && !r.startsWith("||")) return r.slice(1, -1).toLowerCase() === name;
  r = r.replace(/^\|\|/, "").replace(/\^$/, "").replace(/^\*\./, "").toLowerCase();
  return r !== "" && (name === r || name.endsWith(`.${r}`));
}

export const serviceAnalyticsRoutes = [
  route({
    method: "POST",
    path: "/services/:id/rule-test",
    scope: "read",
    body: z.strictObject({
      name: z.string().min(1).max(253),
      qtype: z.enum(QTYPES).optional(),
      rules: z.array(z.string().max(1000)).max(1000).optional(),
    }),
    handler: ({ store, account, params, body }) => {
      const s = ownResolver(store, params.id, account.name);
      const name = body.name.trim().toLowerCase().replace(/\.$/, "");
      if (!/^[a-z0-9_.-]+$/.test(name)) throw invalid("name", "must be a domain name");
      const t = resolverTables(store);
      const filter = t.filters.get(s.id) ?? DEFAULT_FILTER;
      // Without `rules`, the service's own custom rules, allow list and block list are tried.
      const rules = (
        body.rules ?? [
          ...(t.policies.get(s.id) ?? DEFAULT_POLICY).rules.split("\n"),
          ...filter.custom_allow.split("\n").map((d) => (d ? `@@||${d}^` : "")),
          ...filter.custom_block.split("\n").map((d) => (d ? `||${d}^` : "")),
        ]
      )
        .map((r) => r.trim())
        .filter((r) => r !== "" && !r.startsWith("!") && !r.startsWith("#"));
      const allow = rules.find((r) => r.startsWith("@@") && ruleMatches(r, name));
      if (allow) return { name, qtype: body.qtype ?? "A", action: "pass", matched: allow };
      if (body.rules === undefined) {
        const rw = filter.rewrites.split("\n").find((l) => l.split(" -> ")[0] === name);
        if (rw) return { name, qtype: body.qtype ?? "A", action: "rewritten", matched: rw };
      }
      const block = rules.find((r) => !r.startsWith("@@") && ruleMatches(r, name));
      return { name, qtype: body.qtype ?? "A", action: block ? "blocked" : "pass", matched: block ?? null };
    },
  }),

  route({
    method: "GET",
    path: "/services/:id/query-log",
    scope: "read",
    query: z.strictObject({
      q: z.string().max(253).optional(),
      action: z.enum(ACTIONS).optional(),
      limit: pagingQuery.limit,
    }),
    handler: ({ store, account, params, query }) => {
      ownResolver(store, params.id, account.name);
      return paginate([], { limit: query.limit });
    },
  }),

  route({
    method: "GET",
    path: "/services/:id/stats",
    scope: "read",
    query: z.strictObject({ days: queryInt(1, 90).optional() }),
    handler: ({ store, account, params, query }) => {
      const s = store.owned(store.services, params.id, account.name, "service");
      const days = query.days ?? 7;
      const today = Date.UTC(
        new Date(store.now()).getUTCFullYear(),
        new Date(store.now()).getUTCMonth(),
        new Date(store.now()).getUTCDate(),
      );
      const byDay = Array.from({ length: days }, (_, i) => ({
        date: new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
        queries: 0,
        blocked: 0,
      }));
      return { service_id: s.id, days, queries: 0, blocked: 0, by_day: byDay };
    },
  }),
];
