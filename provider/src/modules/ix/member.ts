import { ownIdOf, STRING_ID } from "../../framework/api/ids";
import { z } from "zod";
import { collection, foundBy, apiId } from "../../framework/api/shapes/collection";
import { displayName, EMAIL_SHAPE, lowerCase } from "../../framework/api/validators";

const TOKEN = "nsp:ix:Member";
const AS_SET = /^(AS[0-9]+:)?AS-[A-Z0-9-]{1,60}$/;

const memberArgs = z.object({
  asn: z
    .number()
    .int("must be an integer")
    .min(1, "must be at least 1")
    .max(4294967294, "must be at most 4294967294")
    .refine((n) => n !== 23456, "23456 is AS_TRANS, not a network")
    .meta({
      description:
        "The network's autonomous system number. One membership per ASN; a new ASN is a new application (replacement).",
      create: true,
      replace: true,
    }),
  name: displayName.meta({ description: "The network's name, as listed to other members.", create: true, patch: true }),
  asSet: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.string().regex(AS_SET, "must be an AS-SET such as AS-EXAMPLE or AS64500:AS-CUSTOMERS"))
    .nullable()
    .optional()
    .meta({
      description:
        "AS-SET the route servers expand to filter the network's routes; stored upper-case. Unset (or null) for none.",
      create: true,
      patch: true,
    }),
  contact: lowerCase(
    z
      .string()
      .max(254, "must be at most 254 characters")
      .regex(EMAIL_SHAPE, "must be an email address such as noc@example.net"),
  ).meta({ description: "Technical contact (NOC) address.", create: true, patch: true }),
  listed: z
    .boolean()
    .default(true)
    .meta({ description: "Whether the network is listed in the exchange's member list.", create: true, patch: true }),
});

const sessionShape = z
  .object({
    routeServer: z.string().meta({ description: "Route server name." }),
    family: z.string().meta({ description: "`v4` or `v6`." }),
    state: z.string().meta({ description: "Session state, such as `idle` or `established`." }),
  })
  .meta({ typeName: "IxSession", description: "A route-server session of the member." });

const memberState = z.object({
  state: z
    .string()
    .meta({ description: "Membership state: `applied` until the exchange accepts the application, then `active`." }),
  sessions: z.array(sessionShape).optional().meta({ description: "Route-server sessions." }),
  createdAt: z.string().meta({ description: "When the application was made." }),
});

function idOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "member", form: "<memberId>", pattern: STRING_ID, example: "ixm_0123456789ab" });
}

// Membership ids are strings such as ixm_0123456789ab.
const members = collection({
  token: TOKEN,
  path: "/ix/members",
  args: memberArgs,
  state: memberState,
  idOnWire: z.string(),
  id: apiId(idOf),
});

const FORGET_NOTE =
  "the API has no endpoint to delete an internet-exchange membership, so it was only removed from the " +
  "stack: the membership, its ports and sessions remain at the exchange. Ask the exchange to end it.";

export const member = members.resource({
  since: "0.1.0",
  notListed: "the API documents no list of memberships, only reads by id; import `<memberId>` by hand",
  description:
    "An internet-exchange membership: the application of a network (ASN, AS-SET, contact) for ports and " +
    "route-server sessions. The API has no way to delete a membership: deleting this resource (or " +
    "replacing it for a new ASN) only removes it from the stack and says so; the membership remains at " +
    "the exchange.",
  importId: "<memberId>",

  create: (ctx, args) =>
    members.create(
      ctx,
      `IX member AS${args.asn}`,
      args,
      foundBy(
        // One membership per ASN: the natural key, found in the overview's networks.
        async () => {
          const overview = await ctx.client.get("/ix/overview", {
            schema: z.looseObject({ networks: z.array(members.wire).optional() }),
            signal: ctx.signal,
          });
          return overview.networks?.find((m) => m.asn === args.asn);
        },
      ),
    ),

  async delete(ctx, id) {
    ctx.log("warning", `member ${idOf(id)}: ${FORGET_NOTE}`);
  },
});
