import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { createOnce } from "../../framework/create-once";

const TOKEN = "nsp:partner:Subject";
const REF = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const REF_RULE = "must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit";

const subjectArgs = z.object({
  externalRef: z.string().regex(REF, REF_RULE).meta({
    key: true,
    description: "The partner's own reference for the customer, such as its customer number. It names the customer in every partner endpoint.",
    create: true,
    replace: true,
  }),
});

const subjectState = z.object({
  mode: z.string().meta({ description: "How the partner acts for the customer: `managed` for customers created here." }),
  ranges: z
    .array(
      z
        .object({
          id: z.string().meta({ description: "Id of the range grant (`nsp:dns:Range`).", wireInteger: true }),
          zoneId: z.string().meta({ description: "Id of the reverse zone that holds the range.", wireInteger: true }),
          prefix: z.string().meta({ description: "The address range." }),
          enabled: z.boolean().meta({ description: "Whether the grant is in force." }),
        })
        .meta({ typeName: "SubjectRange", description: "An address range granted to the customer." }),
    )
    .meta({ description: "Address ranges the customer holds (range grants whose `externalRef` is this customer's)." }),
  createdAt: z.string().meta({ description: "When the partner started acting for the customer." }),
});

const api = wireModel(subjectArgs, subjectState);
const subjectWire = api.wire;

// A customer is known by the partner's reference.
const toState = (raw: z.output<typeof subjectWire>) => {
  const state = api.toState(raw);
  return { id: state.externalRef, state };
};
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
  importId: "<ref>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `partner customer ${args.externalRef}`,
      () => ctx.client.post("/partner/subjects", api.createBody(args), { schema: subjectWire, signal: ctx.signal }),
      () => ctx.client.getOrUndefined(path(args.externalRef), { schema: subjectWire, signal: ctx.signal }),
    );
    return toState(created);
  },

  async read(ctx, id) {
    const found = await ctx.client.getOrUndefined(path(refOf(id)), { schema: subjectWire, signal: ctx.signal });
    return found && toState(found);
  },

  async delete(ctx, id) {
    await ctx.client.delete(path(refOf(id)), { signal: ctx.signal });
  },
});
