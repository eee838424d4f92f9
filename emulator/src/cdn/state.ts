// Edge sites and security rules. The state hangs off the Store (one per emulator) and registers
// its zone-delete cascade and quota counters with it the first time the area is touched; until
// then the account has no sites or rules, so there is nothing to cascade or count.
import type { KeyObject } from "node:crypto";
import { fqdn } from "../model/names";
import type { Env } from "../pipeline/route";
import { areaTables, type Store, type ZoneRow } from "../model/store";
import type { RuleField } from "./rule-values";
import { newCaKey } from "./x509";

/** The zone under which cname-mode sites get their targets. */
const EDGE_ZONE = "edge.nsp-emulator.test";

export const ORIGIN_SCHEMES = ["http", "https", "strict"] as const;
export const CACHE_MODES = ["all", "static", "origin"] as const;
export const WAF_MODES = ["block", "log"] as const;
export const SENSE_ACTIONS = ["log", "challenge", "block"] as const;
export const RULE_OPS = ["in", "not_in"] as const;
export const RULE_ACTIONS = ["block", "allow", "challenge", "ratelimit"] as const;

export interface SiteSettings {
  origin_scheme: (typeof ORIGIN_SCHEMES)[number];
  origin_host_header: boolean;
  waf: { enabled: boolean; mode: (typeof WAF_MODES)[number] };
  cache_ttl: number;
  cache_mode: (typeof CACHE_MODES)[number];
  cache_html_ttl: number;
  force_https: boolean;
  rate_limit: number;
  waiting_room: { capacity: number; session_min: number };
  under_attack: boolean;
  bot_fight: boolean;
  sense: { enabled: boolean; action: (typeof SENSE_ACTIONS)[number]; threshold: number };
}

export interface SiteRow extends SiteSettings {
  id: number;
  account: string;
  service_id: number | null;
  /** The hosting zone of a zone-mode site; null in cname mode. */
  zone_id: number | null;
  hostname: string;
  dns_mode: "zone" | "cname";
  origin: string | null;
  cert_pem: string | null;
  /** Never leaves the emulator. */
  key_pem: string | null;
  pages_project_id: number | null;
  link_tunnel_id: number | null;
  /** cname mode: the first label of `target`. */
  slug: string | null;
  /** cname mode only; a zone-mode site reports its zone's verified_at. */
  verified_at: string | null;
  certificate_requested: boolean;
  /** A certificate issued by the service (after verify, or through ACME). */
  managed_certificate: boolean;
  created_at: string;
}

export interface RuleRow {
  id: number;
  account: string;
  site_id: number | null;
  zone_id: number | null;
  field: RuleField;
  op: (typeof RULE_OPS)[number];
  value: string;
  action: (typeof RULE_ACTIONS)[number];
  seq: number;
  note: string | null;
  enabled: boolean;
  created_at: string;
}

// The request log a site keeps: tests put requests in with traffic.ts `addTraffic`.
export const LOG_ACTIONS = [
  "pass",
  "netrule_block",
  "waf",
  "challenge",
  "ratelimit",
  "waiting",
  "origin_error",
  "redirect",
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];
const CACHE_STATUSES = ["hit", "miss", "bypass", "none"] as const;

export interface TrafficEntry {
  /** Arrival order; what log cursors point at. */
  seq: number;
  ray: string;
  ts: string;
  ip: string;
  cc: string;
  asn: number;
  isp: string;
  method: string;
  host: string;
  path: string;
  status: number;
  action: LogAction;
  cache: (typeof CACHE_STATUSES)[number];
  bytes: number;
  duration_ms: number;
  /** 0..100; the bands of the threats view are low < 30 <= medium < 70 <= high. */
  risk: number;
  /** Why the request was scored or stopped, e.g. `tor_exit`, `sqli`. */
  reason: string | null;
  /** The firewall or security rule that matched, if any. */
  rule: string | null;
  user_agent: string;
  headers: Record<string, string>;
}

export interface CdnState {
  sites: Map<number, SiteRow>;
  rules: Map<number, RuleRow>;
  /** site id -> request log, oldest first. */
  traffic: Map<number, TrafficEntry[]>;
  /** The service's origin CA, made on first use. */
  originCa: KeyObject | null;
}

export const cdnState = areaTables(
  (): CdnState => ({ sites: new Map(), rules: new Map(), traffic: new Map(), originCa: null }),
  { sites: "sites", rules: "rules" },
  (store, st) =>
    store.onZoneDelete((zone) => {
      for (const site of [...st.sites.values()]) if (site.zone_id === zone.id) deleteSite(st, site);
      for (const [id, rule] of st.rules) if (rule.zone_id === zone.id) st.rules.delete(id);
    }),
);

export function originCa(st: CdnState): KeyObject {
  st.originCa ??= newCaKey();
  return st.originCa;
}

const DEFAULT_SETTINGS: Readonly<SiteSettings> = {
  origin_scheme: "http",
  origin_host_header: false,
  waf: { enabled: false, mode: "block" },
  cache_ttl: 3600,
  cache_mode: "static",
  cache_html_ttl: 0,
  force_https: false,
  rate_limit: 0,
  waiting_room: { capacity: 0, session_min: 10 },
  under_attack: false,
  bot_fight: false,
  sense: { enabled: false, action: "challenge", threshold: 50 },
};

/** The account's first edge-proxy service, which owns sites unless told otherwise. */
export function defaultCdnService(store: Store, account: string): number | null {
  return store.list(store.services, account).find((s) => s.type === "cdn")?.id ?? null;
}

export function newSite(
  store: Store,
  init: Pick<SiteRow, "account" | "service_id" | "zone_id" | "hostname" | "dns_mode" | "origin"> &
    Partial<SiteSettings>,
): SiteRow {
  const id = store.nextId();
  const site: SiteRow = {
    ...structuredClone(DEFAULT_SETTINGS),
    ...init,
    id,
    cert_pem: null,
    key_pem: null,
    pages_project_id: null,
    link_tunnel_id: null,
    slug: init.dns_mode === "cname" ? slugFor(init.hostname, id) : null,
    verified_at: null,
    certificate_requested: false,
    managed_certificate: false,
    created_at: store.timestamp(),
  };
  cdnState(store).sites.set(id, site);
  return site;
}

function slugFor(hostname: string, id: number): string {
  const base = hostname.replace(/\*/g, "wildcard").replace(/\./g, "-").slice(0, 48).replace(/-+$/, "");
  return `${base}-${id}`;
}

export function deleteSite(st: CdnState, site: SiteRow): void {
  for (const [id, rule] of st.rules) if (rule.site_id === site.id) st.rules.delete(id);
  st.traffic.delete(site.id);
  st.sites.delete(site.id);
}

/**
 * Makes the zone-mode sites of one zone match its proxied records: one site per proxied
 * hostname, created when the first record of that name is proxied and removed (with its rules)
 * when the last one is un-proxied or deleted. A hostname the account already onboarded by CNAME
 * stays with that site.
 */
export function syncZoneSites(store: Store, zone: ZoneRow): void {
  const wanted = new Set<string>();
  for (const r of store.zoneRecords(zone.id).values()) if (r.proxied) wanted.add(fqdn(r.name, zone.name));
  // Record edits of accounts that never touched the edge proxy leave the area uninitialised.
  if (wanted.size === 0 && !cdnState.started(store)) return;
  const st = cdnState(store);
  for (const site of [...st.sites.values()]) {
    if (site.zone_id === zone.id && !wanted.has(site.hostname)) deleteSite(st, site);
  }
  const taken = new Set(store.list(st.sites, zone.account).map((s) => s.hostname));
  for (const hostname of wanted) {
    if (taken.has(hostname)) continue;
    newSite(store, {
      account: zone.account,
      service_id: defaultCdnService(store, zone.account),
      zone_id: zone.id,
      hostname,
      dns_mode: "zone",
      origin: null,
    });
  }
}

/**
 * Every CDN and security request starts here. Record edits already sync through the hook in
 * the records routes; this also catches records removed by a zone-file import or migration.
 */
export function cdnFor(env: Env & { account: { name: string } }): CdnState {
  const st = cdnState(env.store);
  for (const zone of env.store.list(env.store.zones, env.account.name)) syncZoneSites(env.store, zone);
  return st;
}

export function ownSite(env: Env & { account: { name: string } }, id: number): SiteRow {
  return env.store.owned(cdnFor(env).sites, id, env.account.name, "site");
}

export function siteTarget(site: SiteRow): string | null {
  return site.slug === null ? null : `${site.slug}.${EDGE_ZONE}`;
}

export function acmeTarget(site: SiteRow): string | null {
  return site.slug === null ? null : `${site.slug}.acme.${EDGE_ZONE}`;
}

export function acmeName(site: SiteRow): string {
  return `_acme-challenge.${site.hostname}`;
}

/** Where the customer adds the records: the hostname's parent domain (or the name itself at an apex). */
function addIn(hostname: string): string {
  const labels = hostname.split(".");
  return labels.length > 2 ? labels.slice(1).join(".") : hostname;
}

function instructions(site: SiteRow) {
  const target = siteTarget(site) as string;
  const where = addIn(site.hostname);
  const apex = where === site.hostname;
  return {
    mode: "cname",
    add_in: where,
    records: [
      { name: site.hostname, type: "CNAME", content: target },
      { name: acmeName(site), type: "CNAME", content: acmeTarget(site) as string },
    ],
    note:
      `Add these records at the DNS provider that serves ${where}, then verify the site (POST /cdn/sites/${site.id}/verify). ` +
      "The first record sends traffic through the edge; the second lets the edge obtain certificates by ACME dns-01." +
      (apex
        ? ` ${site.hostname} is a zone apex, where a CNAME is not allowed: use the provider's ALIAS, ANAME or CNAME flattening for the first record.`
        : ""),
  };
}

export function siteView(store: Store, site: SiteRow) {
  const zone = site.zone_id === null ? undefined : store.zones.get(site.zone_id);
  const zoneMode = site.dns_mode === "zone";
  return {
    id: site.id,
    zone_id: site.zone_id,
    service_id: site.service_id,
    hostname: site.hostname,
    dns_mode: site.dns_mode,
    origin: site.origin,
    origin_scheme: site.origin_scheme,
    origin_host_header: site.origin_host_header,
    waf: site.waf.enabled,
    waf_mode: site.waf.mode,
    cache_ttl: site.cache_ttl,
    cache_mode: site.cache_mode,
    cache_html_ttl: site.cache_html_ttl,
    force_https: site.force_https,
    rate_limit: site.rate_limit,
    // A zone-mode site gets the service's certificate once its zone is delegated here.
    has_certificate: site.cert_pem !== null || site.managed_certificate || (zoneMode && zone?.status === "active"),
    cert_pem: site.cert_pem,
    waiting_room: { ...site.waiting_room },
    under_attack: site.under_attack,
    bot_fight: site.bot_fight,
    sense: { ...site.sense },
    pages_project_id: site.pages_project_id,
    link_tunnel_id: site.link_tunnel_id,
    target: siteTarget(site),
    instructions: zoneMode ? null : instructions(site),
    verified_at: zoneMode ? (zone?.verified_at ?? null) : site.verified_at,
    created_at: site.created_at,
  };
}

export function ruleView(r: RuleRow) {
  return {
    id: r.id,
    site_id: r.site_id,
    zone_id: r.zone_id,
    field: r.field,
    op: r.op,
    value: r.value,
    action: r.action,
    seq: r.seq,
    note: r.note,
    enabled: r.enabled,
    created_at: r.created_at,
  };
}
