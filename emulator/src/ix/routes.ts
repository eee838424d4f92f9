// Internet exchange: an account applies for membership with a network (ASN, AS-SET, contact); the
// exchange assigns ports and route-server sessions. The API has no way to delete a member.
import { z } from "zod";
import { assignPresent, collection } from "../model/collection";
import { ApiError } from "../pipeline/errors";
import { route } from "../pipeline/route";
import { uniqueId, withoutAccount } from "../model/tables";
import { type MemberRow, ixMembers } from "./state";

const ROUTE_SERVERS = [
  { name: "rs1", asn: 64999, ip4: "198.51.100.1", ip6: "2001:db8:ffff::1" },
  { name: "rs2", asn: 64999, ip4: "198.51.100.2", ip6: "2001:db8:ffff::2" },
];

const AS_SET = /^(AS[0-9]+:)?AS-[A-Z0-9-]{1,60}$/;
const name = z.string().trim().min(1).max(100);
const asSet = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(AS_SET, { error: "must be an AS-SET such as AS-EXAMPLE or AS64500:AS-CUSTOMERS" }));
const contact = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: "must be an email address" });

const createBody = z.strictObject({
  asn: z
    .int()
    .min(1)
    .max(4294967294)
    .refine((n) => n !== 23456, { error: "23456 is AS_TRANS, not a network" }),
  name,
  as_set: asSet.nullable().optional(),
  contact,
  listed: z.boolean().optional(),
});
const patchBody = z.strictObject({
  name: name.optional(),
  as_set: asSet.nullable().optional(),
  contact: contact.optional(),
  listed: z.boolean().optional(),
});

function memberView(r: MemberRow) {
  return {
    ...withoutAccount(r),
    ports: [],
    sessions: ROUTE_SERVERS.map((rs) => ({
      route_server: rs.name,
      family: "v4",
      state: r.state === "active" ? "established" : "idle",
    })),
  };
}

const members = collection({
  path: "/ix/members",
  item: "/ix/members/{id}",
  what: "member",
  table: ({ store }) => ixMembers(store),
  view: memberView,
  // The members are listed by GET /ix/overview, and the API has no way to delete one.
  list: false,
  create: {
    body: createBody,
    build: (ctx): MemberRow => {
      const b = ctx.body;
      const clash = ctx.store.list(ixMembers(ctx.store), ctx.account.name).find((m) => m.asn === b.asn);
      if (clash) throw new ApiError("conflict", `asn: AS${b.asn} has already applied (member ${clash.id})`);
      return {
        id: uniqueId("ixm", ixMembers(ctx.store)),
        account: ctx.account.name,
        asn: b.asn,
        name: b.name,
        as_set: b.as_set ?? null,
        contact: b.contact,
        listed: b.listed ?? true,
        state: "applied",
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: { body: patchBody, apply: (ctx, row) => assignPresent(row, ctx.body) },
});

export const ixRoutes = [
  route({
    method: "GET",
    path: "/ix/overview",
    scope: "read",
    handler: (ctx) => ({
      lan: { ip4: "198.51.100.0/24", ip6: "2001:db8:ffff::/64" },
      route_servers: ROUTE_SERVERS,
      networks: ctx.store.list(ixMembers(ctx.store), ctx.account.name).map(memberView),
    }),
  }),
  ...members.routes,
  members.member("GET", "routes", () => ({ data: [] }), {
    query: z.strictObject({ family: z.enum(["v4", "v6"]).optional() }),
  }),
];
