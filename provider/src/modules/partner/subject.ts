import { z } from "zod";
import { collection, keyedBy, foundBy } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:partner:Subject";
const REF = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const REF_RULE = "must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit";

const subjectArgs = z.object({
  externalRef: z
    .string()
    .regex(REF, REF_RULE)
    .meta({
      key: true,
      description:
        "The partner's own reference for the customer, such as its customer number. It names the customer in " +
        "every partner endpoint.",
      create: true,
      replace: true,
    }),
});

const subjectState = z.object({
  mode: z
    .string()
    .meta({ description: "How the partner acts for the customer: `managed` for customers created here." }),
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

function refOf(id: string): string {
  if (!REF.test(id)) throw new Error(`${TOKEN}: id "${id}" is not a customer reference (<ref>: ${REF_RULE})`);
  return id;
}

// A customer is known by the partner's reference.
const subjects = collection({
  token: TOKEN,
  path: "/partner/subjects",
  args: subjectArgs,
  state: subjectState,
  id: keyedBy("externalRef", refOf),
});

export const subject = subjects.resource({
  since: "0.1.0",
  list: { key: "external_ref", label: (s) => String(s.external_ref) },
  description:
    "A managed customer of a partner (partner credentials in managed mode only): the partner may then act " +
    "for the customer, for example by minting a short-lived credential for it. Deleting the resource " +
    "stops acting for the customer.",
  importId: "<ref>",

  create: (ctx, args) =>
    subjects.create(
      ctx,
      `partner customer ${args.externalRef}`,
      args,
      foundBy(() =>
        ctx.client.getOrUndefined(subjects.itemPath(args.externalRef), { schema: subjects.wire, signal: ctx.signal }),
      ),
    ),
});
