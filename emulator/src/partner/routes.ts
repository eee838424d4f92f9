// Partner access: the partner behind the credential and the managed customers it acts for.
import { z } from "zod";
import { type AccountEnv, collection } from "../model/collection";
import { ApiError } from "../pipeline/errors";
import { route } from "../pipeline/route";
import type { TokenRecord } from "../model/store";
import { type SubjectRow, addSubject, mintCredential, partnerFor, removeSubject } from "./state";
import { isoTime } from "../util/time";

const EXTERNAL_REF = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

const subjectBody = z.strictObject({
  external_ref: z.string().regex(EXTERNAL_REF, {
    error: "must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit",
  }),
});

const mintBody = z.strictObject({ scope: z.enum(["read", "write"]).default("read") });

/** A credential minted for a customer acts as that customer, not as the partner. */
function partnerOnly(ctx: AccountEnv): void {
  if ((ctx as AccountEnv & { token: TokenRecord }).token.acting_for)
    throw new ApiError("forbidden", "a credential minted for a customer cannot use the partner endpoints");
}

function subjectView(s: SubjectRow, ctx: AccountEnv) {
  const ranges = ctx.store
    .list(ctx.store.ranges, ctx.account.name)
    .filter((r) => r.external_ref === s.external_ref)
    .map((r) => ({ id: r.id, zone_id: r.zone_id, prefix: r.prefix, enabled: r.enabled }));
  return { external_ref: s.external_ref, mode: s.mode, ranges, created_at: s.created_at };
}

// A subject's `account` is the customer's own account: the partner owns the row through its table.
/** The partner behind the credential, also when the credential acts for one of its customers. */
function partnerView(ctx: AccountEnv, acting: TokenRecord["acting_for"]) {
  const slug = acting?.partner ?? ctx.account.name;
  const p = partnerFor(ctx.store, slug);
  return { slug, name: slug, mode: p.mode, acting_for: acting?.subject ?? null, subjects: p.subjects.size };
}

const subjects = collection({
  path: "/partner/subjects",
  item: "/partner/subjects/{ref}",
  what: "subject",
  guard: partnerOnly,
  table: (ctx) => partnerFor(ctx.store, ctx.account.name).subjects,
  key: (s: SubjectRow) => s.external_ref,
  perAccount: true,
  view: subjectView,
  create: {
    body: subjectBody,
    build: (ctx) => {
      const p = partnerFor(ctx.store, ctx.account.name);
      if (p.mode !== "managed")
        throw new ApiError(
          "forbidden",
          `partner ${ctx.account.name} works in ${p.mode} mode; managed customers can be created only in managed mode`,
        );
      const ref = ctx.body.external_ref;
      if (p.subjects.has(ref))
        throw new ApiError("conflict", `external_ref: a customer with reference ${ref} already exists`);
      return addSubject(ctx.store, ctx.account.name, ref);
    },
  },
  remove: (ctx, s) => removeSubject(ctx.store, ctx.account.name, s),
});

export const partnerRoutes = [
  route({ method: "GET", path: "/partner", scope: "read", handler: (ctx) => partnerView(ctx, ctx.token.acting_for) }),

  ...subjects.routes,

  subjects.member(
    "POST",
    "token",
    (s, ctx) => {
      const minted = mintCredential(ctx.store, ctx.account.name, s, ctx.body.scope);
      ctx.status(201);
      return {
        token: minted.token,
        scope: minted.scope,
        subject: minted.subject,
        expires_in: Math.round((minted.expires_at - minted.created_at) / 1000),
        expires_at: isoTime(minted.expires_at),
      };
    },
    { body: mintBody },
  ),
];
