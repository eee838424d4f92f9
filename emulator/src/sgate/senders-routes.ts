// Messaging gateway numbers and providers, US 10DLC brands and campaigns, and senders.
import { z } from "zod";
import { nullWhereAbsent, uniqueId } from "../model/tables";
import { type AccountEnv, collection } from "../model/collection";
import { ApiError, invalid } from "../pipeline/errors";
import { paginate, pagingOnlyQuery } from "../model/paging";
import { type Route, route } from "../pipeline/route";
import {
  type BrandRow,
  type CampaignRow,
  ENTITY_TYPES,
  PROVIDERS,
  REVIEW_STATUSES,
  type SenderRow,
  USE_CASES,
  accountNumbers,
  brandView,
  campaignView,
  numberView,
  ownBrand,
  ownCampaign,
  ownNumber,
  senderView,
  sgate,
} from "./state";
import { E164, requireFields } from "../pipeline/validation";

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim())
    .nullable()
    .optional();

const brandFields = {
  legal_name: z.string().trim().min(1).max(255).optional(),
  display_name: text(255),
  tax_id: text(64),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, "must be a two-letter country code such as US")
    .nullable()
    .optional(),
  vertical: text(64),
  website: z
    .string()
    .regex(/^https?:\/\/\S+$/, "must be an http(s) URL")
    .nullable()
    .optional(),
  contact_email: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address")
    .nullable()
    .optional(),
  entity_type: z.enum(ENTITY_TYPES).nullable().optional(),
  status: z.enum(REVIEW_STATUSES).optional(),
};
const brandBody = z.strictObject(brandFields);

const campaignFields = {
  brand_id: z.string().min(1).optional(),
  description: text(4096),
  message_flow: text(4096),
  samples: z.array(z.string().min(1).max(1024)).max(5).optional(),
  use_case: z.enum(USE_CASES).optional(),
  status: z.enum(REVIEW_STATUSES).optional(),
};
const campaignBody = z.strictObject(campaignFields);

const SENDER_NAME = /^[A-Za-z][A-Za-z0-9 ]{0,10}$/;
const senderFields = {
  name: z.string().regex(SENDER_NAME, "must be 1 to 11 letters, digits or spaces, starting with a letter").optional(),
  description: text(1024),
  numbers: z.array(z.string().regex(E164, "must be a number in E.164 form such as +12025550101")).max(100).optional(),
};
const senderBody = z.strictObject(senderFields);

const numberBody = z.strictObject({
  enabled: z.boolean().optional(),
  provider: z.enum(PROVIDERS).optional(),
  campaign_id: z.string().min(1).nullable().optional(),
  help_text: text(160),
});

/** Brand and campaign status moves only from draft to submitted. */
function moveStatus(row: { status: string }, next: string | undefined, what: string): void {
  if (next === undefined || next === row.status) return;
  if (row.status === "submitted" && next === "draft")
    throw new ApiError("conflict", `${what} was submitted for review and cannot go back to draft`);
  row.status = next;
}

function checkNumbers(env: AccountEnv, numbers: string[]): string[] {
  const own = accountNumbers(env);
  const unknown = numbers.filter((n) => !own.has(n));
  if (unknown.length) throw invalid("numbers", `not numbers of this account: ${unknown.join(", ")}`);
  const dup = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (dup) throw invalid("numbers", `${dup} is listed twice`);
  return numbers;
}

/** The text fields of a patch onto the row; an empty string clears a field. */
function assignTexts(row: object, fields: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(fields))
    if (v !== undefined) (row as Record<string, unknown>)[k] = v === "" ? null : v;
}

// Brands, campaigns and senders have no GET of one object in the API: only their lists.
const brands = collection({
  path: "/sgate/brands",
  item: "/sgate/brands/{id}",
  what: "brand",
  table: ({ store }) => sgate(store).brands,
  view: (b, env) => brandView(env.store, b),
  get: false,
  create: {
    body: brandBody,
    build: (ctx): BrandRow => {
      const b = requireFields(ctx.body, ["legal_name"]);
      return {
        id: uniqueId("brd", sgate(ctx.store).brands),
        account: ctx.account.name,
        legal_name: b.legal_name,
        ...nullWhereAbsent(b, [
          "display_name",
          "tax_id",
          "country",
          "vertical",
          "website",
          "contact_email",
          "entity_type",
        ]),
        // A brand enters as a draft; `submitted` on create submits it at once.
        status: b.status ?? "draft",
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: {
    body: brandBody,
    apply: (ctx, row) => {
      const { status, ...fields } = ctx.body;
      moveStatus(row, status, `brand ${row.id}`);
      assignTexts(row, fields);
    },
  },
  remove: (ctx, row) => {
    const campaigns = ctx.store.list(sgate(ctx.store).campaigns, row.account).filter((c) => c.brand_id === row.id);
    if (campaigns.length)
      throw new ApiError(
        "conflict",
        `brand ${row.id} (${row.legal_name}) has campaign(s) ${campaigns.map((c) => c.id).join(", ")}; delete them first`,
      );
  },
});

const campaigns = collection({
  path: "/sgate/campaigns",
  item: "/sgate/campaigns/{id}",
  what: "campaign",
  table: ({ store }) => sgate(store).campaigns,
  view: campaignView,
  get: false,
  create: {
    body: campaignBody,
    build: (ctx): CampaignRow => {
      const b = requireFields(ctx.body, ["brand_id", "use_case"]);
      ownBrand(ctx, b.brand_id);
      return {
        id: uniqueId("cmp", sgate(ctx.store).campaigns),
        account: ctx.account.name,
        brand_id: b.brand_id,
        description: b.description ?? null,
        message_flow: b.message_flow ?? null,
        samples: b.samples ?? [],
        use_case: b.use_case,
        status: b.status ?? "draft",
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: {
    body: campaignBody,
    apply: (ctx, row) => {
      const { status, ...fields } = ctx.body;
      if (fields.brand_id !== undefined) ownBrand(ctx, fields.brand_id);
      moveStatus(row, status, `campaign ${row.id}`);
      assignTexts(row, fields);
    },
  },
  // Numbers sending under the campaign are detached, not refused.
  remove: (ctx, row) => {
    for (const n of accountNumbers(ctx).values()) if (n.campaign_id === row.id) n.campaign_id = null;
  },
});

const senders = collection({
  path: "/sgate/senders",
  item: "/sgate/senders/{id}",
  what: "sender",
  table: ({ store }) => sgate(store).senders,
  view: senderView,
  get: false,
  create: {
    body: senderBody,
    build: (ctx): SenderRow => {
      const b = requireFields(ctx.body, ["name"]);
      return {
        id: uniqueId("snd", sgate(ctx.store).senders),
        account: ctx.account.name,
        name: b.name,
        description: b.description ?? null,
        numbers: checkNumbers(ctx, b.numbers ?? []),
        name_status: "in_review",
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: {
    body: senderBody,
    apply: (ctx, row) => {
      const b = ctx.body;
      if (b.numbers !== undefined) row.numbers = checkNumbers(ctx, b.numbers);
      if (b.description !== undefined) row.description = b.description || null;
      // A new name goes to review again.
      if (b.name !== undefined && b.name !== row.name) {
        row.name = b.name;
        row.name_status = "in_review";
      }
    },
  },
  remove: true,
});

export const sgateSenderRoutes: Route[] = [
  route({
    method: "GET",
    path: "/sgate/overview",
    scope: "read",
    handler: (ctx) => {
      const numbers = [...accountNumbers(ctx).values()];
      return {
        numbers: { total: numbers.length, enabled: numbers.filter((n) => n.enabled).length },
        usage: { month: ctx.store.timestamp().slice(0, 7), messages: 0, pack: 1000 },
        providers: PROVIDERS.map((name) => ({ name, ready: true })),
      };
    },
  }),

  route({
    method: "GET",
    path: "/sgate/usage",
    scope: "read",
    handler: (ctx) => {
      const d = new Date(ctx.now());
      const months = Array.from({ length: 13 }, (_, i) => {
        const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
        return { month: m.toISOString().slice(0, 7), messages: 0, segments: 0 };
      });
      return { data: months };
    },
  }),

  route({
    method: "GET",
    path: "/sgate/providers",
    scope: "read",
    handler: () => ({ data: PROVIDERS.map((name) => ({ name, ready: true })) }),
  }),

  route({
    method: "GET",
    path: "/sgate/numbers",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([...accountNumbers(ctx).values()], ctx.query, numberView),
  }),

  route({
    method: "PATCH",
    path: "/sgate/numbers/{number}",
    scope: "write",
    body: numberBody,
    handler: (ctx) => {
      const row = ownNumber(ctx, ctx.params.number);
      const b = ctx.body;
      if (b.campaign_id) ownCampaign(ctx, b.campaign_id);
      if (b.enabled !== undefined) row.enabled = b.enabled;
      if (b.provider !== undefined) row.provider = b.provider;
      if (b.campaign_id !== undefined) row.campaign_id = b.campaign_id;
      if (b.help_text !== undefined) row.help_text = b.help_text || null;
      return numberView(row);
    },
  }),

  ...brands.routes,
  ...campaigns.routes,
  ...senders.routes,
];
