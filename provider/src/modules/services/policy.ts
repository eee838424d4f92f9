import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { LOG_MODES, SAFESEARCH, address, addressOrPrefix, key, ruleLine, timestamp } from "./fields";
import { defineServiceDocument } from "./document";
import { items, jsonObject, lines } from "./text-lists";

const TOKEN = "nsp:services:Policy";

const policyFields = {
  rules: z
    .array(ruleLine)
    .default([])
    .meta({
      description:
        "Custom filtering rules, one per item, in the resolver's rule syntax (the API's `POST " +
        "/services/{id}/rule-test` tries them out).",
    }),
  blockedServices: z
    .array(key)
    .default([])
    .meta({ description: "Keys of online services whose domains are blocked, such as `tiktok`." }),
  schedule: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({
      description:
        'When filtering applies, as an object in the resolver\'s schedule format (such as `{ mon: ["09:00", ' +
        '"17:00"] }`); unset means always.',
      wire: "schedule_json",
    }),
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
  safesearch: z
    .enum(SAFESEARCH)
    .default("")
    .meta({ description: "Safe search enforcement: `on`, `off`, or empty (off)." }),
  accessAllow: z
    .array(addressOrPrefix)
    .default([])
    .meta({ description: "Addresses or prefixes allowed to query the resolver; empty allows everybody not denied." }),
  accessDeny: z.array(addressOrPrefix).default([]).meta({ description: "Addresses or prefixes refused." }),
  forwards: z.array(address).default([]).meta({
    description: "Upstream resolvers (IP addresses) that queries are forwarded to; empty uses the service's own.",
  }),
  pausedUntil: timestamp
    .default("")
    .meta({ description: "Filtering is paused until this time (ISO 8601); empty when not paused." }),
  blockBypass: z
    .boolean()
    .default(false)
    .meta({ description: "Block known ways around the resolver (public DoH endpoints, VPN domains)." }),
  anonymizeIp: z.boolean().default(false).meta({ description: "Store client addresses truncated in the query log." }),
  logMode: z
    .enum(LOG_MODES)
    .default("off")
    .meta({ description: "What the query log keeps: `off`, `blocked` or `all`." }),
  logDays: z
    .number()
    .int("must be an integer")
    .min(1, "must be between 1 and 90")
    .max(90, "must be between 1 and 90")
    .default(7)
    .meta({ description: "Days the query log is kept." }),
  ratelimit: z
    .number()
    .int("must be an integer")
    .min(0, "must be between 0 and 100000")
    .max(100_000, "must be between 0 and 100000")
    .default(0)
    .meta({ description: "Queries per second per client; 0 means no limit." }),
  ttlMin: z
    .number()
    .int("must be an integer")
    .min(0, "must be between 0 and 86400")
    .max(86_400, "must be between 0 and 86400")
    .default(0)
    .meta({ description: "Lowest TTL handed to clients, in seconds; 0 leaves TTLs as they are." }),
  ttlMax: z
    .number()
    .int("must be an integer")
    .min(0, "must be between 0 and 86400")
    .max(86_400, "must be between 0 and 86400")
    .default(0)
    .meta({ description: "Highest TTL handed to clients, in seconds; 0 means no cap." }),
};

/** 0.1.0's `scheduleJson` text as the object it holds; text that holds none is no schedule. */
function scheduleFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.trim() === "") return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Check names the property; a state of 0.1.0 always held an object's text.
    return value;
  }
}

export const policy = defineServiceDocument({
  since: "0.1.0",
  notListed: "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  token: TOKEN,
  description:
    "The filtering policy of a resolver service: custom rules, blocked online services, schedule, safe " +
    "search, access lists, forwarding, logging, rate limit and TTL bounds. There is one per service and " +
    "the API replaces it whole, so this resource owns every field (unset ones take the API's defaults); " +
    "deleting it restores the defaults. The id is the service id.",
  path: "policy",
  fields: policyFields,
  codecs: {
    rules: lines,
    blockedServices: items,
    schedule: jsonObject,
    accessAllow: items,
    accessDeny: items,
    forwards: items,
  },
  migrations: [
    {
      release: "0.2.0",
      change:
        '`scheduleJson` (the JSON text of an object, `""` for always) is now `schedule`, the object itself (unset for always).',
      renamed: { scheduleJson: "schedule" },
      reshaped: { schedule: scheduleFromText },
    },
  ],

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.ttlMax !== 0 && args.ttlMin > args.ttlMax)
      failures.push({ property: "ttlMin", reason: `must not exceed ttlMax (${args.ttlMax})` });
    return failures;
  },
});
