import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { domainObjects } from "./fields";
import { email } from "../../framework/api/validators";
import { naturalKey, fromList } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:mail:DomainRule";
const KINDS = ["forward_copy", "reject_sender", "quarantine_sender", "relay_rcpt"] as const;
const RELAY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/;

const ruleArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`).").meta({ replace: true }),
  kind: z.enum(KINDS).meta({
    key: true,
    description:
      "`forward_copy` sends a copy of matching mail to `target` (an address); `reject_sender` and " +
      "`quarantine_sender` refuse or hold mail from matching senders (no `target`); `relay_rcpt` hands " +
      "matching recipients' mail to the relay host in `target`.",
    create: true,
    patch: true,
  }),
  pattern: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(255, "must be at most 255 characters")
        .regex(/^\S+$/, "must not contain spaces"),
    )
    .meta({
      key: true,
      description:
        "Addresses the rule matches: an address, a wildcard such as `*@example.net`, or a domain. Stored lower-case.",
      create: true,
      patch: true,
    }),
  target: z
    .string()
    .trim()
    .toLowerCase()
    .nullable()
    .optional()
    .meta({
      description:
        "The copy's address (`forward_copy`) or the relay host with an optional port (`relay_rcpt`, such as " +
        "`relay.example.net:2525`); unset for the other kinds.",
      create: true,
      patch: true,
    }),
  enabled: z.boolean().default(true).meta({ description: "Whether the rule applies.", create: true, patch: true }),
});

const ruleState = z.object({
  createdAt: z.string().meta({ description: "When the rule was created." }),
});

// Listed and created under the domain, patched and deleted at /mail/domainrules/<id>. There is no
// GET of one rule: it is found in its domain's list.
const rules = domainObjects(TOKEN, "rules", "<ruleId>", {
  itemsAt: "/mail/domainrules",
  args: ruleArgs,
  state: ruleState,
  idOnWire: z.number().int(),
  read: fromList(),
  patchBody(_patch, news, changedInputs, api) {
    if (api.patchKeys(changedInputs).length === 0) return {};
    // "Same body" as the create, where kind and pattern are required: they always go along, and
    // the target too, since whether it is allowed depends on the kind.
    return api.patchBody(news, [...new Set(["kind", "pattern", "target", ...changedInputs])]);
  },
});

function relayProblem(target: string): string | null {
  const m = RELAY.exec(target);
  if (!m) return "must be a relay host with an optional port, such as relay.example.net:2525";
  if (m[1] !== undefined && (Number(m[1]) < 1 || Number(m[1]) > 65535)) return "the port must be between 1 and 65535";
  return null;
}

export const domainRule = rules.resource({
  since: "0.1.0",
  list: { label: (r, d) => `${String(d?.name)}-${String(r.kind)}-${String(r.pattern)}`, zoneOf: (_r, d) => d?.zone_id },
  description:
    "A domain-level mail rule: copy, refuse, quarantine or relay mail whose sender or recipient matches a pattern.",

  check(args) {
    const failures: CheckFailure[] = [];
    const target = args.target ?? null;
    if (args.kind === "forward_copy") {
      if (target === null || target === "")
        failures.push({ property: "target", reason: "forward_copy needs the address that receives the copy" });
      else if (!email.safeParse(target).success)
        failures.push({
          property: "target",
          reason: "must be an email address such as ops@example.com for forward_copy",
        });
    } else if (args.kind === "relay_rcpt") {
      if (target === null || target === "")
        failures.push({
          property: "target",
          reason: "relay_rcpt needs the relay host, such as relay.example.net:2525",
        });
      else {
        const problem = relayProblem(target);
        if (problem) failures.push({ property: "target", reason: problem });
      }
    } else if (target !== null) {
      failures.push({ property: "target", reason: `must be unset for ${args.kind} rules` });
    }
    return failures;
  },

  // Kind, pattern and target identify a rule (like a record's name, type and content).
  create: (ctx, args) =>
    rules.of(args.domainId).create(
      ctx,
      `${args.kind} rule ${args.pattern}`,
      args,
      naturalKey(
        (r) => r.kind === args.kind && r.pattern === args.pattern && (r.target ?? null) === (args.target || null),
      ),
    ),
});
