import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { createOnce } from "../../framework/create-once";
import { findInList, idOf, optText, patchValues, stringRef } from "./fields";

const TOKEN = "nsp:sgate:Campaign";
const ID_FORM = "a campaign id such as cmp_0123456789ab";
const MAX_SAMPLES = 5;

const campaignArgs = z.object({
  brandId: stringRef("Id of the brand (`nsp:sgate:Brand`) the campaign belongs to. Changes in place."),
  useCase: z
    .enum(["mixed", "account_notification", "customer_care", "delivery_notification", "2fa", "marketing", "low_volume", "charity", "polling"])
    .meta({ description: "What the messages are for: `mixed`, `account_notification`, `customer_care`, `delivery_notification`, `2fa`, `marketing`, `low_volume`, `charity` or `polling`." }),
  description: optText(4096, "What the campaign sends, for the reviewers."),
  messageFlow: optText(4096, "How recipients opt in."),
  samples: z
    .array(z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters"))
    .max(MAX_SAMPLES, `must have at most ${MAX_SAMPLES} items`)
    .default([])
    .meta({ description: `Sample messages, at most ${MAX_SAMPLES}.` }),
  status: z.enum(["draft", "submitted"]).default("draft").meta({ description: "`draft`, or `submitted` to send the campaign for review. A submitted campaign cannot go back to draft (the API refuses)." }),
});

const campaignState = z.object({
  createdAt: z.string().meta({ description: "When the campaign was created." }),
});

const campaignProperties = campaignArgs.extend(campaignState.shape);
type CampaignState = z.output<typeof campaignProperties>;

const campaignWire = z.looseObject({ id: z.string(), brand_id: z.string(), use_case: z.string(), description: z.string().nullable().optional(), message_flow: z.string().nullable().optional() });
type CampaignWire = z.output<typeof campaignWire>;

const FIELDS = ["brandId", "useCase", "description", "messageFlow", "samples", "status"] as const;

const toState = (raw: CampaignWire) => ({ id: raw.id, state: fromWire(campaignProperties, raw) as CampaignState });
const campaignPath = (id: string) => `/sgate/campaigns/${encodeURIComponent(idOf(TOKEN, id, ID_FORM))}`;

export const campaign = defineResource({
  token: TOKEN,
  description: "A US 10DLC campaign under a brand. Deleting it detaches the numbers that send under it (their `campaignId` becomes empty).",
  args: campaignArgs,
  state: campaignState,
  importId: "<campaignId>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `campaign of brand ${args.brandId}`,
      () => ctx.client.post("/sgate/campaigns", body(campaignArgs, args, FIELDS), { schema: campaignWire, signal: ctx.signal }),
      // No field is unique; a campaign of the brand with the same use case and texts is taken as this one.
      async () =>
        (await ctx.client.listAll("/sgate/campaigns", { itemSchema: campaignWire, signal: ctx.signal })).find(
          (c) =>
            c.brand_id === args.brandId &&
            c.use_case === args.useCase &&
            (c.description ?? undefined) === (args.description ?? undefined) &&
            (c.message_flow ?? undefined) === (args.messageFlow ?? undefined),
        ),
    );
    return toState(created);
  },

  async read(ctx, id) {
    const found = await findInList(ctx, "/sgate/campaigns", idOf(TOKEN, id, ID_FORM), campaignWire);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    const changed = FIELDS.filter((k) => changedInputs.includes(k));
    if (changed.length === 0) return { ...olds, ...news };
    const values = patchValues(news, ["description", "messageFlow"]);
    return toState(await ctx.client.patch(campaignPath(id), body(campaignArgs, values, changed), { schema: campaignWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(campaignPath(id), { signal: ctx.signal });
  },
});
