import { z } from "zod";
import { defineResource, type CheckFailure, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { LOG_MODES, SAFESEARCH, address, addressOrPrefix, joinItems, joinLines, key, requireResolver, resolverService, ruleLine, serviceIdOf, splitItems, splitLines, timestamp } from "./fields";

const TOKEN = "nsp:services:Policy";

const policyArgs = z.object({
  serviceId: idRef("Id of the resolver service (`nsp:dns:getService` with its name finds it)."),
  rules: z.array(ruleLine).default([]).meta({ description: "Custom filtering rules, one per item, in the resolver's rule syntax (the API's `POST /services/{id}/rule-test` tries them out)." }),
  blockedServices: z.array(key).default([]).meta({ description: "Keys of online services whose domains are blocked, such as `tiktok`." }),
  scheduleJson: z
    .string()
    .trim()
    .refine((s) => {
      if (s === "") return true;
      try {
        const v: unknown = JSON.parse(s);
        return typeof v === "object" && v !== null && !Array.isArray(v);
      } catch {
        return false;
      }
    }, "must be a JSON object (such as JSON.stringify({...})), or empty")
    .default("")
    .meta({ description: "When filtering applies, as a JSON object; empty means always." }),
  tz: z
    .string()
    .trim()
    .refine((s) => {
      if (s === "") return true;
      try {
        new Intl.DateTimeFormat("en", { timeZone: s });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as Europe/Berlin, or empty")
    .default("")
    .meta({ description: "Time zone of the schedule, such as `Europe/Berlin`." }),
  safesearch: z.enum(SAFESEARCH).default("").meta({ description: "Safe search enforcement: `on`, `off`, or empty (off)." }),
  accessAllow: z.array(addressOrPrefix).default([]).meta({ description: "Addresses or prefixes allowed to query the resolver; empty allows everybody not denied." }),
  accessDeny: z.array(addressOrPrefix).default([]).meta({ description: "Addresses or prefixes refused." }),
  forwards: z.array(address).default([]).meta({ description: "Upstream resolvers (IP addresses) that queries are forwarded to; empty uses the service's own." }),
  pausedUntil: timestamp.default("").meta({ description: "Filtering is paused until this time (ISO 8601); empty when not paused." }),
  blockBypass: z.boolean().default(false).meta({ description: "Block known ways around the resolver (public DoH endpoints, VPN domains)." }),
  anonymizeIp: z.boolean().default(false).meta({ description: "Store client addresses truncated in the query log." }),
  logMode: z.enum(LOG_MODES).default("off").meta({ description: "What the query log keeps: `off`, `blocked` or `all`." }),
  logDays: z.number().int("must be an integer").min(1, "must be between 1 and 90").max(90, "must be between 1 and 90").default(7).meta({ description: "Days the query log is kept." }),
  ratelimit: z.number().int("must be an integer").min(0, "must be between 0 and 100000").max(100_000, "must be between 0 and 100000").default(0).meta({ description: "Queries per second per client; 0 means no limit." }),
  ttlMin: z.number().int("must be an integer").min(0, "must be between 0 and 86400").max(86_400, "must be between 0 and 86400").default(0).meta({ description: "Lowest TTL handed to clients, in seconds; 0 leaves TTLs as they are." }),
  ttlMax: z.number().int("must be an integer").min(0, "must be between 0 and 86400").max(86_400, "must be between 0 and 86400").default(0).meta({ description: "Highest TTL handed to clients, in seconds; 0 means no cap." }),
});
type PolicyArgs = z.output<typeof policyArgs>;

const policyWire = z.looseObject({
  rules: z.string(),
  blocked_services: z.string(),
  schedule_json: z.string(),
  tz: z.string(),
  safesearch: z.enum(SAFESEARCH),
  access_allow: z.string(),
  access_deny: z.string(),
  forwards: z.string(),
  paused_until: z.string(),
  block_bypass: z.boolean(),
  anonymize_ip: z.boolean(),
  log_mode: z.enum(LOG_MODES),
  log_days: z.number().int(),
  ratelimit: z.number().int(),
  ttl_min: z.number().int(),
  ttl_max: z.number().int(),
});
type PolicyWire = z.output<typeof policyWire>;

function toState(serviceId: string, w: PolicyWire): PolicyArgs {
  return {
    serviceId,
    rules: splitLines(w.rules),
    blockedServices: splitItems(w.blocked_services),
    scheduleJson: w.schedule_json,
    tz: w.tz,
    safesearch: w.safesearch,
    accessAllow: splitItems(w.access_allow),
    accessDeny: splitItems(w.access_deny),
    forwards: splitItems(w.forwards),
    pausedUntil: w.paused_until,
    blockBypass: w.block_bypass,
    anonymizeIp: w.anonymize_ip,
    logMode: w.log_mode,
    logDays: w.log_days,
    ratelimit: w.ratelimit,
    ttlMin: w.ttl_min,
    ttlMax: w.ttl_max,
  };
}

async function put(ctx: OperationContext, a: PolicyArgs): Promise<PolicyArgs> {
  const wire = {
    rules: joinLines(a.rules),
    blocked_services: joinItems(a.blockedServices),
    schedule_json: a.scheduleJson,
    tz: a.tz,
    safesearch: a.safesearch,
    access_allow: joinItems(a.accessAllow),
    access_deny: joinItems(a.accessDeny),
    forwards: joinItems(a.forwards),
    paused_until: a.pausedUntil,
    block_bypass: a.blockBypass,
    anonymize_ip: a.anonymizeIp,
    log_mode: a.logMode,
    log_days: a.logDays,
    ratelimit: a.ratelimit,
    ttl_min: a.ttlMin,
    ttl_max: a.ttlMax,
  };
  return toState(a.serviceId, await ctx.client.put(`/services/${a.serviceId}/policy`, wire, { schema: policyWire, signal: ctx.signal }));
}

export const policy = defineResource({
  token: TOKEN,
  description:
    "The filtering policy of a resolver service: custom rules, blocked online services, schedule, safe search, access lists, forwarding, logging, rate limit and TTL bounds. There is one per service and the API replaces it whole, so this resource owns every field (unset ones take the API's defaults); deleting it restores the defaults. The id is the service id.",
  args: policyArgs,
  state: z.object({ serviceName: z.string().meta({ description: "Name of the resolver service." }) }),
  replaceOnChanges: ["serviceId"],
  importId: "<serviceId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.ttlMax !== 0 && args.ttlMin > args.ttlMax) failures.push({ property: "ttlMin", reason: `must not exceed ttlMax (${args.ttlMax})` });
    return failures;
  },

  async create(ctx, args) {
    const service = await requireResolver(ctx, TOKEN, args.serviceId);
    return { id: args.serviceId, state: { ...(await put(ctx, args)), serviceName: service.name } };
  },

  async read(ctx, id) {
    const serviceId = serviceIdOf(TOKEN, id);
    const service = await resolverService(ctx, TOKEN, serviceId);
    if (!service) return undefined;
    return { id: serviceId, state: { serviceName: service.name, ...toState(serviceId, await ctx.client.get(`/services/${serviceId}/policy`, { schema: policyWire, signal: ctx.signal })) } };
  },

  async update(ctx, _id, news, olds) {
    return { ...(await put(ctx, news)), serviceName: olds.serviceName };
  },

  async delete(ctx, id) {
    await ctx.client.put(`/services/${serviceIdOf(TOKEN, id)}/policy`, {}, { signal: ctx.signal });
  },
});
