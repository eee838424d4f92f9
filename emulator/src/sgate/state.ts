// The messaging gateway: numbers (seeded per account), brands, campaigns, senders, templates with
// versions, consents and broadcasts; the messages sent and received, opt-outs, scheduled messages
// and verifications. The tables hang off the Store through a WeakMap like the other areas. Every
// messaging id is a prefixed random string.
import { invalid, notFound } from "../pipeline/errors";
import type { AccountEnv } from "../model/collection";
import { entryOf, withoutAccount } from "../model/tables";
import { areaState, type Store } from "../model/store";

export const LANG = /^[a-z]{2}(-[A-Z]{2})?$/;
/** An ISO 8601 UTC timestamp, as `granted_at`, `start_at` and `send_at` take it. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
export const ENTITY_TYPES = ["private", "public", "nonprofit", "government", "sole_proprietor"] as const;
export const REVIEW_STATUSES = ["draft", "submitted"] as const;
export const USE_CASES = [
  "mixed",
  "account_notification",
  "customer_care",
  "delivery_notification",
  "2fa",
  "marketing",
  "low_volume",
  "charity",
  "polling",
] as const;
export const TEMPLATE_CATEGORIES = ["transactional", "marketing", "otp"] as const;
export const MESSAGE_CATEGORIES = ["transactional", "marketing"] as const;
export const CONSENT_SOURCES = ["web_form", "checkout", "keyword", "paper", "import", "api", "other"] as const;
export const RECIPIENT_STATUSES = [
  "pending",
  "sent",
  "delivered",
  "failed",
  "opted_out",
  "no_consent",
  "skipped",
] as const;
/** The providers every account can send through; both are ready. */
export const PROVIDERS = ["primary", "secondary"] as const;
/** The numbers every account starts with (the API has no endpoint that adds one). */
export const SEED_NUMBERS = ["+12025550101", "+12025550102", "+12025550103"] as const;

type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

interface Owned {
  account: string;
}

export interface NumberRow extends Owned {
  number: string;
  enabled: boolean;
  provider: string;
  campaign_id: string | null;
  help_text: string | null;
}

export interface BrandRow extends Owned {
  id: string;
  legal_name: string;
  display_name: string | null;
  tax_id: string | null;
  country: string | null;
  vertical: string | null;
  website: string | null;
  contact_email: string | null;
  entity_type: string | null;
  status: string;
  created_at: string;
}

export interface CampaignRow extends Owned {
  id: string;
  brand_id: string;
  description: string | null;
  message_flow: string | null;
  samples: string[];
  use_case: string;
  status: string;
  created_at: string;
}

export interface SenderRow extends Owned {
  id: string;
  name: string;
  description: string | null;
  numbers: string[];
  name_status: "in_review";
  created_at: string;
}

interface TemplateVersion {
  version: number;
  bodies: Record<string, string>;
  status: "draft" | "submitted";
  created_at: string;
}

export interface TemplateRow extends Owned {
  id: string;
  name: string;
  default_lang: string;
  category: string;
  versions: TemplateVersion[];
  created_at: string;
}

export interface ConsentRow extends Owned {
  id: string;
  recipient: string;
  proof: string;
  sender_id: string | null;
  granted_at: string;
  source: string;
  status: "granted" | "revoked";
  revoked_at: string | null;
  created_at: string;
}

export interface BroadcastRow extends Owned {
  id: string;
  name: string | null;
  sender_id: string | null;
  from: string | null;
  template_id: string | null;
  lang: string | null;
  body: string | null;
  category: string;
  rate_per_min: number;
  recipients: { numbers: string[] };
  state: "draft" | "scheduled" | "sending" | "paused" | "completed" | "cancelled";
  start_at: string | null;
  /** number -> status; filled when the broadcast starts. */
  results: Map<string, RecipientStatus>;
  created_at: string;
}

export const sgate = areaState(() => ({
  /** account -> number -> settings */
  numbers: new Map<string, Map<string, NumberRow>>(),
  brands: new Map<string, BrandRow>(),
  campaigns: new Map<string, CampaignRow>(),
  senders: new Map<string, SenderRow>(),
  templates: new Map<string, TemplateRow>(),
  consents: new Map<string, ConsentRow>(),
  broadcasts: new Map<string, BroadcastRow>(),
}));

// ---- sent and received messages, opt-outs, scheduled messages, verifications ----------------

/** What a sent and a scheduled message both carry. */
interface OutgoingFields {
  id: string;
  account: string;
  from: string | null;
  sender_id: string | null;
  to: string;
  body: string;
  category: string | null;
  client_ref: string | null;
  created_at: string;
}

export interface MessageRow extends OutgoingFields {
  direction: "in" | "out";
  status: "sent" | "received" | "opted_out" | "no_consent";
  /** Milliseconds, for `before` and newest-first order. */
  at: number;
}

export interface ScheduledRow extends OutgoingFields {
  send_at: string;
  status: "scheduled" | "cancelled";
}

interface OptOutRow {
  account: string;
  number: string;
  status: "opted_out" | "opted_in";
  updated_at: string;
}

export interface VerificationRow {
  id: string;
  account: string;
  to: string;
  sender_id: string | null;
  from: string | null;
  lang: string | null;
  template_id: string | null;
  client_ref: string | null;
  code_length: number;
  code: string;
  attempts_left: number;
  max_attempts: number;
  resends: number;
  last_sent_at: number;
  expires_at: number;
  status: "pending" | "approved" | "failed" | "expired" | "canceled";
  created_at: string;
}

interface MessagingTables {
  messages: Map<string, MessageRow>;
  scheduled: Map<string, ScheduledRow>;
  /** account -> number -> opt-out */
  optouts: Map<string, Map<string, OptOutRow>>;
  verifications: Map<string, VerificationRow>;
}

export const messaging = areaState(
  (): MessagingTables => ({ messages: new Map(), scheduled: new Map(), optouts: new Map(), verifications: new Map() }),
);

export function accountOptOuts(store: Store, account: string): Map<string, OptOutRow> {
  return entryOf(messaging(store).optouts, account, () => new Map());
}

export function isOptedOut(store: Store, account: string, number: string): boolean {
  return accountOptOuts(store, account).get(number)?.status === "opted_out";
}

/** The account's numbers, seeded the first time the account uses the gateway. */
export function accountNumbers(env: AccountEnv): Map<string, NumberRow> {
  const account = env.account.name;
  return entryOf(
    sgate(env.store).numbers,
    account,
    () =>
      new Map(
        SEED_NUMBERS.map((number) => [
          number,
          { account, number, enabled: true, provider: "primary", campaign_id: null, help_text: null },
        ]),
      ),
  );
}

export const ownBrand = (env: AccountEnv, id: string) =>
  env.store.owned(sgate(env.store).brands, id, env.account.name, "brand");
export const ownCampaign = (env: AccountEnv, id: string) =>
  env.store.owned(sgate(env.store).campaigns, id, env.account.name, "campaign");
export const ownSender = (env: AccountEnv, id: string) =>
  env.store.owned(sgate(env.store).senders, id, env.account.name, "sender");
export const ownTemplate = (env: AccountEnv, id: string) =>
  env.store.owned(sgate(env.store).templates, id, env.account.name, "template");

export function ownNumber(env: AccountEnv, number: string): NumberRow {
  const row = accountNumbers(env).get(number);
  if (!row) throw notFound("number");
  return row;
}

export function numberView(n: NumberRow) {
  return { ...withoutAccount(n), sends: n.enabled, receives: n.enabled };
}

export function brandView(store: Store, b: BrandRow) {
  return {
    ...withoutAccount(b),
    campaign_ids: store
      .list(sgate(store).campaigns, b.account)
      .filter((c) => c.brand_id === b.id)
      .map((c) => c.id),
  };
}

export const campaignView = (c: CampaignRow) => withoutAccount(c);

export const senderView = (s: SenderRow) => withoutAccount(s);

export function newestVersion(t: TemplateRow): TemplateVersion {
  return t.versions[t.versions.length - 1] as TemplateVersion;
}

/** The newest version's text of a template in `lang` (its default language unless given), as a send or a preview takes it. */
export function templateText(t: TemplateRow, lang = t.default_lang): { version: number; lang: string; text: string } {
  const newest = newestVersion(t);
  const text = newest.bodies[lang];
  if (text === undefined) throw invalid("lang", `template ${t.id} has no text in ${lang}`);
  return { version: newest.version, lang, text };
}

/** A message's or broadcast's text comes from its body or from a template: one of the two. */
export function checkTextSource(b: {
  body?: string | null | undefined;
  template_id?: string | null | undefined;
}): void {
  if (b.body && b.template_id) throw invalid("body", "give either body or template_id, not both");
  if (!b.body && !b.template_id) throw invalid("body", "is required when template_id is not set");
}

/** The number a message or broadcast is sent from: one of the account's own. */
export function checkFromNumber(env: AccountEnv, from: string): void {
  if (!accountNumbers(env).has(from)) throw invalid("from", `${from} is not a number of this account`);
}

export function templateView(t: TemplateRow, withVersions: boolean) {
  const newest = newestVersion(t);
  const base = {
    id: t.id,
    name: t.name,
    default_lang: t.default_lang,
    category: t.category,
    bodies: newest.bodies,
    version: newest.version,
    status: newest.status,
    created_at: t.created_at,
  };
  return withVersions ? { ...base, versions: t.versions } : base;
}

export const consentView = (c: ConsentRow) => withoutAccount(c);

function broadcastReport(b: BroadcastRow): Record<RecipientStatus | "total", number> {
  const report = Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, 0])) as Record<RecipientStatus | "total", number>;
  report.total = b.recipients.numbers.length;
  for (const s of b.results.values()) report[s] += 1;
  return report;
}

export function broadcastView(b: BroadcastRow) {
  const { account: _a, results: _r, ...rest } = b;
  return { ...rest, report: broadcastReport(b) };
}

/** A template text with its `{{ name }}` variables filled; unknown ones stay as written. */
export function render(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (m, name: string) =>
    name in variables ? String(variables[name]) : m,
  );
}
