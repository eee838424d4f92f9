// Sending, the message log, opt-outs, scheduled messages and one-time-code verifications of the
// messaging gateway: the imperative endpoints the provider does not manage.
import { z } from "zod";
import { nullWhereAbsent, uniqueId } from "../model/tables";
import { type AccountEnv, collection } from "../model/collection";
import { ApiError, notFound } from "../pipeline/errors";
import { paginate, pagingQuery } from "../model/paging";
import { route } from "../pipeline/route";
import { messageView, newCode, refreshVerification, scheduledView, verificationView } from "./messaging";
import {
  ISO,
  LANG,
  MESSAGE_CATEGORIES,
  type MessageRow,
  type ScheduledRow,
  type VerificationRow,
  accountOptOuts,
  checkFromNumber,
  checkTextSource,
  isOptedOut,
  messaging,
  ownSender,
  ownTemplate,
  render,
  sgate,
  templateText,
} from "./state";
import { E164, intBetween, queryInt } from "../pipeline/validation";

const MAX_TO = 1000;
const RESEND_AFTER_MS = 30_000;
const MAX_RESENDS = 4;

const sendBody = z.strictObject({
  to: z.array(z.string().regex(E164, "must be numbers in E.164 form")).min(1).max(MAX_TO),
  from: z.string().regex(E164, "must be a number in E.164 form").optional(),
  sender_id: z.string().min(1).optional(),
  body: z.string().min(1).max(1600).optional(),
  template_id: z.string().min(1).optional(),
  lang: z.string().regex(LANG, "must be a language tag such as en or en-US").optional(),
  send_at: z.string().regex(ISO, "must be an ISO 8601 UTC timestamp").optional(),
  client_ref: z.string().max(128).optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  category: z.enum(MESSAGE_CATEGORIES).optional(),
});

const verifyBody = z.strictObject({
  to: z.string().regex(E164, "must be a number in E.164 form such as +12025550101"),
  sender_id: z.string().min(1).optional(),
  from: z.string().regex(E164, "must be a number in E.164 form").optional(),
  lang: z.string().regex(LANG, "must be a language tag such as en or en-US").optional(),
  template_id: z.string().min(1).optional(),
  client_ref: z.string().max(128).optional(),
  code_length: intBetween(4, 10).optional(),
  ttl_s: intBetween(60, 86400).optional(),
  max_attempts: intBetween(1, 10).optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
});

/** The sending identity and text shared by sends and verifications. */
function checkFrom(env: AccountEnv, b: { from?: string | undefined; sender_id?: string | undefined }): void {
  if (b.sender_id) ownSender(env, b.sender_id);
  if (b.from) checkFromNumber(env, b.from);
}

function ownVerification(env: AccountEnv, id: string): VerificationRow {
  const v = messaging(env.store).verifications.get(id);
  if (!v || v.account !== env.account.name) throw notFound("verification");
  return refreshVerification(v, env.now());
}

/** The verification, refused unless it is still pending. */
function pending(v: VerificationRow, op: string): VerificationRow {
  if (v.status !== "pending")
    throw new ApiError("conflict", `verification ${v.id} is ${v.status}; only a pending verification can be ${op}`);
  return v;
}

const verifications = collection({
  path: "/sgate/verifications",
  item: "/sgate/verifications/{id}",
  what: "verification",
  table: ({ store }) => messaging(store).verifications,
  view: verificationView,
  // The list is newest first and not paged (GET /sgate/verifications below).
  list: false,
  // A verification's expiry is applied whenever it is looked at.
  own: (ctx, id) => ownVerification(ctx, id),
  create: {
    body: verifyBody,
    build: (ctx): VerificationRow => {
      const b = ctx.body;
      checkFrom(ctx, b);
      if (b.template_id) ownTemplate(ctx, b.template_id);
      const now = ctx.now();
      const length = b.code_length ?? 6;
      const attempts = b.max_attempts ?? 5;
      return {
        id: uniqueId("ver", messaging(ctx.store).verifications),
        account: ctx.account.name,
        to: b.to,
        ...nullWhereAbsent(b, ["sender_id", "from", "lang", "template_id", "client_ref"]),
        code_length: length,
        code: newCode(length),
        attempts_left: attempts,
        max_attempts: attempts,
        resends: 0,
        last_sent_at: now,
        expires_at: now + (b.ttl_s ?? 600) * 1000,
        status: "pending",
        created_at: ctx.store.timestamp(),
      };
    },
  },
});

export const sgateMessagingRoutes = [
  route({
    method: "POST",
    path: "/sgate/messages",
    scope: "write",
    body: sendBody,
    handler: (ctx) => {
      const b = ctx.body;
      checkFrom(ctx, b);
      checkTextSource(b);
      const text = render(
        b.template_id ? templateText(ownTemplate(ctx, b.template_id), b.lang).text : (b.body as string),
        b.variables ?? {},
      );
      const later = b.send_at !== undefined && Date.parse(b.send_at) > ctx.now();
      const category = b.category ?? "transactional";
      const granted = new Set(
        ctx.store
          .list(sgate(ctx.store).consents, ctx.account.name)
          .filter((c) => c.status === "granted")
          .map((c) => c.recipient),
      );
      const t = messaging(ctx.store);
      const messages: MessageRow[] = [];
      const scheduled: ScheduledRow[] = [];
      const common = {
        account: ctx.account.name,
        from: b.from ?? null,
        sender_id: b.sender_id ?? null,
        body: text,
        category,
        client_ref: b.client_ref ?? null,
        created_at: ctx.store.timestamp(),
      };
      for (const to of new Set(b.to)) {
        const blocked = isOptedOut(ctx.store, ctx.account.name, to)
          ? "opted_out"
          : category === "marketing" && !granted.has(to)
            ? "no_consent"
            : null;
        if (later && !blocked) {
          const row: ScheduledRow = {
            ...common,
            id: uniqueId("sch", t.scheduled),
            to,
            send_at: b.send_at!,
            status: "scheduled",
          };
          t.scheduled.set(row.id, row);
          scheduled.push(row);
        } else {
          const row: MessageRow = {
            ...common,
            id: uniqueId("msg", t.messages),
            direction: "out",
            to,
            status: blocked ?? "sent",
            at: ctx.now(),
          };
          t.messages.set(row.id, row);
          messages.push(row);
        }
      }
      ctx.status(201);
      return { messages: messages.map(messageView), scheduled: scheduled.map(scheduledView) };
    },
  }),

  route({
    method: "GET",
    path: "/sgate/messages",
    scope: "read",
    query: z.strictObject({
      q: z.string().optional(),
      number: z.string().optional(),
      direction: z.enum(["in", "out"]).optional(),
      before: z.string().regex(ISO, "must be an ISO 8601 UTC timestamp").optional(),
      limit: queryInt(1, 500).optional(),
    }),
    handler: (ctx) => {
      const { q, number, direction, before, limit } = ctx.query;
      const cut = before === undefined ? Infinity : Date.parse(before);
      const rows = ctx.store
        .list(messaging(ctx.store).messages, ctx.account.name)
        .filter(
          (m) =>
            m.at < cut &&
            (direction === undefined || m.direction === direction) &&
            (number === undefined || m.to === number || m.from === number) &&
            (q === undefined || m.body.toLowerCase().includes(q.toLowerCase())),
        )
        .reverse();
      return { data: rows.slice(0, limit ?? 100).map(messageView) };
    },
  }),

  route({
    method: "GET",
    path: "/sgate/optouts",
    scope: "read",
    query: z.strictObject(pagingQuery),
    handler: (ctx) =>
      paginate(
        [...accountOptOuts(ctx.store, ctx.account.name).values()],
        ctx.query,
        ({ account: _a, ...rest }) => rest,
      ),
  }),

  route({
    method: "GET",
    path: "/sgate/scheduled",
    scope: "read",
    query: z.strictObject({ ...pagingQuery, status: z.enum(["scheduled", "cancelled"]).optional() }),
    handler: (ctx) => {
      const rows = ctx.store
        .list(messaging(ctx.store).scheduled, ctx.account.name)
        .filter((s) => ctx.query.status === undefined || s.status === ctx.query.status);
      return paginate(rows, ctx.query, scheduledView);
    },
  }),

  route({
    method: "DELETE",
    path: "/sgate/scheduled/{id}",
    scope: "write",
    handler: (ctx) => {
      const row = messaging(ctx.store).scheduled.get(ctx.params.id);
      if (!row || row.account !== ctx.account.name) throw notFound("scheduled message");
      if (row.status !== "scheduled") throw new ApiError("conflict", `scheduled message ${row.id} is ${row.status}`);
      row.status = "cancelled";
      return undefined;
    },
  }),

  // ---- verifications -----------------------------------------------------------------------

  route({
    method: "GET",
    path: "/sgate/verifications",
    scope: "read",
    query: z.strictObject({ limit: queryInt(1, 500).optional() }),
    handler: (ctx) => {
      const rows = ctx.store.list(messaging(ctx.store).verifications, ctx.account.name).reverse();
      return {
        data: rows.slice(0, ctx.query.limit ?? 100).map((v) => verificationView(refreshVerification(v, ctx.now()))),
      };
    },
  }),

  ...verifications.routes,

  verifications.member(
    "POST",
    "check",
    (row, ctx) => {
      const v = pending(row, "checked");
      // Every check uses up one attempt, right or wrong.
      v.attempts_left -= 1;
      const valid = ctx.body.code === v.code;
      if (valid) v.status = "approved";
      else if (v.attempts_left === 0) v.status = "failed";
      return { ...verificationView(v), valid };
    },
    { body: z.strictObject({ code: z.string().min(1).max(16) }) },
  ),

  verifications.member("POST", "resend", (row, ctx) => {
    const v = pending(row, "resent");
    if (v.resends >= MAX_RESENDS)
      throw new ApiError("conflict", `verification ${v.id} was resent ${MAX_RESENDS} times already`);
    const wait = v.last_sent_at + RESEND_AFTER_MS - ctx.now();
    if (wait > 0) throw new ApiError("conflict", `verification ${v.id} can be resent in ${Math.ceil(wait / 1000)} s`);
    // The new code replaces the old one, which stops working.
    const old = v.code;
    while (v.code === old) v.code = newCode(v.code_length);
    v.resends += 1;
    v.last_sent_at = ctx.now();
    return verificationView(v);
  }),

  verifications.member("POST", "cancel", (row) => {
    const v = pending(row, "cancelled");
    v.status = "canceled";
    return verificationView(v);
  }),
];
