import { z } from "zod";
import { ownIdOf } from "../../framework/api/ids";
import type { CheckFailure } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { collection, apiId, sameContent } from "../../framework/api/shapes/collection";
import { RULE_FIELDS, ruleValueProblem } from "./values";

const TOKEN = "nsp:security:Rule";

// The API patches nothing but `enabled`: every other input is sent on create and replaces the rule.
const fixed = { create: true, replace: true } as const;

const ruleArgs = z.object({
  siteId: idRef("Id of the edge site the rule applies to. Exactly one of `siteId` and `zoneId`.")
    .optional()
    .meta({ ...fixed, key: true }),
  zoneId: idRef("Id of the zone whose every edge site the rule applies to. Exactly one of `siteId` and `zoneId`.")
    .optional()
    .meta({ ...fixed, key: true }),
  field: z.enum(RULE_FIELDS).meta({
    key: true,
    description: "What of the request is matched: its `country`, `asn`, `ip` address or `isp`.",
    ...fixed,
  }),
  op: z.enum(["in", "not_in"]).meta({
    key: true,
    description: "Whether the rule matches requests whose field is `in` the value's list or `not_in` it.",
    ...fixed,
  }),
  value: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .meta({
      key: true,
      description:
        "Comma-separated list the field is matched against: ISO 3166-1 alpha-2 country codes (`DE,FR`), AS " +
        "numbers (`64500` or `AS64500`), IP addresses and CIDR prefixes (`192.0.2.0/24`, host bits zero), or " +
        "ISP names.",
      ...fixed,
    }),
  action: z
    .enum(["block", "allow", "challenge", "ratelimit"])
    .meta({ key: true, description: "What happens to a matching request.", ...fixed }),
  seq: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({
      description:
        "Evaluation order among the rules of the site or zone, lowest first; the API picks the next free one when unset.",
      ...fixed,
    }),
  note: z
    .string()
    .optional()
    .meta({ description: "Free-text note.", ...fixed }),
  // The create body has no enabled; a disabled rule takes a patch.
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the rule is applied. The only setting that changes in place.", patch: true }),
});

const ruleState = z.object({
  createdAt: z.string().meta({ description: "When the rule was created." }),
});

const rules = collection({
  token: TOKEN,
  path: "/security/rules",
  args: ruleArgs,
  state: ruleState,
  idOnWire: z.number().int(),
  id: apiId(ruleIdOf),
});

function ruleIdOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "security rule", form: "<ruleId>" });
}

export const rule = rules.resource({
  since: "0.1.0",
  list: {
    filters: { siteId: "query", zoneId: "query" },
    label: (r) =>
      `${r.site_id != null ? `site${String(r.site_id)}` : `zone${String(r.zone_id)}`}-${[r.field, r.op, r.value, r.action].filter((v) => v != null && v !== "").join("-")}`,
    zoneOf: (r, _p, find) => r.zone_id ?? find("nsp:cdn:Site", r.site_id)?.zone_id,
    zoneVia: "nsp:cdn:Site",
  },
  description:
    "A security rule: requests to one edge site, or to every site of a zone, whose country, AS, address " +
    "or ISP is (or is not) in a list are blocked, allowed, challenged or rate-limited. Only `enabled` " +
    "changes in place; any other change replaces the rule.",
  importId: "<ruleId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.siteId === undefined && args.zoneId === undefined)
      failures.push({
        property: "siteId",
        reason: "set exactly one of siteId or zoneId: a rule belongs to one site or one whole zone",
      });
    if (args.siteId !== undefined && args.zoneId !== undefined)
      failures.push({ property: "zoneId", reason: "set exactly one of siteId or zoneId, not both" });
    const problem = ruleValueProblem(args.field, args.value);
    if (problem) failures.push({ property: "value", reason: `${problem} (field ${args.field})` });
    return failures;
  },

  async create(ctx, args) {
    const scope = args.siteId !== undefined ? { site_id: Number(args.siteId) } : { zone_id: Number(args.zoneId) };
    // A rule is what it matches and does, within its site or zone. The API accepts a second,
    // identical rule, so the site's or zone's rules are checked first.
    const created = await rules.create(
      ctx,
      `rule ${args.field} ${args.op} ${args.value}`,
      args,
      sameContent({
        query: scope,
        content: (r) =>
          r.field === args.field && r.op === args.op && r.value === args.value && r.action === args.action,
        checkFirst: true,
      }),
    );
    if (args.enabled) return created;
    // If disabling fails, the engine keeps the (enabled) rule and the next up disables it.
    ctx.progress(created.id, created.state);
    return { id: created.id, state: await rules.update(ctx, created.id, args, created.state, ["enabled"]) };
  },

  // The API has no single-rule GET: the rule is found in the list, filtered by its site or zone when known.
  async read(ctx, id, prior) {
    const ruleId = ruleIdOf(id);
    const query: Record<string, string> | undefined =
      prior.siteId !== undefined
        ? { site_id: prior.siteId }
        : prior.zoneId !== undefined
          ? { zone_id: prior.zoneId }
          : undefined;
    const found = (await rules.list(ctx, query)).find((r) => String(r.id) === ruleId);
    return found && rules.toState(found);
  },
});
