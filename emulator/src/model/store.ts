// The emulator's whole state, in memory. Rows carry the name of the account that owns them and
// every lookup goes through `owned()`, so one account's id is simply `not_found` for another.
// Ids come from one counter for the whole emulator and are never reused.
import { notFound } from "../pipeline/errors";
import { isoTime } from "../util/time";

export type Scope = "read" | "write" | "link";
export type ServiceType = "resolver" | "auth_dns" | "cdn" | "vm";

export interface TokenRecord {
  token: string;
  account: string;
  scope: Scope;
  /** Epoch ms after which the token is refused as expired; none for console-made tokens. */
  expires_at?: number;
  /** A credential a partner minted to act for one of its customers. */
  acting_for?: { partner: string; subject: string };
}

export interface AccountRecord {
  name: string;
  email: string;
  created_at: string;
}

export interface ServiceRow {
  id: number;
  account: string;
  name: string;
  type: ServiceType;
  plan: string;
  plan_label: string | null;
  enabled: boolean;
  filter_level: string | null;
  note: string | null;
  limits: Record<string, number>;
  created_at: string;
  /** The two name servers of an auth_dns service; empty for other types. */
  name_servers: string[];
}

export interface DnssecKey {
  ds: string;
  dnskey: string;
}

export interface ZoneRow {
  id: number;
  account: string;
  service_id: number;
  name: string;
  mode: "zone" | "host";
  status: "pending" | "active";
  enabled: boolean;
  serial: number;
  dnssec: DnssecKey | null;
  secondary_master: string | null;
  negative_ttl: number;
  transfer: { allow: string[]; notify: string[]; tsig_name: string | null; tsig_secret: string | null };
  delegation: { checked_at: string | null; lost_at: string | null };
  verified_at: string | null;
  created_at: string;
}

export const RECORD_TYPES = [
  "A",
  "AAAA",
  "PTR",
  "CNAME",
  "TXT",
  "MX",
  "NS",
  "SRV",
  "CAA",
  "ALIAS",
  "HTTPS",
  "SVCB",
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface RecordRow {
  id: number;
  account: string;
  zone_id: number;
  name: string;
  type: RecordType;
  ttl: number;
  content: string;
  enabled: boolean;
  proxied: boolean;
  weight: number | null;
  health_check: string | null;
  created_at: string;
}

export interface RangeRow {
  id: number;
  account: string;
  zone_id: number;
  prefix: string;
  owner: string | null;
  external_ref: string | null;
  note: string | null;
  enabled: boolean;
  created_at: string;
}

export interface GrantRow {
  email: string;
  role: "viewer" | "operator";
  created_at: string;
}

interface Owned {
  id: number;
  account: string;
}

export const NAME_SERVERS = ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"];

const SEED_SERVICES: Array<Omit<ServiceRow, "id" | "account" | "created_at">> = [
  {
    name: "Resolver",
    type: "resolver",
    plan: "resolver_standard",
    plan_label: "Resolver Standard",
    enabled: true,
    filter_level: "standard",
    note: null,
    limits: { clients: 0, rules: 0 },
    name_servers: [],
  },
  {
    name: "Authoritative DNS",
    type: "auth_dns",
    plan: "dns_pro",
    plan_label: "DNS Pro",
    enabled: true,
    filter_level: null,
    note: null,
    limits: { zones: 0, records: 0 },
    name_servers: NAME_SERVERS,
  },
  {
    name: "Edge proxy",
    type: "cdn",
    plan: "edge_pro",
    plan_label: "Edge Pro",
    enabled: true,
    filter_level: null,
    note: null,
    limits: { sites: 0, rules: 0 },
    name_servers: [],
  },
  {
    name: "Compute",
    type: "vm",
    plan: "vm_small",
    plan_label: "VM Small",
    enabled: true,
    filter_level: null,
    note: null,
    limits: { vms: 0 },
    name_servers: [],
  },
];

/** A zone's own table in a table of zones, made empty on first use. */
function tableOfZone<K, V>(tables: Map<number, Map<K, V>>, zoneId: number): Map<K, V> {
  let m = tables.get(zoneId);
  if (!m) {
    m = new Map();
    tables.set(zoneId, m);
  }
  return m;
}

export class Store {
  readonly accounts = new Map<string, AccountRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  /**
   * token -> a name for it that is not the token (`account:<name>`, `minted:<partner>/<subject>`),
   * kept after the token is revoked, so request statistics can say whose requests they were.
   */
  readonly tokenLabels = new Map<string, string>();
  readonly services = new Map<number, ServiceRow>();
  readonly zones = new Map<number, ZoneRow>();
  /** zone id -> record id -> record; records are always reached through their zone. */
  readonly records = new Map<number, Map<number, RecordRow>>();
  readonly ranges = new Map<number, RangeRow>();
  /** zone id -> email -> grant */
  readonly grants = new Map<number, Map<string, GrantRow>>();

  private lastId = 0;
  private readonly zoneDeleteHooks: Array<(zone: ZoneRow) => void> = [];
  private readonly usageCounters = new Map<string, (account: string) => number>();

  constructor(readonly now: () => number) {
    this.countRows("zones", this.zones);
    this.registerUsage("records", (a) => {
      let n = 0;
      for (const z of this.list(this.zones, a)) n += this.records.get(z.id)?.size ?? 0;
      return n;
    });
  }

  nextId(): number {
    return ++this.lastId;
  }

  timestamp(): string {
    return isoTime(this.now());
  }

  // ---- accounts and tokens ------------------------------------------------------------------

  ensureAccount(name: string): AccountRecord {
    const existing = this.accounts.get(name);
    if (existing) return existing;
    const acct: AccountRecord = { name, email: `${name}@example.test`, created_at: this.timestamp() };
    this.accounts.set(name, acct);
    for (const s of SEED_SERVICES) {
      const id = this.nextId();
      this.services.set(id, { ...s, limits: { ...s.limits }, id, account: name, created_at: acct.created_at });
    }
    return acct;
  }

  addToken(account: string, token: string, scope: Scope): TokenRecord {
    this.ensureAccount(account);
    const rec: TokenRecord = { token, account, scope };
    this.tokens.set(token, rec);
    if (!this.tokenLabels.has(token)) {
      // An account's second token is a quota of its own (rate limits are per token): its own label.
      const base = `account:${account}`;
      let n = 1;
      for (const label of this.tokenLabels.values()) if (label === base || label.startsWith(`${base}#`)) n++;
      this.tokenLabels.set(token, n === 1 ? base : `${base}#${n}`);
    }
    return rec;
  }

  /** The token stops working at once, as when its owner revokes it in the console; false when it was not live. */
  revokeToken(token: string): boolean {
    return this.tokens.delete(token);
  }

  // ---- ownership-checked access ------------------------------------------------------------

  /** The row with this id if the account owns it; not_found otherwise (existence never leaks). */
  owned<K, T extends { account: string }>(table: ReadonlyMap<K, T>, id: K, account: string, what: string): T {
    const row = table.get(id);
    if (!row || row.account !== account) throw notFound(what);
    return row;
  }

  /** The account's rows in creation order (Maps keep insertion order). */
  list<T extends { account: string }>(table: ReadonlyMap<unknown, T>, account: string): T[] {
    const out: T[] = [];
    for (const row of table.values()) if (row.account === account) out.push(row);
    return out;
  }

  zoneRecords(zoneId: number): Map<number, RecordRow> {
    return tableOfZone(this.records, zoneId);
  }

  zoneGrants(zoneId: number): Map<string, GrantRow> {
    return tableOfZone(this.grants, zoneId);
  }

  // ---- zones ---------------------------------------------------------------------------------

  /** Later areas (edge sites, security rules) register here to be removed with their zone. */
  onZoneDelete(hook: (zone: ZoneRow) => void): void {
    this.zoneDeleteHooks.push(hook);
  }

  deleteZone(zone: ZoneRow): void {
    for (const hook of this.zoneDeleteHooks) hook(zone);
    this.records.delete(zone.id);
    this.grants.delete(zone.id);
    for (const [id, r] of this.ranges) if (r.zone_id === zone.id) this.ranges.delete(id);
    this.zones.delete(zone.id);
  }

  /** YYYYMMDD00 for the current UTC day. */
  serialBase(): number {
    const d = new Date(this.now());
    return (d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()) * 100;
  }

  /** Date-based serial as BIND users write it, but never going backwards. */
  bumpSerial(zone: ZoneRow): void {
    zone.serial = Math.max(zone.serial + 1, this.serialBase() + 1);
  }

  // ---- quota usage ---------------------------------------------------------------------------

  registerUsage(key: string, count: (account: string) => number): void {
    this.usageCounters.set(key, count);
  }

  /** Counts the account's rows of `table` under `key` in its usage. */
  countRows(key: string, table: ReadonlyMap<unknown, { account: string }>): void {
    this.registerUsage(key, (a) => this.list(table, a).length);
  }

  usage(account: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, f] of this.usageCounters) out[k] = f(account);
    return out;
  }
}

/**
 * The state of one area, kept beside the Store rather than in it and made on the area's first
 * use (when it also registers its quota counters and zone-delete hooks).
 */
export function areaState<T>(make: (store: Store) => T): AreaState<T> {
  const states = new WeakMap<Store, T>();
  const of = (store: Store): T => {
    let state = states.get(store);
    if (state === undefined) {
      state = make(store);
      states.set(store, state);
    }
    return state;
  };
  return Object.assign(of, { started: (store: Store) => states.has(store) });
}

export interface AreaState<T> {
  (store: Store): T;
  /** Whether the area was used yet on this store (reading it would start it). */
  started(store: Store): boolean;
}

/** The names of the tables in `T` that hold account rows. */
type OwnedTableOf<T> = { [K in keyof T]: T[K] extends ReadonlyMap<unknown, { account: string }> ? K : never }[keyof T];

/**
 * An area's tables, made per Store on first use as areaState's are, with a quota counter for each
 * key of `usage`: the account's rows in the table it names. `setUp` registers the area's other
 * hooks on the Store (what goes with a deleted zone) before the counters.
 */
export function areaTables<T extends object>(
  make: () => T,
  usage: Record<string, OwnedTableOf<T>>,
  setUp?: (store: Store, tables: T) => void,
): AreaState<T> {
  return areaState((store) => {
    const tables = make();
    setUp?.(store, tables);
    for (const [key, table] of Object.entries(usage)) {
      store.countRows(key, tables[table] as ReadonlyMap<unknown, { account: string }>);
    }
    return tables;
  });
}

/** An area's one table of account rows, counted under `usageKey` in the account's usage. */
export function accountTable<Row extends Owned>(usageKey: string): (store: Store) => Map<number, Row> {
  return areaState((store) => {
    const rows = new Map<number, Row>();
    store.countRows(usageKey, rows);
    return rows;
  });
}
