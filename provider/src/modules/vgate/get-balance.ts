import { z } from "zod";
import { defineReadFunction } from "../../framework/api/shapes/read-function";

const balanceWire = z.looseObject({ balance_micros: z.number().int() });

const balanceResult = z.object({
  balanceMicros: z
    .number()
    .int()
    .meta({ description: "The prepaid balance of the PBX gateway, in millionths of the currency unit." }),
  currency: z.string().optional().meta({ description: "Currency of the balance, such as `EUR`." }),
  movements: z
    .array(
      z
        .object({
          at: z.string().optional().meta({ description: "When the movement happened." }),
          amountMicros: z
            .number()
            .int()
            .optional()
            .meta({ description: "Amount in millionths of the currency unit; negative for a charge." }),
          kind: z
            .string()
            .optional()
            .meta({ description: "What kind of movement it is, such as `number` or `topup`." }),
          note: z.string().nullable().optional().meta({ description: "A note about the movement." }),
        })
        .meta({ typeName: "BalanceMovement", description: "One movement of the balance." }),
    )
    .default([])
    .meta({ description: "The latest movements, newest first, as the API lists them." }),
});

export const getBalance = defineReadFunction({
  since: "0.1.0",
  token: "nsp:vgate:getBalance",
  description: "Reads the prepaid balance of the PBX gateway and its latest movements. Top-ups are console only.",
  result: balanceResult,
  read: (ctx) => ctx.client.get("/vgate/balance", { schema: balanceWire, signal: ctx.signal }),
});
