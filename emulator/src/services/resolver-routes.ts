// A resolver service's filter, filtering policy and client groups (with their dynamic-address
// update tokens). Only resolver services have them: another type is a validation_error.
// Text fields follow the API's string forms; the emulator stores them normalised (see
// docs/api-assumptions.md, "Webhooks and resolver services").
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { type AccountEnv, collection, settings } from "../model/collection";
import type { Ctx } from "../pipeline/route";
import {
  BLOCK_MODES,
  type ClientRow,
  DEFAULT_FILTER,
  DEFAULT_POLICY,
  LOG_MODES,
  type ResolverFilter,
  type ResolverPolicy,
  clientView,
  newDdnsToken,
  ownResolver,
  resolverTables,
} from "./state";
import { isIP, parseCidr } from "../util/ip";
import { BLOCK_LIST_KEYS } from "../dns/block-lists";

const SAFESEARCH = ["", "off", "on"] as const;
const DOMAIN = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
const items = (text: string) =>
  text
    .split(",")
    .map((l) => l.trim())
    .filter((l) => l !== "");

function domainLines(field: string, text: string): string {
  const out = lines(text.toLowerCase()).map((l) => l.replace(/\.$/, ""));
  for (const d of out)
    if (!DOMAIN.test(d) || d.length > 253)
      throw invalid(field, `"${d}" is not a domain name (one per line, \`*.\` allowed)`);
  return out.join("\n");
}

function rewriteLines(text: string): string {
  return lines(text)
    .map((l) => {
      const m = /^(\S+)\s*->\s*(\S+)$/.exec(l);
      if (!m) throw invalid("rewrites", `"${l}" must be written \`name -> target\``);
      const name = m[1]!.toLowerCase().replace(/\.$/, "");
      const target = m[2]!.toLowerCase().replace(/\.$/, "");
      if (!DOMAIN.test(name)) throw invalid("rewrites", `"${m[1]}" is not a domain name`);
      if (!isIP(target) && !DOMAIN.test(target))
        throw invalid("rewrites", `"${m[2]}" must be an IP address or a domain name`);
      return `${name} -> ${target}`;
    })
    .join("\n");
}

function listKeys(field: string, keys: string[]): string[] {
  const out: string[] = [];
  for (const k of keys.map((s) => s.trim().toLowerCase())) {
    if (!BLOCK_LIST_KEYS.has(k)) throw invalid(field, `unknown blocklist "${k}"; GET /dns/lists lists them`);
    if (!out.includes(k)) out.push(k);
  }
  return out;
}

function keyItems(field: string, text: string): string {
  const out = items(text.toLowerCase());
  for (const k of out) if (!KEY.test(k)) throw invalid(field, `"${k}" must be a key of letters, digits, '-' or '_'`);
  return out.join(",");
}

function addressItems(field: string, text: string, cidrs: boolean): string {
  const out = items(text.toLowerCase());
  for (const a of out)
    if (!isIP(a) && !(cidrs && parseCidr(a).ok))
      throw invalid(field, `"${a}" must be an IP address${cidrs ? " or a prefix" : ""}`);
  return out.join(",");
}

function timestamp(field: string, text: string): string {
  const t = text.trim();
  if (t !== "" && (!/^\d{4}-\d{2}-\d{2}T/.test(t) || Number.isNaN(Date.parse(t))))
    throw invalid(field, "must be an ISO 8601 timestamp, or empty");
  return t;
}

function timeZone(text: string): string {
  const t = text.trim();
  if (t === "") return t;
  try {
    new Intl.DateTimeFormat("en", { timeZone: t });
  } catch {
    throw invalid("tz", `"${t}" is not an IANA time zone such as Europe/Berlin`);
  }
  return t;
}

function scheduleJson(text: string): string {
  const t = text.trim();
  if (t === "") return t;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    throw invalid("schedule_json", "must be JSON text");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid("schedule_json", "must be a JSON object");
  return t;
}

const filterBody = z.strictObject({
  custom_block: z.string().max(200_000).optional(),
  custom_allow: z.string().max(200_000).optional(),
  rewrites: z.string().max(200_000).optional(),
  block_mode: z.enum(BLOCK_MODES).optional(),
  filter_lists: z.array(z.string()).optional(),
});

const str = z.string().max(100_000).optional();
const policyBody = z.strictObject({
  rules: str,
  blocked_services: str,
  schedule_json: str,
  tz: str,
  safesearch: z.enum(SAFESEARCH).optional(),
  access_allow: str,
  access_deny: str,
  forwards: str,
  paused_until: str,
  block_bypass: z.boolean().optional(),
  anonymize_ip: z.boolean().optional(),
  log_mode: z.enum(LOG_MODES).optional(),
  log_days: z.int().min(1).max(90).optional(),
  ratelimit: z.int().min(0).max(100_000).optional(),
  ttl_min: z.int().min(0).max(86_400).optional(),
  ttl_max: z.int().min(0).max(86_400).optional(),
});

const clientFields = {
  id: z.int().optional(),
  client_id: z.string().max(63).optional(),
  addrs: str,
  tags: str,
  paused_until: str,
  lists: str,
  rules: str,
  blocked_services: str,
  safesearch: z.enum(SAFESEARCH).optional(),
  block_mode: z.enum(["", ...BLOCK_MODES]).optional(),
  log_mode: z.enum(["", ...LOG_MODES]).optional(),
  enabled: z.boolean().optional(),
};
const clientName = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1).max(64));
const createClientBody = z.strictObject({ name: clientName, ...clientFields });
const patchClientBody = z.strictObject({ name: clientName.optional(), ...clientFields });
type ClientBody = z.output<typeof patchClientBody>;

/** The normalised client fields of a body; throws before anything changes. */
function clientChanges(
  serviceId: number,
  body: ClientBody,
  store: Ctx<string, unknown, unknown>["store"],
  account: string,
  self?: number,
): Partial<ClientRow> {
  if (body.id !== undefined && body.id !== serviceId)
    throw invalid("id", `must be the service id in the path (${serviceId})`);
  const out: Partial<ClientRow> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.client_id !== undefined) {
    const cid = body.client_id.trim().toLowerCase();
    if (cid !== "" && !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(cid))
      throw invalid("client_id", "must be letters, digits and '-', not starting or ending with '-'");
    if (
      cid !== "" &&
      store
        .list(resolverTables(store).clients, account)
        .some((c) => c.service_id === serviceId && c.client_id === cid && c.id !== self)
    ) {
      throw new ApiError(
        "conflict",
        `client_id "${cid}" is already used by another client group of service ${serviceId}`,
      );
    }
    out.client_id = cid;
  }
  if (body.addrs !== undefined) out.addrs = addressItems("addrs", body.addrs, true);
  if (body.tags !== undefined) out.tags = keyItems("tags", body.tags);
  if (body.paused_until !== undefined) out.paused_until = timestamp("paused_until", body.paused_until);
  if (body.lists !== undefined) out.lists = listKeys("lists", items(body.lists)).join(",");
  if (body.rules !== undefined) out.rules = lines(body.rules).join("\n");
  if (body.blocked_services !== undefined) out.blocked_services = keyItems("blocked_services", body.blocked_services);
  if (body.safesearch !== undefined) out.safesearch = body.safesearch;
  if (body.block_mode !== undefined) out.block_mode = body.block_mode;
  if (body.log_mode !== undefined) out.log_mode = body.log_mode;
  if (body.enabled !== undefined) out.enabled = body.enabled;
  return out;
}

type ServiceCtx = AccountEnv & { params: { id: number } };
const resolverOf = ({ store, account, params }: ServiceCtx) => ownResolver(store, params.id, account.name);
const filterView = (serviceId: number, f: ResolverFilter) => ({
  service_id: serviceId,
  ...f,
  filter_lists: [...f.filter_lists],
});

const clients = collection({
  path: "/services/:id/clients",
  item: "/services/:id/clients/:client_id",
  what: "client",
  table: ({ store }) => resolverTables(store).clients,
  view: clientView,
  parent: { own: resolverOf, of: (c) => c.service_id },
  create: {
    body: createClientBody,
    build: ({ store, account, body }, s): ClientRow => {
      const changes = clientChanges(s.id, body, store, account.name);
      return {
        id: store.nextId(),
        account: account.name,
        service_id: s.id,
        name: body.name,
        client_id: "",
        addrs: "",
        tags: "",
        paused_until: "",
        lists: "",
        rules: "",
        blocked_services: "",
        safesearch: "",
        block_mode: "",
        log_mode: "",
        enabled: true,
        ...changes,
        ddns_token: null,
        ddns_issued_at: null,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  patch: {
    body: patchClientBody,
    apply: ({ store, account, body }, c) =>
      void Object.assign(c, clientChanges(c.service_id, body, store, account.name, c.id)),
  },
  remove: true,
});

export const resolverServiceRoutes = [
  ...settings({
    path: "/services/:id/filter",
    method: "PUT",
    read: (ctx) => {
      const s = resolverOf(ctx);
      return filterView(s.id, resolverTables(ctx.store).filters.get(s.id) ?? DEFAULT_FILTER);
    },
    body: filterBody,
    write: (ctx) => {
      const { store, body } = ctx;
      const s = resolverOf(ctx);
      // PUT replaces: an absent field takes its default.
      const f: ResolverFilter = {
        custom_block: domainLines("custom_block", body.custom_block ?? ""),
        custom_allow: domainLines("custom_allow", body.custom_allow ?? ""),
        rewrites: rewriteLines(body.rewrites ?? ""),
        block_mode: body.block_mode ?? DEFAULT_FILTER.block_mode,
        filter_lists: listKeys("filter_lists", body.filter_lists ?? []),
      };
      resolverTables(store).filters.set(s.id, f);
      return filterView(s.id, f);
    },
  }),

  ...settings({
    path: "/services/:id/policy",
    method: "PUT",
    read: (ctx) => {
      const s = resolverOf(ctx);
      return { service_id: s.id, ...(resolverTables(ctx.store).policies.get(s.id) ?? DEFAULT_POLICY) };
    },
    body: policyBody,
    write: (ctx) => {
      const { store, body } = ctx;
      const s = resolverOf(ctx);
      const d = DEFAULT_POLICY;
      const p: ResolverPolicy = {
        rules: lines(body.rules ?? "").join("\n"),
        blocked_services: keyItems("blocked_services", body.blocked_services ?? ""),
        schedule_json: scheduleJson(body.schedule_json ?? ""),
        tz: timeZone(body.tz ?? ""),
        safesearch: body.safesearch ?? d.safesearch,
        access_allow: addressItems("access_allow", body.access_allow ?? "", true),
        access_deny: addressItems("access_deny", body.access_deny ?? "", true),
        forwards: addressItems("forwards", body.forwards ?? "", false),
        paused_until: timestamp("paused_until", body.paused_until ?? ""),
        block_bypass: body.block_bypass ?? d.block_bypass,
        anonymize_ip: body.anonymize_ip ?? d.anonymize_ip,
        log_mode: body.log_mode ?? d.log_mode,
        log_days: body.log_days ?? d.log_days,
        ratelimit: body.ratelimit ?? d.ratelimit,
        ttl_min: body.ttl_min ?? d.ttl_min,
        ttl_max: body.ttl_max ?? d.ttl_max,
      };
      if (p.ttl_max !== 0 && p.ttl_min > p.ttl_max) throw invalid("ttl_min", `must not exceed ttl_max (${p.ttl_max})`);
      resolverTables(store).policies.set(s.id, p);
      return { service_id: s.id, ...p };
    },
  }),

  ...clients.routes,

  clients.member(
    "POST",
    "ddns-token",
    (c, { store, body }) => {
      if (body.revoke) {
        c.ddns_token = null;
        c.ddns_issued_at = null;
        return { client_id: c.id, token: null, issued_at: null, revoked: true };
      }
      // Issuing replaces any earlier token, which stops working at once.
      c.ddns_token = newDdnsToken();
      c.ddns_issued_at = store.timestamp();
      return { client_id: c.id, token: c.ddns_token, issued_at: c.ddns_issued_at, revoked: false };
    },
    { body: z.strictObject({ revoke: z.boolean().optional() }) },
  ),
];
