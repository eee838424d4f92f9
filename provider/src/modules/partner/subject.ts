import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { fromWire } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOnce } from "../../framework/create-once";

const TOKEN = "nsp:partner:Subject";
const REF = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const REF_RULE = "must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit";

const subjectArgs = z.object({
  externalRef: z.string().regex(REF, REF_RULE).meta({ description: "The partner's own reference for the customer, such as its customer number. It names the customer in every partner endpoint." }),
});

const subjectState = z.object({
  mode: z.string().meta({ description: "How the partner acts for the customer: `managed` for customers created here." }),
  ranges: z
    .array(
      z
        .object({
          id: z.string().meta({ description: "Id of the range grant (`nsp:dns:Range`)." }),
          zoneId: z.string().meta({ description: "Id of the reverse zone that holds the range." }),
          prefix: z.string().meta({ description: "The address range." }),
          enabled: z.boolean().meta({ description: "Whether the grant is in force." }),
        })
        .meta({ typeName: "SubjectRange", description: "An address range granted to the customer." }),
    )
    .meta({ description: "Address ranges the customer holds (range grants whose `externalRef` is this customer's)." }),
  createdAt: z.string().meta({ description: "When the partner started acting for the customer." }),
});

const properties = subjectArgs.extend(subjectState.shape);
type State = z.output<typeof properties>;
const subjectWire = z.looseObject({ external_ref: z.string() });
type SubjectWire = z.output<typeof subjectWire>;

const toState = (raw: SubjectWire) => ({ id: raw.external_ref, state: fromWire(properties, raw) as State });
const path = (ref: string) => `/partner/subjects/${encodeURIComponent(ref)}`;

function refOf(id: string): string {
  if (!REF.test(id)) throw new Error(`${TOKEN}: id "${id}" is not a customer reference (<ref>: ${REF_RULE})`);
  return id;
}

export const subject = defineResource({
  token: TOKEN,
  description:
    "A managed customer of a partner (partner credentials in managed mode only): the partner may then act for the customer, for example by minting a short-lived credential for it. Deleting the resource stops acting for the customer.",
  args: subjectArgs,
  state: subjectState,
  replaceOnChanges: ["externalRef"],
  importId: "<ref>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `partner customer ${args.externalRef}`,
      () => ctx.client.post("/partner/subjects", { external_ref: args.externalRef }, { schema: subjectWire, signal: ctx.signal }),
      async () => {
        try {
          return await ctx.client.get(path(args.externalRef), { schema: subjectWire, signal: ctx.signal });
        } catch (e) {
          if (isNotFound(e)) return undefined;
          throw e;
        }
      },
    );
    return toState(created);
  },

  async read(ctx, id) {
    try {
      return toState(await ctx.client.get(path(refOf(id)), { schema: subjectWire, signal: ctx.signal }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async delete(ctx, id) {
    try {
      await ctx.client.delete(path(refOf(id)), { signal: ctx.signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },
});
