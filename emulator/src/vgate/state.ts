// The PBX gateway's tables. They hang off the emulator's Store through a WeakMap like the other
// areas, but PBX-gateway ids are strings (`pbx_…`, `ext_…`), so this area keeps its own id
// space. A PBX owns every object under it: its maps hold them, so deleting the PBX removes
// everything at once, and an object id under another PBX is simply not found.
import { randomBytes } from "node:crypto";
import { ApiError, notFound } from "../pipeline/errors";
import { areaState, type Store } from "../model/store";
import { uniqueId } from "../model/tables";
import { E164 } from "../pipeline/validation";

export const LANGUAGES = ["en", "zh"] as const;
export const TEMPLATE_IDS = [
  "small-office",
  "reception",
  "after-hours",
  "contact-centre",
  "conference",
  "personal",
  "blank",
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];
export const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
type Day = (typeof DAYS)[number];

export const OUTBOUND_CLASSES = ["internal", "local", "national", "international"] as const;
export const RECORD_MODES = ["never", "always", "on_demand"] as const;
export const TRUNK_MODES = ["register", "peer"] as const;
export const TRANSPORTS = ["udp", "tcp", "tls"] as const;
export const CODECS = ["ulaw", "alaw", "g722", "g729", "opus"] as const;
export const GROUP_STRATEGIES = ["ringall", "hunt", "memoryhunt", "random"] as const;
export const QUEUE_STRATEGIES = ["ringall", "leastrecent", "fewestcalls", "random", "rrmemory", "linear"] as const;

export interface City {
  id: string;
  name: string;
  country: string;
  timezone: string;
  accepting: boolean;
}

/** The API cannot create cities; these are the emulator's. Sydney is full. */
export const CITIES: readonly City[] = [
  { id: "fra", name: "Frankfurt", country: "DE", timezone: "Europe/Berlin", accepting: true },
  { id: "lon", name: "London", country: "GB", timezone: "Europe/London", accepting: true },
  { id: "nyc", name: "New York", country: "US", timezone: "America/New_York", accepting: true },
  { id: "sgp", name: "Singapore", country: "SG", timezone: "Asia/Singapore", accepting: true },
  { id: "syd", name: "Sydney", country: "AU", timezone: "Australia/Sydney", accepting: false },
];
export const DEFAULT_CITY = "fra";

export interface ScheduleRule {
  days: Day[];
  from: string;
  to: string;
}

export interface FlowBody {
  ring?: string[];
  ring_s?: number;
  noanswer?: string;
  destination?: string;
  hours?: ScheduleRule[];
  after_hours?: string;
}

interface ObjectRow {
  id: string;
  pbx_id: string;
  created_at: string;
  updated_at: string;
}

export interface ExtensionRow extends ObjectRow {
  number: string;
  name: string;
  user_email: string | null;
  caller_id_name: string | null;
  caller_id_number: string | null;
  outbound_class: (typeof OUTBOUND_CLASSES)[number];
  record: (typeof RECORD_MODES)[number];
  voicemail: Record<string, unknown> | null;
  forward: Record<string, string> | null;
  dnd: boolean;
  ring_timeout: number;
  max_calls: number;
  /** The current SIP password; shown when issued, never again. */
  sip_password: string;
  sip_password_issued_at: string;
}

export interface TrunkRow extends ObjectRow {
  name: string;
  mode: (typeof TRUNK_MODES)[number];
  host: string | null;
  transport: (typeof TRANSPORTS)[number];
  username: string | null;
  /** Write-only. */
  password: string | null;
  from_domain: string | null;
  caller_id: string | null;
  port: number;
  max_channels: number;
  auth_ips: string[];
  codecs: string[];
  state: "registered" | "up" | "failed";
  checked_at: string;
}

export interface NumberRow extends ObjectRow {
  e164: string;
  trunk_id: string | null;
  source: "byo" | "platform";
  flow: FlowBody | null;
  /** The ring group and time condition the flow made, while it needs them. */
  flow_group_id: string | null;
  flow_timecond_id: string | null;
}

interface InboundRow extends ObjectRow {
  name: string;
  number_id: string | null;
  did: string | null;
  cid_pattern: string | null;
  destination: string;
}

interface OutboundRow extends ObjectRow {
  name: string;
  caller_id_override: string | null;
  priority: number;
  patterns: Array<Record<string, unknown>>;
  trunks: string[];
  emergency: boolean;
}

export interface IvrRow extends ObjectRow {
  name: string;
  greeting: string | null;
  invalid: string;
  timeout: string;
  options: Record<string, string>;
  direct_dial: boolean;
  timeout_s: number;
  repeat: number;
}

export interface GroupRow extends ObjectRow {
  number: string | null;
  name: string;
  strategy: (typeof GROUP_STRATEGIES)[number];
  noanswer: string;
  moh: string;
  members: string[];
  ring_s: number;
}

export interface QueueRow extends ObjectRow {
  number: string | null;
  name: string;
  strategy: (typeof QUEUE_STRATEGIES)[number];
  moh: string;
  timeout: string;
  agents: string[];
  max_wait_s: number;
  announce_every_s: number;
  announce_position: boolean;
  announce_wait: boolean;
}

export interface TimecondRow extends ObjectRow {
  name: string;
  schedule: ScheduleRule[];
}

export interface Rows {
  extension: ExtensionRow;
  trunk: TrunkRow;
  number: NumberRow;
  inbound: InboundRow;
  outbound: OutboundRow;
  ivr: IvrRow;
  group: GroupRow;
  queue: QueueRow;
  timecond: TimecondRow;
}
export type Kind = keyof Rows;
export type AnyRow = Rows[Kind];

interface KindInfo {
  /** Path segment under /vgate/pbx/{pbx}/. */
  path: string;
  prefix: string;
  /** What a person calls it, in messages. */
  label: string;
}

export const KINDS: Record<Kind, KindInfo> = {
  extension: { path: "extensions", prefix: "ext", label: "extension" },
  trunk: { path: "trunks", prefix: "trk", label: "trunk" },
  number: { path: "numbers", prefix: "num", label: "number" },
  inbound: { path: "inbound", prefix: "inr", label: "inbound route" },
  outbound: { path: "outbound", prefix: "outr", label: "outbound route" },
  ivr: { path: "ivrs", prefix: "ivr", label: "IVR" },
  group: { path: "groups", prefix: "grp", label: "ring group" },
  queue: { path: "queues", prefix: "que", label: "queue" },
  timecond: { path: "timeconds", prefix: "tc", label: "time condition" },
};

export interface PbxRow {
  id: string;
  account: string;
  name: string;
  city: string;
  timezone: string;
  template: TemplateId;
  language: (typeof LANGUAGES)[number];
  settings: Record<string, unknown>;
  /** `paused` stops outbound calls until POST .../resume. */
  status: "active" | "paused";
  calls_up: number;
  sip_domain: string;
  reloaded_at: string | null;
  created_at: string;
  updated_at: string;
  objects: { [K in Kind]: Map<string, Rows[K]> };
}

interface PlatformNumber {
  id: string;
  e164: string;
  city: string;
  monthly_micros: number;
  /** `<pbx id>/<number id>` while bought. */
  held_by: string | null;
}

interface Movement {
  at: string;
  amount_micros: number;
  kind: "opening" | "number" | "topup";
  note: string;
}

interface Balance {
  balance_micros: number;
  movements: Movement[];
}

export interface VgateTables {
  pbxs: Map<string, PbxRow>;
  ids: Set<string>;
  platformNumbers: PlatformNumber[];
  balances: Map<string, Balance>;
  /** What other areas drop with a PBX (voice numbers' endpoints on its extensions). */
  pbxDeleteHooks: Array<(pbx: PbxRow) => void>;
}

export const vgate = areaState((): VgateTables => {
  const t: VgateTables = {
    pbxs: new Map(),
    ids: new Set(),
    platformNumbers: [],
    balances: new Map(),
    pbxDeleteHooks: [],
  };
  seedPlatformNumbers(t);
  return t;
});

/** `<prefix>_` + 12 hex characters, unique for the emulator's life. */
export function newId(t: VgateTables, prefix: string): string {
  const id = uniqueId(prefix, t.ids);
  t.ids.add(id);
  return id;
}

export function newSipPassword(): string {
  return randomBytes(12).toString("base64url");
}

/** A new extension as every maker of one (POST, the CSV import, a template) starts it. */
export function newExtensionFields(
  number: string,
  now: string,
): Omit<ExtensionRow, "id" | "pbx_id" | "created_at" | "updated_at"> {
  return {
    number,
    name: `Extension ${number}`,
    user_email: null,
    caller_id_name: null,
    caller_id_number: null,
    outbound_class: "national",
    record: "never",
    voicemail: null,
    forward: null,
    dnd: false,
    ring_timeout: 30,
    max_calls: 2,
    sip_password: newSipPassword(),
    sip_password_issued_at: now,
  };
}

export function emptyObjects(): PbxRow["objects"] {
  return {
    extension: new Map(),
    trunk: new Map(),
    number: new Map(),
    inbound: new Map(),
    outbound: new Map(),
    ivr: new Map(),
    group: new Map(),
    queue: new Map(),
    timecond: new Map(),
  };
}

export function ownPbx(store: Store, account: string, id: string): PbxRow {
  const pbx = vgate(store).pbxs.get(id);
  if (!pbx || pbx.account !== account) throw notFound("PBX");
  return pbx;
}

export function ownObject<K extends Kind>(pbx: PbxRow, kind: K, id: string): Rows[K] {
  const row = pbx.objects[kind].get(id);
  if (!row) throw notFound(KINDS[kind].label);
  return row;
}

/** The city of a new or moved PBX: one that exists and takes new PBXs. */
export function acceptingCity(id: string): City {
  const city = CITIES.find((c) => c.id === id);
  if (!city) throw new ApiError("validation_error", `city: no city ${id}; GET /vgate/cities lists them`);
  if (!city.accepting) throw new ApiError("conflict", `city: ${city.name} (${city.id}) does not accept new PBXs`);
  return city;
}

// ---- what routes to what --------------------------------------------------------------------

export interface Target {
  kind: Kind;
  id: string;
}

/**
 * Destinations are `hangup`, `external:<E.164>`, or `<kind>:<id>` of an object of the same PBX:
 * `extension:`, `voicemail:` (an extension's mailbox), `group:`, `queue:`, `ivr:`.
 */
export const DESTINATION_KINDS: Record<string, Kind> = {
  extension: "extension",
  voicemail: "extension",
  group: "group",
  queue: "queue",
  ivr: "ivr",
};

export function parseDestination(value: string): { ok: true; target: Target | null } | { ok: false; reason: string } {
  if (value === "hangup") return { ok: true, target: null };
  const colon = value.indexOf(":");
  const prefix = colon > 0 ? value.slice(0, colon) : "";
  const rest = value.slice(colon + 1);
  if (prefix === "external") {
    return E164.test(rest)
      ? { ok: true, target: null }
      : { ok: false, reason: "external: needs an E.164 number such as external:+4930123456" };
  }
  const kind = DESTINATION_KINDS[prefix];
  if (!kind || rest === "") {
    return {
      ok: false,
      reason: "must be hangup, external:<E.164>, or extension:, voicemail:, group:, queue: or ivr: followed by an id",
    };
  }
  return { ok: true, target: { kind, id: rest } };
}

/** Throws validation_error naming `field` unless `value` is a destination that exists in the PBX. */
export function checkDestination(pbx: PbxRow, field: string, value: string): void {
  const parsed = parseDestination(value);
  if (!parsed.ok) throw new ApiError("validation_error", `${field}: ${parsed.reason}`);
  if (parsed.target) checkTarget(pbx, field, parsed.target);
}

export function checkTarget(pbx: PbxRow, field: string, target: Target): void {
  if (!pbx.objects[target.kind].has(target.id))
    throw new ApiError("validation_error", `${field}: no ${KINDS[target.kind].label} ${target.id} in this PBX`);
}

function destTarget(value: string | null | undefined): Target[] {
  if (!value) return [];
  const p = parseDestination(value);
  return p.ok && p.target ? [p.target] : [];
}

export function describe(kind: Kind, row: AnyRow): string {
  const label = KINDS[kind].label;
  switch (kind) {
    case "extension":
      return `${label} ${(row as ExtensionRow).number} (${row.id})`;
    case "number":
      return `${label} ${(row as NumberRow).e164} (${row.id})`;
    default:
      return `${label} "${(row as { name: string }).name}" (${row.id})`;
  }
}

/** Every reference from one object to another in the PBX, with a description of the source. */
export function references(pbx: PbxRow): Array<{ from: Target; label: string; to: Target }> {
  const out: Array<{ from: Target; label: string; to: Target }> = [];
  const add = (kind: Kind, row: AnyRow, label: string, targets: Target[]) => {
    for (const to of targets) out.push({ from: { kind, id: row.id }, label, to });
  };
  const o = pbx.objects;
  for (const n of o.number.values()) {
    add("number", n, describe("number", n), n.trunk_id ? [{ kind: "trunk", id: n.trunk_id }] : []);
    if (n.flow) {
      const f = n.flow;
      add("number", n, `the flow of number ${n.e164} (${n.id})`, [
        ...(n.flow_group_id ? [{ kind: "group" as const, id: n.flow_group_id }] : []),
        ...(n.flow_timecond_id ? [{ kind: "timecond" as const, id: n.flow_timecond_id }] : []),
        ...(f.ring ?? []).map((id) => ({ kind: "extension" as const, id })),
        ...destTarget(f.destination),
        ...destTarget(f.noanswer),
        ...destTarget(f.after_hours),
      ]);
    }
  }
  for (const r of o.inbound.values())
    add("inbound", r, describe("inbound", r), [
      ...(r.number_id ? [{ kind: "number" as const, id: r.number_id }] : []),
      ...destTarget(r.destination),
    ]);
  for (const r of o.outbound.values())
    add(
      "outbound",
      r,
      describe("outbound", r),
      r.trunks.map((id) => ({ kind: "trunk" as const, id })),
    );
  for (const r of o.ivr.values())
    add("ivr", r, describe("ivr", r), [
      ...Object.values(r.options).flatMap(destTarget),
      ...destTarget(r.invalid),
      ...destTarget(r.timeout),
    ]);
  for (const r of o.group.values())
    add("group", r, describe("group", r), [
      ...r.members.map((id) => ({ kind: "extension" as const, id })),
      ...destTarget(r.noanswer),
    ]);
  for (const r of o.queue.values())
    add("queue", r, describe("queue", r), [
      ...r.agents.map((id) => ({ kind: "extension" as const, id })),
      ...destTarget(r.timeout),
    ]);
  for (const r of o.extension.values())
    add("extension", r, describe("extension", r), Object.values(r.forward ?? {}).flatMap(destTarget));
  return out;
}

/** Descriptions of the objects that route to this one (itself not counted), each once. */
export function blockers(
  pbx: PbxRow,
  kind: Kind,
  id: string,
  ignore: (from: Target) => boolean = () => false,
): string[] {
  const seen = new Set<string>();
  for (const ref of references(pbx)) {
    if (ref.to.kind !== kind || ref.to.id !== id) continue;
    if (ref.from.kind === kind && ref.from.id === id) continue;
    if (ignore(ref.from)) continue;
    seen.add(ref.label);
  }
  return [...seen];
}

/** The conflict a delete answers while something routes to the object. */
export function refuseWhileRouted(pbx: PbxRow, kind: Kind, row: AnyRow): void {
  const by = blockers(pbx, kind, row.id);
  if (by.length === 0) return;
  throw new ApiError(
    "conflict",
    `${describe(kind, row)} cannot be deleted while something routes to it: ${by.join(", ")}; change or delete ${by.length === 1 ? "it" : "them"} first`,
  );
}

// ---- the dial plan --------------------------------------------------------------------------

/** Extensions, ring groups and queues share the PBX's dial numbers. */
function dialNumberOwner(pbx: PbxRow, number: string, except?: string): string | undefined {
  for (const kind of ["extension", "group", "queue"] as const) {
    for (const row of pbx.objects[kind].values()) {
      if (row.id !== except && row.number === number) return describe(kind, row);
    }
  }
  return undefined;
}

export function checkDialNumber(pbx: PbxRow, number: string | null | undefined, except?: string): void {
  if (number === null || number === undefined) return;
  const owner = dialNumberOwner(pbx, number, except);
  if (owner) throw new ApiError("conflict", `number: ${number} is already dialled for ${owner}`);
}

/** The lowest free dial number from 101 up, for an extension created without one. */
export function nextExtensionNumber(pbx: PbxRow): string {
  for (let n = 101; ; n++) if (!dialNumberOwner(pbx, String(n))) return String(n);
}

// ---- platform numbers and balance ------------------------------------------------------------

const POOLS: Array<{ city: string; prefix: string }> = [
  { city: "fra", prefix: "+4969555010" },
  { city: "lon", prefix: "+4420794601" },
  { city: "nyc", prefix: "+121255501" },
  { city: "sgp", prefix: "+6565550" },
];
const MONTHLY_MICROS = 1_000_000;
const OPENING_BALANCE_MICROS = 20_000_000;

function seedPlatformNumbers(t: VgateTables): void {
  for (const pool of POOLS) {
    for (let i = 0; i < 5; i++) {
      const e164 = `${pool.prefix}${String(i + 1).padStart(2, "0")}`;
      t.platformNumbers.push({
        id: `pn_${pool.city}_${e164.slice(-4)}`,
        e164,
        city: pool.city,
        monthly_micros: MONTHLY_MICROS,
        held_by: null,
      });
    }
  }
}

export function balanceOf(store: Store, account: string): Balance {
  const t = vgate(store);
  let b = t.balances.get(account);
  if (!b) {
    b = {
      balance_micros: OPENING_BALANCE_MICROS,
      movements: [
        { at: store.timestamp(), amount_micros: OPENING_BALANCE_MICROS, kind: "opening", note: "opening balance" },
      ],
    };
    t.balances.set(account, b);
  }
  return b;
}

/** Gives a bought platform number back to the pool. */
export function releaseNumber(store: Store, pbx: PbxRow, number: NumberRow): void {
  if (number.source !== "platform") return;
  const held = vgate(store).platformNumbers.find((p) => p.held_by === `${pbx.id}/${number.id}`);
  if (held) held.held_by = null;
}

/** Other areas that point at a PBX's objects register here to let go of them with the PBX. */
export function onPbxDelete(store: Store, hook: (pbx: PbxRow) => void): void {
  vgate(store).pbxDeleteHooks.push(hook);
}

export function deletePbx(store: Store, pbx: PbxRow): void {
  for (const n of pbx.objects.number.values()) releaseNumber(store, pbx, n);
  const t = vgate(store);
  for (const hook of t.pbxDeleteHooks) hook(pbx);
  t.pbxs.delete(pbx.id);
}

// ---- in-process hooks for tests ------------------------------------------------------------

function pbxForHook(store: Store, pbxId: string): PbxRow {
  const pbx = vgate(store).pbxs.get(pbxId);
  if (!pbx) throw notFound("PBX");
  return pbx;
}

/**
 * Sets how many calls are up on a PBX (a move is refused while any is). For tests:
 * `setCallsUp(app.store, pbxId, 1)`.
 */
export function setCallsUp(store: Store, pbxId: string, calls: number): void {
  if (!Number.isInteger(calls) || calls < 0)
    throw new ApiError("validation_error", "calls: must be a non-negative integer");
  pbxForHook(store, pbxId).calls_up = calls;
}

/** Pauses outbound calls, as the gateway does on its own (for example on an empty balance). */
export function pauseOutbound(store: Store, pbxId: string): void {
  pbxForHook(store, pbxId).status = "paused";
}
