// The organisation: name and slug, members (invited by address), pending invitations, the
// applications switched on for everybody, and the domains the organisation works under.
import { z } from "zod";
import { type AccountEnv, collection, settings } from "../model/collection";
import { ApiError, invalid } from "../pipeline/errors";
import { normalizeEmail } from "../model/names";
import { route } from "../pipeline/route";
import type { AccountRecord } from "../model/store";
import {
  APPS,
  type InviteRow,
  type MemberRow,
  type OrgRow,
  ROLES,
  STATES,
  newInviteId,
  orgFor,
  orgs,
  subOf,
} from "./state";

const ORG_NAME_MAX = 100;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

const patchOrgBody = z.strictObject({
  name: z.string().trim().min(1).max(ORG_NAME_MAX).optional(),
  slug: z
    .string()
    .regex(SLUG, {
      error: "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit",
    })
    .optional(),
});

const inviteBody = z.strictObject({ email: z.string(), role: z.enum(ROLES).optional() });
const memberPatchBody = z.strictObject({ role: z.enum(ROLES).optional(), state: z.enum(STATES).optional() });
const appsBody = z.strictObject(
  Object.fromEntries(APPS.map((a) => [a, z.boolean().optional()])) as Record<
    (typeof APPS)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);

/** The caller's organisation; every request carries the whole account record. */
const orgOf = (ctx: AccountEnv) => orgFor(ctx.store, ctx.account as AccountRecord);

function orgView(org: OrgRow) {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    owner: [...org.members.values()].find((m) => m.role === "owner")?.email ?? null,
    apps: { ...org.apps },
    members: org.members.size,
    created_at: org.created_at,
    updated_at: org.updated_at,
  };
}

function memberView(m: MemberRow) {
  return {
    sub: m.sub,
    email: m.email,
    role: m.role,
    state: m.state,
    accepted: m.invite_id === null,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

function refuseOwner(m: MemberRow, what: string): void {
  if (m.role === "owner")
    throw new ApiError("conflict", `${m.email} owns the organisation; the owner cannot be ${what}`);
}

const members = collection({
  path: "/org/members",
  item: "/org/members/{sub}",
  what: "member",
  table: (ctx) => orgOf(ctx).members,
  key: (m: MemberRow) => m.sub,
  perAccount: true,
  view: memberView,
  get: false,
  create: {
    body: inviteBody,
    build: (ctx): MemberRow => {
      const email = normalizeEmail(ctx.body.email);
      if (email === null) throw invalid("email", "must be an email address such as ops@example.com");
      const org = orgOf(ctx);
      const sub = subOf(email);
      const existing = org.members.get(sub);
      if (existing) refuseOwner(existing, "invited again");
      const now = ctx.store.timestamp();
      const role = ctx.body.role ?? "member";
      // Inviting the same address again replaces the earlier link: the old invitation stops working.
      if (existing?.invite_id) org.invites.delete(existing.invite_id);
      const invite = { id: newInviteId(), email, role, created_at: now };
      org.invites.set(invite.id, invite);
      // Stored anew, so the member moves to the end of the invitation order.
      org.members.delete(sub);
      return {
        sub,
        email,
        role,
        state: "active",
        invite_id: invite.id,
        created_at: existing?.created_at ?? now,
        updated_at: now,
      };
    },
  },
  patch: {
    body: memberPatchBody,
    apply: (ctx, m) => {
      if (ctx.body.role !== undefined || ctx.body.state !== undefined) refuseOwner(m, "changed");
      if (ctx.body.role !== undefined) m.role = ctx.body.role;
      if (ctx.body.state !== undefined) m.state = ctx.body.state;
      m.updated_at = ctx.store.timestamp();
    },
  },
  remove: (ctx, m) => {
    refuseOwner(m, "removed");
    if (m.invite_id) orgOf(ctx).invites.delete(m.invite_id);
  },
});

const invites = collection({
  path: "/org/invites",
  item: "/org/invites/{id}",
  what: "invitation",
  table: (ctx) => orgOf(ctx).invites,
  key: (i: InviteRow) => i.id,
  perAccount: true,
  view: (i) => i,
  get: false,
  remove: (ctx, invite) => {
    // The person was never let in: withdrawing the link withdraws the membership it offered.
    const org = orgOf(ctx);
    const m = org.members.get(subOf(invite.email));
    if (m?.invite_id === invite.id) org.members.delete(m.sub);
  },
});

export const orgRoutes = [
  ...settings({
    path: "/org",
    read: (ctx) => orgView(orgOf(ctx)),
    body: patchOrgBody,
    write: (ctx) => {
      const org = orgOf(ctx);
      const { name, slug } = ctx.body;
      if (slug !== undefined) {
        const clash = [...orgs(ctx.store).values()].find((o) => o !== org && o.slug === slug);
        if (clash) throw new ApiError("conflict", `slug: ${slug} is taken by another organisation`);
        org.slug = slug;
      }
      if (name !== undefined) org.name = name;
      org.updated_at = ctx.store.timestamp();
      return orgView(org);
    },
  }),

  ...members.routes,
  ...invites.routes,

  route({
    method: "PATCH",
    path: "/org/apps",
    scope: "write",
    body: appsBody,
    handler: (ctx) => {
      const org = orgOf(ctx);
      for (const app of APPS) {
        const v = ctx.body[app];
        if (v !== undefined) org.apps[app] = v;
      }
      org.updated_at = ctx.store.timestamp();
      return { ...org.apps };
    },
  }),

  // The account's zones, seen as the organisation's domains: a list and nothing more.
  ...collection({
    path: "/org/domains",
    what: "domain",
    table: (ctx) => ctx.store.zones,
    view: (z) => ({ name: z.name, zone_id: z.id, verified: z.status === "active" }),
    get: false,
  }).routes,
];
