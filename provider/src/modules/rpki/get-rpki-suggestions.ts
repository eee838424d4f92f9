import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { fromWire, idRef } from "../../framework/api/wire";

const suggestionShape = {
  asn: z.number().int().meta({ description: "The CA's ASN that announces the prefix." }),
  prefix: z.string().meta({ description: "The announced prefix." }),
  covered: z
    .boolean()
    .meta({ description: "Whether a ROA of the CA authorises this origin for this prefix and length." }),
  validity: z
    .string()
    .optional()
    .meta({
      description:
        "Route-origin validity against the CA's ROAs: `valid`, `invalid` (ROAs cover the prefix but none " +
        "allows this origin or length) or `not_found`.",
    }),
  roaId: z.string().nullable().optional().meta({ description: "Id of a ROA that covers the announcement, if any." }),
  suggestedRoa: z
    .object({
      asn: z.number().int().meta({ description: "Origin AS." }),
      prefix: z.string().meta({ description: "Prefix." }),
      maxLength: z.number().int().meta({ description: "Longest prefix length allowed." }),
    })
    .nullable()
    .optional()
    .meta({
      typeName: "RpkiSuggestedRoa",
      description: "A ROA that would cover an uncovered announcement (the inputs of an `nsp:rpki:Roa`).",
    }),
};

const suggestionsResult = z.object({
  suggestions: z
    .array(
      z
        .object(suggestionShape)
        .meta({ typeName: "RpkiSuggestion", description: "One announced prefix and its ROA coverage." }),
    )
    .meta({ description: "Every prefix the CA's ASNs announce, in the API's order." }),
});

const itemWire = z.looseObject({ asn: z.number().int(), prefix: z.string(), covered: z.boolean() });
// Where the list sits is not documented: accept it bare or wrapped.
const suggestionsWire = z.union([
  z.array(itemWire),
  z.looseObject({ suggestions: z.array(itemWire) }).transform((o) => o.suggestions),
  z.looseObject({ data: z.array(itemWire) }).transform((o) => o.data),
]);

export const getRpkiSuggestions = defineFunction({
  since: "0.1.0",
  token: "nsp:rpki:getRpkiSuggestions",
  description:
    "Lists the prefixes announced by a hosted CA's ASNs and whether a ROA of the CA covers each, with a " +
    "suggested ROA for those that are not covered.",
  args: z.object({
    caId: idRef("Id of the hosted RPKI CA."),
  }),
  result: suggestionsResult,
  async invoke(ctx, args) {
    const items = await ctx.client.get(`/rpki/cas/${args.caId}/suggestions`, {
      schema: suggestionsWire,
      signal: ctx.signal,
    });
    return fromWire(suggestionsResult, { suggestions: items }) as z.output<typeof suggestionsResult>;
  },
});
