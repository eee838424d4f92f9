import { z } from "zod";
import { createOrAdopt } from "../../framework/create-once";
import { defineResource, type CheckFailure } from "../../framework/definition";
import { body, fromWire, idRef } from "../../framework/wire";
import { RULE_FIELDS, ruleValueProblem } from "./values";

const TOKEN = "nsp:security:Rule";

const ruleArgs = z.object({
  siteId: idRef("Id of the edge site the rule applies to. Exactly one of `siteId` and `zoneId`.").optional(),
  zoneId: idRef("Id of the zone whose every edge site the rule applies to. Exactly one of `siteId` and `zoneId`.").optional(),
  field: z.enum(RULE_FIELDS).meta({ description: "What of the request is matched: its `country`, `asn`, `ip` address or `isp`." }),
  op: z.enum(["in", "not_in"]).meta({ description: "Whether the rule matches requests whose field is `in` the value's list or `not_in` it." }),
  value: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .meta({
      description:
        "Comma-separated list the field is matched against: ISO 3166-1 alpha-2 country codes (`DE,FR`), AS numbers (`64500` or `AS64500`), IP addresses and CIDR prefixes (`192.0.2.0/24`, host bits zero), or ISP names.",
    }),
  action: z.enum(["block", "allow", "challenge", "ratelimit"]).meta({ description: "What happens to a matching request." }),
  seq: z.number().int().min(0).optional().meta({ description: "Evaluation order among the rules of the site or zone, lowest first; the API picks the next free one when unset." }),
  note: z.string().optional().meta({ description: "Free-text note." }),
  enabled: z.boolean().default(true).meta({ description: "Whether the rule is applied. The only setting that changes in place." }),
});

const ruleState = z.object({
  createdAt: z.string().meta({ description: "When the rule was created." }),
});

const ruleProperties = ruleArgs.extend(ruleState.shape);
type RuleState = z.output<typeof ruleProperties>;

const ruleWire = z.looseObject({
  id: z.number().int(),
  site_id: z.number().int().nullable().optional(),
  zone_id: z.number().int().nullable().optional(),
  field: z.string().optional(),
  op: z.string().optional(),
  value: z.string().optional(),
  action: z.string().optional(),
});
type RuleWire = z.output<typeof ruleWire>;

const toState = (raw: RuleWire) => ({ id: String(raw.id), state: fromWire(ruleProperties, raw) as RuleState });

function ruleIdOf(id: string): string {
  if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new Error(`${TOKEN}: id "${id}" must be a numeric rule id (<ruleId>)`);
  return id;
}

export const rule = defineResource({
  token: TOKEN,
  description:
    "A security rule: requests to one edge site, or to every site of a zone, whose country, AS, address or ISP is (or is not) in a list are blocked, allowed, challenged or rate-limited. Only `enabled` changes in place; any other change replaces the rule.",
  args: ruleArgs,
  state: ruleState,
  // The API patches nothing but `enabled`.
  replaceOnChanges: ["siteId", "zoneId", "field", "op", "value", "action", "seq", "note"],
  importId: "<ruleId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.siteId === undefined && args.zoneId === undefined) failures.push({ property: "siteId", reason: "set exactly one of siteId or zoneId: a rule belongs to one site or one whole zone" });
    if (args.siteId !== undefined && args.zoneId !== undefined) failures.push({ property: "zoneId", reason: "set exactly one of siteId or zoneId, not both" });
    const problem = ruleValueProblem(args.field, args.value);
    if (problem) failures.push({ property: "value", reason: `${problem} (field ${args.field})` });
    return failures;
  },

  async create(ctx, args) {
    const scope = args.siteId !== undefined ? { site_id: Number(args.siteId) } : { zone_id: Number(args.zoneId) };
    const { object: created } = await createOrAdopt(
      ctx,
      `rule ${args.field} ${args.op} ${args.value}`,
      // A rule is what it matches and does, within its site or zone. The API accepts a second,
      // identical rule, so the site's or zone's rules are checked first.
      { list: "/security/rules", query: scope, schema: ruleWire, matches: (r) => r.field === args.field && r.op === args.op && r.value === args.value && r.action === args.action, checkFirst: true },
      () => ctx.client.post("/security/rules", body(ruleArgs, args, ["siteId", "zoneId", "field", "op", "value", "action", "seq", "note"]), { schema: ruleWire, signal: ctx.signal }),
    );
    if (args.enabled) return toState(created);
    // If disabling fails, the engine keeps the (enabled) rule and the next up disables it.
    ctx.progress(String(created.id), toState(created).state);
    return toState(await ctx.client.patch(`/security/rules/${created.id}`, { enabled: false }, { schema: ruleWire, signal: ctx.signal }));
  },

  // The API has no single-rule GET: the rule is found in the list, filtered by its site or zone when known.
  async read(ctx, id, prior) {
    const ruleId = Number(ruleIdOf(id));
    const query = prior.siteId !== undefined ? { site_id: prior.siteId } : prior.zoneId !== undefined ? { zone_id: prior.zoneId } : {};
    const rules = await ctx.client.listAll("/security/rules", { query, itemSchema: ruleWire, signal: ctx.signal });
    const found = rules.find((r) => r.id === ruleId);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds) {
    if (news.enabled === olds.enabled) return { ...olds, ...news };
    const updated = await ctx.client.patch(`/security/rules/${ruleIdOf(id)}`, { enabled: news.enabled }, { schema: ruleWire, signal: ctx.signal });
    return toState(updated).state;
  },

  async delete(ctx, id) {
    // Another resource of this command adopted it (the program renamed the rule): it is theirs now.
    if (ctx.adoptions.handedOver("/security/rules", ruleIdOf(id))) return;
    await ctx.client.delete(`/security/rules/${ruleIdOf(id)}`, { signal: ctx.signal });
  },
});
