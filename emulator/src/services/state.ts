// Resolver services' configuration: the filter, the filtering policy and client groups. Kept off
// the Store in a WeakMap like the other areas; a service without a row has the defaults.
import { randomBytes } from "node:crypto";
import { invalid, notFound } from "../pipeline/errors";
import { areaTables, type ServiceRow, type Store } from "../model/store";

export const BLOCK_MODES = ["nxdomain", "zero", "page"] as const;
export const LOG_MODES = ["off", "blocked", "all"] as const;

export interface ResolverFilter {
  custom_block: string;
  custom_allow: string;
  rewrites: string;
  block_mode: (typeof BLOCK_MODES)[number];
  filter_lists: string[];
}

export interface ResolverPolicy {
  rules: string;
  blocked_services: string;
  schedule_json: string;
  tz: string;
  safesearch: string;
  access_allow: string;
  access_deny: string;
  forwards: string;
  paused_until: string;
  block_bypass: boolean;
  anonymize_ip: boolean;
  log_mode: (typeof LOG_MODES)[number];
  log_days: number;
  ratelimit: number;
  ttl_min: number;
  ttl_max: number;
}

export const DEFAULT_FILTER: ResolverFilter = {
  custom_block: "",
  custom_allow: "",
  rewrites: "",
  block_mode: "nxdomain",
  filter_lists: [],
};

export const DEFAULT_POLICY: ResolverPolicy = {
  rules: "",
  blocked_services: "",
  schedule_json: "",
  tz: "",
  safesearch: "",
  access_allow: "",
  access_deny: "",
  forwards: "",
  paused_until: "",
  block_bypass: false,
  anonymize_ip: false,
  log_mode: "off",
  log_days: 7,
  ratelimit: 0,
  ttl_min: 0,
  ttl_max: 0,
};

export interface ClientRow {
  id: number;
  account: string;
  service_id: number;
  name: string;
  client_id: string;
  addrs: string;
  tags: string;
  paused_until: string;
  lists: string;
  rules: string;
  blocked_services: string;
  safesearch: string;
  block_mode: string;
  log_mode: string;
  enabled: boolean;
  ddns_token: string | null;
  ddns_issued_at: string | null;
  created_at: string;
}

export const resolverTables = areaTables(
  () => ({
    filters: new Map<number, ResolverFilter>(),
    policies: new Map<number, ResolverPolicy>(),
    clients: new Map<number, ClientRow>(),
  }),
  { clients: "clients" },
);

/** The account's service, which must be a resolver: filters, policies and clients exist only there. */
export function ownResolver(store: Store, id: number, account: string): ServiceRow {
  const s = store.owned(store.services, id, account, "service");
  if (s.type !== "resolver")
    throw invalid(
      "service",
      `service ${id} is a ${s.type} service; filters, policies and clients belong to resolver services`,
    );
  return s;
}

/**
 * A service ended outside the API (a cancelled subscription; the API has no DELETE for services):
 * its resolver configuration and client groups go with it. Test control only.
 */
export function endService(store: Store, id: number): void {
  if (!store.services.delete(id)) throw notFound("service");
  const t = resolverTables(store);
  t.filters.delete(id);
  t.policies.delete(id);
  for (const [cid, c] of t.clients) if (c.service_id === id) t.clients.delete(cid);
}

export function newDdnsToken(): string {
  return `ddns_${randomBytes(20).toString("hex")}`;
}

export function clientView(c: ClientRow) {
  const { account: _a, ddns_token: token, ddns_issued_at, ...rest } = c;
  return { ...rest, ddns: { configured: token !== null, issued_at: ddns_issued_at } };
}
