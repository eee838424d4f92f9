// Security rules: country, AS, address or ISP lists that block, allow, challenge or rate-limit
// requests to one edge site or to every site of a zone. Only `enabled` can change afterwards.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { collection } from "../model/collection";
import { pagingQuery } from "../model/paging";
import { RULE_ACTIONS, RULE_OPS, type RuleRow, cdnFor, ruleView } from "../cdn/state";
import { RULE_FIELDS, ruleValueProblem } from "../cdn/rule-values";
import { intBetween, optText, queryInt } from "../pipeline/validation";

const SEQ_MAX = 1_000_000;
const SEQ_STEP = 10;

const createBody = z.strictObject({
  site_id: z.int().optional(),
  zone_id: z.int().optional(),
  field: z.enum(RULE_FIELDS),
  op: z.enum(RULE_OPS),
  value: z.string(),
  action: z.enum(RULE_ACTIONS),
  seq: intBetween(0, SEQ_MAX).optional(),
  note: optText(),
});

export const securityRuleRoutes = collection({
  path: "/security/rules",
  what: "security rule",
  table: (ctx) => cdnFor(ctx).rules,
  view: ruleView,
  list: {
    query: z.strictObject({ ...pagingQuery, site_id: queryInt(1).optional(), zone_id: queryInt(1).optional() }),
    rows: (ctx) => {
      const { query } = ctx;
      let rules = ctx.store.list(cdnFor(ctx).rules, ctx.account.name);
      if (query.site_id !== undefined) rules = rules.filter((r) => r.site_id === query.site_id);
      if (query.zone_id !== undefined) rules = rules.filter((r) => r.zone_id === query.zone_id);
      return rules;
    },
  },
  create: {
    body: createBody,
    build: (ctx): RuleRow => {
      const { store, account, body } = ctx;
      const st = cdnFor(ctx);
      if ((body.site_id === undefined) === (body.zone_id === undefined)) {
        throw invalid(
          body.site_id === undefined ? "site_id" : "zone_id",
          "give exactly one of site_id or zone_id; a rule belongs to one site or one whole zone",
        );
      }
      // Like service_id on zones: another account's object reads exactly like a missing one.
      if (body.site_id !== undefined) {
        const site = st.sites.get(body.site_id);
        if (!site || site.account !== account.name) throw invalid("site_id", `no site ${body.site_id} in this account`);
      }
      if (body.zone_id !== undefined) {
        const zone = store.zones.get(body.zone_id);
        if (!zone || zone.account !== account.name) throw invalid("zone_id", `no zone ${body.zone_id} in this account`);
      }
      const value = body.value.trim();
      const problem = ruleValueProblem(body.field, value);
      if (problem) throw invalid("value", problem);
      const siteId = body.site_id ?? null;
      const zoneId = body.zone_id ?? null;
      const siblings = store.list(st.rules, account.name).filter((r) => r.site_id === siteId && r.zone_id === zoneId);
      return {
        id: store.nextId(),
        account: account.name,
        site_id: siteId,
        zone_id: zoneId,
        field: body.field,
        op: body.op,
        value,
        action: body.action,
        seq: body.seq ?? Math.min(SEQ_MAX, Math.max(0, ...siblings.map((r) => r.seq)) + SEQ_STEP),
        note: body.note ?? null,
        enabled: true,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  patch: {
    body: z.strictObject({ enabled: z.boolean() }),
    apply: (ctx, rule) => void (rule.enabled = ctx.body.enabled),
  },
  remove: true,
}).routes;
