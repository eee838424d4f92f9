// Partner access: the partner behind the credential and the managed customers it acts for.
import { z } from "zod";
import { ApiError, notFound } from "../errors";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import { type SubjectRow, addSubject, mintCredential, partnerFor, removeSubject } from "./state";
import { isoTime } from "../util/time";

export const EXTERNAL_REF = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

const subjectBody = z.strictObject({
  external_ref: z.string().regex(EXTERNAL_REF, { error: "must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit" }),
});

const mintBody = z.strictObject({ scope: z.enum(["read", "write"]).default("read") });

type Ctx = Env & { account: { name: string }; token: { acting_for?: { partner: string; subject: string } } };

/** A credential minted for a customer acts as that customer, not as the partner. */
function partnerOnly(ctx: Ctx): void {
  if (ctx.token.acting_for) throw new ApiError("forbidden", "a credential minted for a customer cannot use the partner endpoints");
}

function subjectView(ctx: Ctx, s: SubjectRow) {
  const ranges = ctx.store
    .list(ctx.store.ranges, ctx.account.name)
    .filter((r) => r.external_ref === s.external_ref)
    .map((r) => ({ id: r.id, zone_id: r.zone_id, prefix: r.prefix, enabled: r.enabled }));
  return { external_ref: s.external_ref, mode: s.mode, ranges, created_at: s.created_at };
}

function subject(ctx: Ctx, ref: string): SubjectRow {
  partnerOnly(ctx);
  const s = partnerFor(ctx.store, ctx.account.name).subjects.get(ref);
  if (!s) throw notFound("subject");
  return s;
}

export const partnerRoutes = [
  route({
    method: "GET",
    path: "/partner",
    scope: "read",
    handler: (ctx) => {
      const acting = ctx.token.acting_for;
      const slug = acting?.partner ?? ctx.account.name;
      const p = partnerFor(ctx.store, slug);
      return { slug, name: slug, mode: p.mode, acting_for: acting?.subject ?? null, subjects: p.subjects.size };
    },
  }),

  route({
    method: "GET",
    path: "/partner/subjects",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      partnerOnly(ctx);
      return paginate([...partnerFor(ctx.store, ctx.account.name).subjects.values()], ctx.query, (s) => subjectView(ctx, s));
    },
  }),

  route({
    method: "POST",
    path: "/partner/subjects",
    scope: "write",
    body: subjectBody,
    handler: (ctx) => {
      partnerOnly(ctx);
      const p = partnerFor(ctx.store, ctx.account.name);
      if (p.mode !== "managed") throw new ApiError("forbidden", `partner ${ctx.account.name} works in ${p.mode} mode; managed customers can be created only in managed mode`);
      const ref = ctx.body.external_ref;
      if (p.subjects.has(ref)) throw new ApiError("conflict", `external_ref: a customer with reference ${ref} already exists`);
      const row = addSubject(ctx.store, ctx.account.name, ref);
      ctx.status(201);
      return subjectView(ctx, row);
    },
  }),

  route({ method: "GET", path: "/partner/subjects/{ref}", scope: "read", handler: (ctx) => subjectView(ctx, subject(ctx, ctx.params.ref)) }),

  route({
    method: "DELETE",
    path: "/partner/subjects/{ref}",
    scope: "write",
    handler: (ctx) => {
      removeSubject(ctx.store, ctx.account.name, subject(ctx, ctx.params.ref));
    },
  }),

  route({
    method: "POST",
    path: "/partner/subjects/{ref}/token",
    scope: "write",
    body: mintBody,
    handler: (ctx) => {
      const minted = mintCredential(ctx.store, ctx.account.name, subject(ctx, ctx.params.ref), ctx.body.scope);
      ctx.status(201);
      return {
        token: minted.token,
        scope: minted.scope,
        subject: minted.subject,
        expires_in: Math.round((minted.expires_at - minted.created_at) / 1000),
        expires_at: isoTime(minted.expires_at),
      };
    },
  }),
];
