import { z } from "zod";
import { defineReadFunction } from "../../framework/api/shapes/read-function";
import { wireModel } from "../../framework/api/fields";
import { linkedMaintainer, requireLinkedMaintainer } from "./fields";

const planResult = z.object({
  suggestions: z
    .array(
      z
        .object({
          asn: z.number().int().meta({ description: "Origin AS of the suggested ROA." }),
          prefix: z.string().meta({ description: "Prefix of the suggested ROA." }),
          maxLength: z.number().int().meta({ description: "Suggested maximum prefix length." }),
          covered: z
            .boolean()
            .meta({ description: "Whether a ROA of the account already validates this announcement." }),
        })
        .meta({ typeName: "RpkiPlanSuggestion", description: "A ROA suggested from a discovered ASN and prefix." }),
    )
    .meta({ description: "ROA suggestions from the discovered ASNs and prefixes (feed them to `nsp:rpki:Roa`)." }),
  steps: z
    .array(
      z
        .object({
          step: z.string().meta({ description: "Step key: `sync`, `create_ca`, `parent_response`, `roas`." }),
          done: z.boolean().meta({ description: "Whether the step is done." }),
          detail: z.string().meta({ description: "What the step involves." }),
        })
        .meta({ typeName: "RpkiPlanStep", description: "One step towards delegated RPKI." }),
    )
    .meta({ description: "The delegated-RPKI steps, in order." }),
});

const api = wireModel(planResult, z.object({}));

const TOKEN = "nsp:registry:getRpkiPlan";

export const getRpkiPlan = defineReadFunction({
  since: "0.1.0",
  token: TOKEN,
  description:
    "ROA suggestions from the ASNs and prefixes the registry link discovered, and the steps towards " +
    "delegated RPKI. Needs an `nsp:registry:Link`.",
  args: z.object({ mntner: linkedMaintainer }),
  result: planResult,
  async read(ctx, args) {
    await requireLinkedMaintainer(ctx, TOKEN, args.mntner);
    return ctx.client.get("/registry/rpki/plan", { schema: api.wire, signal: ctx.signal });
  },
});
