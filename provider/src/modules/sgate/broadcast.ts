import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { both, lang, messagingCollection } from "./fields";
import { e164, stringRef } from "../../framework/api/validators";
import { foundBy } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:sgate:Broadcast";
const MAX_RECIPIENTS = 10000;

const recipients = z
  .object({
    numbers: z
      .array(e164)
      .min(1, "must have at least 1 item")
      .max(MAX_RECIPIENTS, `must have at most ${MAX_RECIPIENTS} items`)
      .meta({ description: `The numbers (E.164) to send to, at most ${MAX_RECIPIENTS}.` }),
  })
  .meta({ typeName: "SgateBroadcastRecipients", description: "Who a broadcast goes to." });

const broadcastArgs = z.object({
  recipients: recipients.meta({ description: "Who the broadcast goes to.", ...both }),
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .nullable()
    .optional()
    .meta({ key: true, description: "Name of the broadcast.", ...both }),
  senderId: stringRef("Id of the sender (`nsp:sgate:Sender`) it goes out as.").nullable().optional().meta(both),
  from: e164
    .nullable()
    .optional()
    .meta({ description: "The account's number (E.164) it goes out from.", ...both }),
  templateId: stringRef("Id of the template (`nsp:sgate:Template`) to send; give either this or `body`.")
    .nullable()
    .optional()
    .meta(both),
  lang: lang
    .nullable()
    .optional()
    .meta({ description: "Language of the template to use; its default language when unset.", ...both }),
  body: z
    .string()
    .min(1, "must not be empty")
    .max(1600, "must be at most 1600 characters")
    .nullable()
    .optional()
    .meta({ description: "The text to send; give either this or `templateId`.", ...both }),
  category: z
    .enum(["transactional", "marketing"])
    .default("marketing")
    .meta({
      description: "`transactional` or `marketing` (marketing reaches only recipients with a granted consent).",
      ...both,
    }),
  ratePerMin: z
    .number()
    .int()
    .min(1, "must be at least 1")
    .max(6000, "must be at most 6000")
    .default(60)
    .meta({ description: "Messages sent per minute once started.", ...both }),
});

const report = z
  .object({
    total: z.number().int(),
    pending: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    optedOut: z.number().int(),
    noConsent: z.number().int(),
    skipped: z.number().int(),
  })
  .meta({ typeName: "SgateBroadcastReport", description: "Recipients by status." });

const broadcastState = z.object({
  state: z.string().meta({
    description:
      "`draft` while managed here; after a start (outside Pulumi): `scheduled`, `sending`, `paused`, " +
      "`completed` or `cancelled`.",
  }),
  startAt: z.string().nullable().optional().meta({ description: "When the broadcast started or is to start." }),
  report: report.meta({ description: "Recipients by status." }),
  createdAt: z.string().meta({ description: "When the broadcast was created." }),
});

const broadcasts = messagingCollection(
  TOKEN,
  "/sgate/broadcasts",
  { what: "broadcast", form: "<broadcastId>", example: "bc_0123456789ab" },
  broadcastArgs,
  broadcastState,
);

export const broadcast = broadcasts.resource({
  since: "0.1.0",
  list: {
    skip: (b) => (b.state === "draft" ? undefined : `broadcast in state ${String(b.state)}: only drafts are managed`),
  },
  description:
    "A broadcast draft: one message to a list of numbers. Only the draft is managed: starting, pausing, " +
    "resuming and cancelling are operations outside Pulumi, and the API refuses changes to a broadcast " +
    "that is no longer a draft. A broadcast that is sending cannot be deleted: the API refuses until it " +
    "is paused, cancelled or finished.",
  importId: "<broadcastId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.body && args.templateId)
      failures.push({ property: "body", reason: "give either body or templateId, not both" });
    if (!args.body && !args.templateId)
      failures.push({ property: "body", reason: "is required when templateId is not set" });
    const seen = args.recipients.numbers;
    seen.forEach((n, i) => {
      const first = seen.indexOf(n);
      if (first !== i)
        failures.push({ property: "recipients", reason: `${n} is listed twice (items ${first} and ${i})` });
    });
    return failures;
  },

  create: (ctx, args) =>
    broadcasts.create(
      ctx,
      `broadcast ${args.name ?? ""}`.trim(),
      args,
      foundBy(
        // Only a name tells drafts apart; without one a lost answer is sent again.
        async () =>
          args.name ? (await broadcasts.list(ctx)).find((b) => b.name === args.name && b.state === "draft") : undefined,
      ),
    ),
});
