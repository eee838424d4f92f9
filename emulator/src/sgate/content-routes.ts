// Messaging gateway content: templates (every new text is a new version; submit sends the newest
// to review), consents (a delete keeps the record as revoked) and broadcasts (patched only as
// drafts, never deleted while sending).
import { z } from "zod";
import { type AccountEnv, assignDefined, collection } from "../model/collection";
import { nullWhereAbsent, uniqueId } from "../model/tables";
import { ApiError, invalid } from "../pipeline/errors";
import { paginate, pagingQuery } from "../model/paging";
import { route } from "../pipeline/route";
import {
  type BroadcastRow,
  CONSENT_SOURCES,
  type ConsentRow,
  ISO,
  LANG,
  MESSAGE_CATEGORIES,
  RECIPIENT_STATUSES,
  TEMPLATE_CATEGORIES,
  type TemplateRow,
  broadcastView,
  checkFromNumber,
  checkTextSource,
  consentView,
  newestVersion,
  ownSender,
  ownTemplate,
  render,
  sgate,
  templateText,
  templateView,
} from "./state";
import { E164, requireFields } from "../pipeline/validation";

const MAX_BODY = 1600;

const bodies = z.record(
  z.string().regex(LANG, "keys must be language tags such as en or en-US"),
  z.string().min(1).max(MAX_BODY),
);

const templateBody = z.strictObject({
  name: z.string().trim().min(1).max(128).optional(),
  default_lang: z.string().regex(LANG, "must be a language tag such as en or en-US").optional(),
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  bodies: bodies.optional(),
  submit: z.boolean().optional(),
});

function sameBodies(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

const consentBody = z.strictObject({
  recipient: z.string().regex(E164, "must be a number in E.164 form such as +12025550101"),
  proof: z.string().trim().min(1).max(2048),
  sender_id: z.string().min(1).nullable().optional(),
  granted_at: z.string().regex(ISO, "must be an ISO 8601 UTC timestamp").nullable().optional(),
  source: z.enum(CONSENT_SOURCES).optional(),
});

const MAX_IMPORT = 1000;

const broadcastBody = z.strictObject({
  name: z.string().trim().min(1).max(128).nullable().optional(),
  sender_id: z.string().min(1).nullable().optional(),
  from: z.string().regex(E164, "must be a number in E.164 form").nullable().optional(),
  template_id: z.string().min(1).nullable().optional(),
  lang: z.string().regex(LANG, "must be a language tag such as en or en-US").nullable().optional(),
  body: z.string().min(1).max(MAX_BODY).nullable().optional(),
  category: z.enum(MESSAGE_CATEGORIES).optional(),
  rate_per_min: z.int().min(1).max(6000).optional(),
  recipients: z
    .strictObject({ numbers: z.array(z.string().regex(E164, "must be numbers in E.164 form")).min(1).max(10000) })
    .optional(),
});

function newConsent(env: AccountEnv, b: z.output<typeof consentBody>): ConsentRow {
  if (b.sender_id) ownSender(env, b.sender_id);
  const t = sgate(env.store);
  const now = env.store.timestamp();
  const row: ConsentRow = {
    id: uniqueId("cns", t.consents),
    account: env.account.name,
    recipient: b.recipient,
    proof: b.proof,
    sender_id: b.sender_id ?? null,
    granted_at: b.granted_at ?? now,
    source: b.source ?? "api",
    status: "granted",
    revoked_at: null,
    created_at: now,
  };
  t.consents.set(row.id, row);
  return row;
}

/** The references and the message of a broadcast as it would be after applying the body. */
function checkBroadcast(env: AccountEnv, b: Pick<BroadcastRow, "sender_id" | "from" | "template_id" | "body">): void {
  if (b.sender_id) ownSender(env, b.sender_id);
  if (b.template_id) ownTemplate(env, b.template_id);
  if (b.from) checkFromNumber(env, b.from);
  checkTextSource(b);
}

const templates = collection({
  path: "/sgate/templates",
  item: "/sgate/templates/{id}",
  what: "template",
  table: ({ store }) => sgate(store).templates,
  view: (t) => templateView(t, true),
  // The list shows each template's newest version only.
  list: { view: (t) => templateView(t, false) },
  create: {
    body: templateBody,
    build: (ctx): TemplateRow => {
      const b = requireFields(ctx.body, ["name", "default_lang", "category", "bodies"]);
      const texts = b.bodies;
      if (!(b.default_lang in texts)) throw invalid("bodies", `has no text for the default language ${b.default_lang}`);
      const now = ctx.store.timestamp();
      return {
        id: uniqueId("tpl", sgate(ctx.store).templates),
        account: ctx.account.name,
        name: b.name,
        default_lang: b.default_lang,
        category: b.category,
        versions: [{ version: 1, bodies: texts, status: b.submit ? "submitted" : "draft", created_at: now }],
        created_at: now,
      };
    },
  },
  patch: {
    body: templateBody,
    apply: (ctx, row) => {
      const b = ctx.body;
      const newest = newestVersion(row);
      const texts = b.bodies ?? newest.bodies;
      const lang = b.default_lang ?? row.default_lang;
      if (!(lang in texts)) throw invalid("bodies", `has no text for the default language ${lang}`);
      if (b.name !== undefined) row.name = b.name;
      if (b.category !== undefined) row.category = b.category;
      row.default_lang = lang;
      // New text is a new version; the earlier ones are kept.
      if (b.bodies !== undefined && !sameBodies(b.bodies, newest.bodies)) {
        row.versions.push({
          version: newest.version + 1,
          bodies: b.bodies,
          status: "draft",
          created_at: ctx.store.timestamp(),
        });
      }
      if (b.submit) newestVersion(row).status = "submitted";
    },
  },
  remove: true,
});

// A consent has no GET of its own, and its DELETE revokes it rather than removing it.
const consents = collection({
  path: "/sgate/consents",
  item: "/sgate/consents/{id}",
  what: "consent",
  table: ({ store }) => sgate(store).consents,
  view: consentView,
  list: {
    query: z.strictObject({
      ...pagingQuery,
      q: z.string().optional(),
      status: z.enum(["granted", "revoked"]).optional(),
    }),
    rows: (ctx) => {
      const { q, status } = ctx.query;
      return ctx.store
        .list(sgate(ctx.store).consents, ctx.account.name)
        .filter((c) => (status === undefined || c.status === status) && (q === undefined || c.recipient.includes(q)));
    },
  },
  create: { body: consentBody, build: (ctx) => newConsent(ctx, ctx.body) },
  get: false,
});

const broadcasts = collection({
  path: "/sgate/broadcasts",
  item: "/sgate/broadcasts/{id}",
  what: "broadcast",
  table: ({ store }) => sgate(store).broadcasts,
  view: broadcastView,
  create: {
    body: broadcastBody,
    build: (ctx): BroadcastRow => {
      const b = requireFields(ctx.body, ["recipients"]);
      const draft = nullWhereAbsent(b, ["sender_id", "from", "template_id", "body"]);
      checkBroadcast(ctx, draft);
      return {
        id: uniqueId("bc", sgate(ctx.store).broadcasts),
        account: ctx.account.name,
        name: b.name ?? null,
        ...draft,
        lang: b.lang ?? null,
        category: b.category ?? "marketing",
        rate_per_min: b.rate_per_min ?? 60,
        recipients: { numbers: [...new Set(b.recipients.numbers)] },
        state: "draft",
        start_at: null,
        results: new Map(),
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: {
    body: broadcastBody,
    apply: (ctx, row) => {
      if (row.state !== "draft")
        throw new ApiError("conflict", `broadcast ${row.id} is ${row.state}; only a draft can be changed`);
      const b = ctx.body;
      const pick = <K extends keyof BroadcastRow>(k: K, v: BroadcastRow[K] | undefined): BroadcastRow[K] =>
        v === undefined ? row[k] : v;
      const next = {
        sender_id: pick("sender_id", b.sender_id),
        from: pick("from", b.from),
        template_id: pick("template_id", b.template_id),
        body: pick("body", b.body),
      };
      checkBroadcast(ctx, next);
      Object.assign(row, next);
      assignDefined(row, b, ["name", "lang", "category", "rate_per_min"]);
      if (b.recipients !== undefined) row.recipients = { numbers: [...new Set(b.recipients.numbers)] };
    },
  },
  remove: (_ctx, row) => {
    if (row.state === "sending")
      throw new ApiError("conflict", `broadcast ${row.id} is sending and cannot be deleted; pause or cancel it first`);
  },
});

export const sgateContentRoutes = [
  ...templates.routes,

  templates.member("POST", "submit", (row) => {
    newestVersion(row).status = "submitted";
    return templateView(row, true);
  }),

  templates.member(
    "POST",
    "preview",
    (row, ctx) => {
      const b = ctx.body;
      // The emulator never approves a version; `approved` finds none.
      if (b.version === "approved") throw new ApiError("conflict", `template ${row.id} has no approved version`);
      const { version, lang, text } = templateText(row, b.lang);
      return { version, lang, text: render(text, b.variables ?? {}) };
    },
    {
      body: z.strictObject({
        lang: z.string().regex(LANG).optional(),
        variables: z.record(z.string(), z.unknown()).optional(),
        version: z.enum(["latest", "approved"]).optional(),
      }),
    },
  ),

  ...consents.routes,

  route({
    method: "POST",
    path: "/sgate/consents/import",
    scope: "write",
    body: z.strictObject({ records: z.array(consentBody).min(1).max(MAX_IMPORT) }),
    handler: (ctx) => {
      // All or nothing: every sender is checked before any record is written.
      for (const r of ctx.body.records) if (r.sender_id) ownSender(ctx, r.sender_id);
      const rows = ctx.body.records.map((r) => newConsent(ctx, { source: "import", ...r }));
      return { imported: rows.length, ids: rows.map((r) => r.id) };
    },
  }),

  route({
    method: "DELETE",
    path: "/sgate/consents/{id}",
    scope: "write",
    handler: (ctx) => {
      const row = consents.own(ctx, ctx.params.id);
      if (row.status === "granted") {
        row.status = "revoked";
        row.revoked_at = ctx.store.timestamp();
      }
      return undefined;
    },
  }),

  ...broadcasts.routes,

  broadcasts.member(
    "GET",
    "recipients",
    (row, ctx) => {
      const all = row.recipients.numbers.map((number) => ({ number, status: row.results.get(number) ?? "pending" }));
      return paginate(ctx.query.status ? all.filter((r) => r.status === ctx.query.status) : all, ctx.query);
    },
    { query: z.strictObject({ ...pagingQuery, status: z.enum(RECIPIENT_STATUSES).optional() }) },
  ),

  broadcasts.member(
    "POST",
    "start",
    (row, ctx) => {
      if (row.state !== "draft")
        throw new ApiError("conflict", `broadcast ${row.id} is ${row.state}; only a draft can be started`);
      const startAt = ctx.body?.start_at;
      const later = startAt !== undefined && Date.parse(startAt) > ctx.now();
      // Marketing needs a granted consent per recipient; the others are marked at once.
      const granted = new Set(
        ctx.store
          .list(sgate(ctx.store).consents, row.account)
          .filter((c) => c.status === "granted")
          .map((c) => c.recipient),
      );
      for (const n of row.recipients.numbers)
        row.results.set(n, row.category === "marketing" && !granted.has(n) ? "no_consent" : "pending");
      row.state = later ? "scheduled" : "sending";
      row.start_at = startAt ?? ctx.store.timestamp();
      return broadcastView(row);
    },
    {
      body: z
        .strictObject({ start_at: z.string().regex(ISO, "must be an ISO 8601 UTC timestamp").optional() })
        .optional(),
    },
  ),

  ...(
    [
      ["pause", ["sending"], "paused"],
      ["resume", ["paused"], "sending"],
      ["cancel", ["sending", "paused", "scheduled"], "cancelled"],
    ] as const
  ).map(([op, from, to]) =>
    broadcasts.member("POST", op, (row) => {
      if (!(from as readonly string[]).includes(row.state))
        throw new ApiError("conflict", `broadcast ${row.id} is ${row.state}; ${op} needs ${from.join(" or ")}`);
      row.state = to;
      // Recipients not reached are marked skipped.
      if (op === "cancel") for (const [n, s] of row.results) if (s === "pending") row.results.set(n, "skipped");
      return broadcastView(row);
    }),
  ),
];
