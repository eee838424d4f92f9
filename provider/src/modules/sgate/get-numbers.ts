import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { fromWire } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";

const TOKEN = "nsp:sgate:getNumbers";

const number = z
  .object({
    number: z.string().meta({ description: "The number, E.164." }),
    enabled: z.boolean().meta({ description: "Whether messaging is on for the number." }),
    provider: z.string().meta({ description: "Provider the number sends through." }),
    campaignId: z.string().nullable().meta({ description: "Campaign the number sends under, if any." }),
    helpText: z.string().nullable().meta({ description: "Reply to HELP, if set." }),
    sends: z.boolean().meta({ description: "Whether the number sends." }),
    receives: z.boolean().meta({ description: "Whether the number receives." }),
  })
  .meta({ typeName: "SgateNumber", description: "One of the account's messaging numbers." });

const result = z.object({
  numbers: z.array(number).meta({ description: "The account's numbers, with their messaging settings." }),
});
type Result = z.output<typeof result>;

const numberWire = wireModel(z.object({}), number).wire;

export const getNumbers = defineFunction({
  since: "0.1.0",
  token: TOKEN,
  description:
    "Lists the account's messaging numbers and whether each sends and receives (the numbers " +
    "`nsp:sgate:NumberSettings` can manage).",
  args: z.object({}),
  result,
  async invoke(ctx) {
    const numbers = await ctx.client.listAll("/sgate/numbers", { itemSchema: numberWire, signal: ctx.signal });
    return fromWire(result, { numbers }) as Result;
  },
});
