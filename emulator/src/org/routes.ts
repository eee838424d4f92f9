// The organisation: name and slug, members (invited by address), pending invitations, the
// applications switched on for everybody, and the domains the organisation works under.
import { z } from "zod";
import { ApiError, invalid, notFound } from "../errors";
import { normalizeEmail } from "../dns/names";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import { APPS, type MemberRow, type OrgRow, ROLES, STATES, newInviteId, orgFor, orgs, subOf } from "./state";

export const ORG_NAME_MAX = 100;
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

const patchOrgBody = z.strictObject({
  name: z.string().trim().min(1).max(ORG_NAME_MAX).optional(),
  slug: z.string().regex(SLUG, { error: "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit" }).optional(),
});

const inviteBody = z.strictObject({ email: z.string(), role: z.enum(ROLES).optional() });
const memberPatchBody = z.strictObject({ role: z.enum(ROLES).optional(), state: z.enum(STATES).optional() });
const appsBody = z.strictObject(Object.fromEntries(APPS.map((a) => [a, z.boolean().optional()])) as Record<(typeof APPS)[number], z.ZodOptional<z.ZodBoolean>>);

type Ctx = Env & { account: { name: string; email: string } };

function orgView(org: OrgRow) {
  return { id: org.id, name: org.name, slug: org.slug, owner: [...org.members.values()].find((m) => m.role === "owner")?.email ?? null, apps: { ...org.apps }, members: org.members.size, created_at: org.created_at, updated_at: org.updated_at };
}

function memberView(m: MemberRow) {
  return { sub: m.sub, email: m.email, role: m.role, state: m.state, accepted: m.invite_id === null, created_at: m.created_at, updated_at: m.updated_at };
}

function member(ctx: Ctx, sub: string): { org: OrgRow; m: MemberRow } {
  const org = orgFor(ctx.store, ctx.account);
  const m = org.members.get(sub);
  if (!m) throw notFound("member");
  return { org, m };
}

function refuseOwner(m: MemberRow, what: string): void {
  if (m.role === "owner") throw new ApiError("conflict", `${m.email} owns the organisation; the owner cannot be ${what}`);
}

export const orgRoutes = [
  route({ method: "GET", path: "/org", scope: "read", handler: (ctx) => orgView(orgFor(ctx.store, ctx.account)) }),

  route({
    method: "PATCH",
    path: "/org",
    scope: "write",
    body: patchOrgBody,
    handler: (ctx) => {
      const org = orgFor(ctx.store, ctx.account);
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

  route({
    method: "GET",
    path: "/org/members",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([...orgFor(ctx.store, ctx.account).members.values()], ctx.query, memberView),
  }),

  route({
    method: "POST",
    path: "/org/members",
    scope: "write",
    body: inviteBody,
    handler: (ctx) => {
      const email = normalizeEmail(ctx.body.email);
      if (email === null) throw invalid("email", "must be an email address such as ops@example.com");
      const org = orgFor(ctx.store, ctx.account);
      const sub = subOf(email);
      const existing = org.members.get(sub);
      if (existing) refuseOwner(existing, "invited again");
      const now = ctx.store.timestamp();
      const role = ctx.body.role ?? "member";
      // Inviting the same address again replaces the earlier link: the old invitation stops working.
      if (existing?.invite_id) org.invites.delete(existing.invite_id);
      const invite = { id: newInviteId(), email, role, created_at: now };
      org.invites.set(invite.id, invite);
      const row: MemberRow = { sub, email, role, state: "active", invite_id: invite.id, created_at: existing?.created_at ?? now, updated_at: now };
      org.members.delete(sub);
      org.members.set(sub, row);
      ctx.status(201);
      return memberView(row);
    },
  }),

  route({
    method: "PATCH",
    path: "/org/members/{sub}",
    scope: "write",
    body: memberPatchBody,
    handler: (ctx) => {
      const { m } = member(ctx, ctx.params.sub);
      if (ctx.body.role !== undefined || ctx.body.state !== undefined) refuseOwner(m, "changed");
      if (ctx.body.role !== undefined) m.role = ctx.body.role;
      if (ctx.body.state !== undefined) m.state = ctx.body.state;
      m.updated_at = ctx.store.timestamp();
      return memberView(m);
    },
  }),

  route({
    method: "DELETE",
    path: "/org/members/{sub}",
    scope: "write",
    handler: (ctx) => {
      const { org, m } = member(ctx, ctx.params.sub);
      refuseOwner(m, "removed");
      if (m.invite_id) org.invites.delete(m.invite_id);
      org.members.delete(m.sub);
    },
  }),

  route({
    method: "GET",
    path: "/org/invites",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([...orgFor(ctx.store, ctx.account).invites.values()], ctx.query),
  }),

  route({
    method: "DELETE",
    path: "/org/invites/{id}",
    scope: "write",
    handler: (ctx) => {
      const org = orgFor(ctx.store, ctx.account);
      const invite = org.invites.get(ctx.params.id);
      if (!invite) throw notFound("invitation");
      org.invites.delete(invite.id);
      // The person was never let in: withdrawing the link withdraws the membership it offered.
      const m = org.members.get(subOf(invite.email));
      if (m?.invite_id === invite.id) org.members.delete(m.sub);
    },
  }),

  route({
    method: "PATCH",
    path: "/org/apps",
    scope: "write",
    body: appsBody,
    handler: (ctx) => {
      const org = orgFor(ctx.store, ctx.account);
      for (const app of APPS) {
        const v = ctx.body[app];
        if (v !== undefined) org.apps[app] = v;
      }
      org.updated_at = ctx.store.timestamp();
      return { ...org.apps };
    },
  }),

  route({
    method: "GET",
    path: "/org/domains",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) =>
      paginate(ctx.store.list(ctx.store.zones, ctx.account.name), ctx.query, (z) => ({ name: z.name, zone_id: z.id, verified: z.status === "active" })),
  }),
];
