import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";

// Where the text sits is not documented: accept a JSON object's `text` or `rpsl`, or a bare string.
const rpslWire = z.union([
  z.string(),
  z.looseObject({ text: z.string() }).transform((o) => o.text),
  z.looseObject({ rpsl: z.string() }).transform((o) => o.rpsl),
]);

export const getRpsl = defineFunction({
  since: "0.1.0",
  token: "nsp:rpki:getRpsl",
  description: "Renders a hosted CA's ROAs as RPSL `route:` and `route6:` objects, for a routing registry.",
  args: z.object({
    caId: idRef("Id of the hosted RPKI CA."),
  }),
  result: z.object({
    text: z
      .string()
      .meta({ description: "The RPSL objects, separated by blank lines; empty when the CA has no ROAs." }),
  }),
  async invoke(ctx, args) {
    return { text: await ctx.client.get(`/rpki/cas/${args.caId}/rpsl`, { schema: rpslWire, signal: ctx.signal }) };
  },
});
