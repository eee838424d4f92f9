import { z } from "zod";
import { both, messagingCollection, optText } from "./fields";
import { stringRef } from "../../framework/api/validators";
import { naturalKey, fromSharedList } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:sgate:Campaign";
const MAX_SAMPLES = 5;

const campaignArgs = z.object({
  brandId: stringRef("Id of the brand (`nsp:sgate:Brand`) the campaign belongs to. Changes in place.").meta({
    ...both,
    key: true,
  }),
  useCase: z
    .enum([
      "mixed",
      "account_notification",
      "customer_care",
      "delivery_notification",
      "2fa",
      "marketing",
      "low_volume",
      "charity",
      "polling",
    ])
    .meta({
      key: true,
      description:
        "What the messages are for: `mixed`, `account_notification`, `customer_care`, " +
        "`delivery_notification`, `2fa`, `marketing`, `low_volume`, `charity` or `polling`.",
      ...both,
    }),
  description: optText(4096, "What the campaign sends, for the reviewers."),
  messageFlow: optText(4096, "How recipients opt in."),
  samples: z
    .array(z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters"))
    .max(MAX_SAMPLES, `must have at most ${MAX_SAMPLES} items`)
    .default([])
    .meta({ description: `Sample messages, at most ${MAX_SAMPLES}.`, ...both }),
  status: z
    .enum(["draft", "submitted"])
    .default("draft")
    .meta({
      description:
        "`draft`, or `submitted` to send the campaign for review. A submitted campaign cannot go back to " +
        "draft (the API refuses).",
      ...both,
    }),
});

const campaignState = z.object({
  createdAt: z.string().meta({ description: "When the campaign was created." }),
});

const campaigns = messagingCollection(
  TOKEN,
  "/sgate/campaigns",
  { what: "campaign", form: "<campaignId>", example: "cmp_0123456789ab" },
  campaignArgs,
  campaignState,
  fromSharedList(),
);

export const campaign = campaigns.resource({
  since: "0.1.0",
  list: { label: (c) => `${String(c.use_case)}-${String(c.id)}` },
  description:
    "A US 10DLC campaign under a brand. Deleting it detaches the numbers that send under it (their " +
    "`campaignId` becomes empty).",
  importId: "<campaignId>",

  create: (ctx, args) =>
    // No field is unique; a campaign of the brand with the same use case and texts is taken as this one.
    campaigns.create(
      ctx,
      `campaign of brand ${args.brandId}`,
      args,
      naturalKey(
        (c) =>
          c.brand_id === args.brandId &&
          c.use_case === args.useCase &&
          (c.description ?? undefined) === (args.description ?? undefined) &&
          (c.message_flow ?? undefined) === (args.messageFlow ?? undefined),
      ),
    ),
});
