import { z } from "zod";
import { defineReadFunction, listOf } from "../../framework/api/shapes/read-function";

const counts = (description: string) => z.record(z.string(), z.number().int()).meta({ description });

const quotaResult = z.object({
  label: z.string().meta({ description: "Display name of the merged packs." }),
  limits: counts("Merged quotas by key; 0 means unmetered."),
  usage: counts("Usage by key, counted across every service of the account."),
  packs: listOf("QuotaPack", "A quota pack held by the account.", "The packs whose limits add up to `limits`.", {
    plan: z.string().meta({ description: "Plan key of the pack." }),
    label: z.string().meta({ description: "Display name of the pack." }),
    qty: z.number().int().meta({ description: "How many of this pack the account holds." }),
    note: z.string().nullable().optional().meta({ description: "Free-form note." }),
  }),
});

export const getQuota = defineReadFunction({
  since: "0.1.0",
  token: "nsp:index:getQuota",
  description: "The account's quotas and current usage. Packs add up; a limit of 0 means unmetered.",
  result: quotaResult,
  read: (ctx) =>
    ctx.client.get("/account/quota", {
      schema: z.looseObject({ limits: z.record(z.string(), z.number()) }),
      signal: ctx.signal,
    }),
});
