// The objects of a PBX: extensions, trunks, numbers, inbound and outbound routes, IVRs, ring
// groups, queues and time conditions. Each kind has the same five routes (list, create, get,
// patch, delete); a spec per kind says its body, its defaults and the rules a stored row must
// satisfy. Deletes are refused while anything routes to the object.
import { z } from "zod";
import { type KeyOf, type OwnedRow, collection } from "../model/collection";
import { ApiError } from "../pipeline/errors";
import type { Ctx, Route } from "../pipeline/route";
import type { Store } from "../model/store";
import { intBetween } from "../pipeline/validation";
import {
  callPattern,
  destination,
  dialNumber,
  e164,
  email,
  forward,
  hostOrIp,
  ipOrPrefix,
  ivrOptions,
  nameField,
  objectId,
  outboundPattern,
  schedule,
  uniqueArray,
  voicemail,
} from "./fields";
import { clearFlow } from "./flow";
import {
  CODECS,
  GROUP_STRATEGIES,
  KINDS,
  OUTBOUND_CLASSES,
  QUEUE_STRATEGIES,
  RECORD_MODES,
  TRANSPORTS,
  TRUNK_MODES,
  type Kind,
  type PbxRow,
  type Rows,
  checkDestination,
  checkDialNumber,
  checkTarget,
  newId,
  newExtensionFields,
  nextExtensionNumber,
  ownObject,
  ownPbx,
  refuseWhileRouted,
  releaseNumber,
  vgate,
} from "./state";
import { objectView } from "./views";

type Stamp = "id" | "pbx_id" | "created_at" | "updated_at";

export interface Env {
  store: Store;
  account: string;
  pbx: PbxRow;
}

interface ObjectSpec<K extends Kind> {
  kind: K;
  create: z.ZodObject;
  /** The fields of a new row before the create body's own (which replace them): fixed values, or
   * worked out from the PBX and the body. */
  defaults: Omit<Rows[K], Stamp> | ((env: Env, body: Record<string, unknown>) => Omit<Rows[K], Stamp>);
  /** Rules a row must satisfy before it is stored (after a create, or a patch of `prior`). */
  validate?(env: Env, row: Rows[K], prior?: Rows[K]): void;
  /** Added to the create answer only (the extension's SIP password). */
  createExtras?(row: Rows[K]): Record<string, unknown>;
  beforeDelete?(env: Env, row: Rows[K]): void;
}

function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

function requireWhen(cond: boolean, field: string, value: unknown, why: string): void {
  if (cond && (value === null || value === undefined || (Array.isArray(value) && value.length === 0)))
    throw new ApiError("validation_error", `${field}: is required ${why}`);
}

function checkExtensions(pbx: PbxRow, field: string, ids: readonly string[]): void {
  for (const [i, id] of ids.entries()) checkTarget(pbx, `${field}[${i}]`, { kind: "extension", id });
}

/** Also used by the CSV import, which creates extensions the way POST does. */
export const extensionSpec: ObjectSpec<"extension"> = {
  kind: "extension",
  create: z.strictObject({
    number: dialNumber.optional(),
    name: nameField.optional(),
    user_email: email.nullable().optional(),
    caller_id_name: z.string().max(50).nullable().optional(),
    caller_id_number: e164.nullable().optional(),
    outbound_class: z.enum(OUTBOUND_CLASSES).optional(),
    record: z.enum(RECORD_MODES).optional(),
    voicemail: voicemail.nullable().optional(),
    forward: forward.nullable().optional(),
    dnd: z.boolean().optional(),
    ring_timeout: intBetween(5, 300).optional(),
    max_calls: intBetween(1, 10).optional(),
  }),
  defaults({ store, pbx }, body) {
    const number = (body.number as string | undefined) ?? nextExtensionNumber(pbx);
    return newExtensionFields(number, store.timestamp());
  },
  validate({ pbx }, row) {
    checkDialNumber(pbx, row.number, row.id);
    for (const [k, v] of Object.entries(row.forward ?? {})) checkDestination(pbx, `forward.${k}`, v);
  },
  createExtras: (row) => ({ sip_password: row.sip_password }),
};

const trunk: ObjectSpec<"trunk"> = {
  kind: "trunk",
  create: z.strictObject({
    name: nameField.optional(),
    mode: z.enum(TRUNK_MODES).optional(),
    host: hostOrIp.nullable().optional(),
    transport: z.enum(TRANSPORTS).optional(),
    username: z.string().min(1).max(100).nullable().optional(),
    password: z.string().min(1).max(128).nullable().optional(),
    from_domain: hostOrIp.nullable().optional(),
    caller_id: e164.nullable().optional(),
    port: intBetween(1, 65535).optional(),
    max_channels: intBetween(0, 1000).optional(),
    auth_ips: uniqueArray(ipOrPrefix, 0, 32).optional(),
    codecs: uniqueArray(z.enum(CODECS), 1, CODECS.length).optional(),
  }),
  defaults({ store }, body) {
    return {
      name: "Trunk",
      mode: "register",
      host: null,
      transport: "udp",
      username: null,
      password: null,
      from_domain: null,
      caller_id: null,
      port: body.transport === "tls" ? 5061 : 5060,
      max_channels: 0,
      auth_ips: [],
      codecs: ["ulaw", "alaw"],
      state: "registered",
      checked_at: store.timestamp(),
    };
  },
  validate(_env, row) {
    const register = row.mode === "register";
    requireWhen(register, "host", row.host, "when mode is register");
    requireWhen(register, "username", row.username, "when mode is register");
    requireWhen(register, "password", row.password, "when mode is register");
    if (row.mode === "peer" && !row.host && row.auth_ips.length === 0)
      throw new ApiError("validation_error", "auth_ips: a peer trunk needs host or auth_ips");
    row.state = trunkState(row);
  },
};

export function trunkState(row: Rows["trunk"]): Rows["trunk"]["state"] {
  // Hosts under .invalid never answer (RFC 2606), which gives tests a failing trunk.
  if (row.host && /\.invalid$/i.test(row.host)) return "failed";
  return row.mode === "register" ? "registered" : "up";
}

const number: ObjectSpec<"number"> = {
  kind: "number",
  create: z.strictObject({
    e164,
    trunk_id: objectId.nullable().optional(),
  }),
  defaults(_env, body) {
    return {
      e164: body.e164 as string,
      trunk_id: null,
      source: "byo",
      flow: null,
      flow_group_id: null,
      flow_timecond_id: null,
    };
  },
  validate({ store, account, pbx }, row, prior) {
    if (prior && prior.source === "platform" && prior.e164 !== row.e164)
      throw new ApiError("conflict", `e164: ${prior.e164} is a platform number; its digits cannot change`);
    if (row.trunk_id !== null) checkTarget(pbx, "trunk_id", { kind: "trunk", id: row.trunk_id });
    for (const other of vgate(store).pbxs.values()) {
      if (other.account !== account) continue;
      for (const n of other.objects.number.values()) {
        if (n.id !== row.id && n.e164 === row.e164)
          throw new ApiError("conflict", `e164: ${row.e164} is already number ${n.id} of PBX ${other.id}`);
      }
    }
  },
  beforeDelete({ store, pbx }, row) {
    clearFlow(pbx, row);
    releaseNumber(store, pbx, row);
  },
};

const inbound: ObjectSpec<"inbound"> = {
  kind: "inbound",
  create: z.strictObject({
    name: nameField.optional(),
    number_id: objectId.nullable().optional(),
    did: callPattern.nullable().optional(),
    cid_pattern: callPattern.nullable().optional(),
    destination,
  }),
  defaults: { name: "Inbound route", number_id: null, did: null, cid_pattern: null, destination: "hangup" },
  validate({ pbx }, row) {
    if (row.number_id !== null) checkTarget(pbx, "number_id", { kind: "number", id: row.number_id });
    checkDestination(pbx, "destination", row.destination);
  },
};

const outbound: ObjectSpec<"outbound"> = {
  kind: "outbound",
  create: z.strictObject({
    name: nameField.optional(),
    caller_id_override: e164.nullable().optional(),
    priority: intBetween(0, 1000).optional(),
    patterns: z.array(outboundPattern).min(1).max(50),
    trunks: uniqueArray(objectId, 1, 10),
    emergency: z.boolean().optional(),
  }),
  defaults({ pbx }, _body) {
    const highest = Math.max(0, ...[...pbx.objects.outbound.values()].map((r) => r.priority));
    return {
      name: "Outbound route",
      caller_id_override: null,
      priority: Math.min(1000, highest + 10),
      patterns: [],
      trunks: [],
      emergency: false,
    };
  },
  validate({ pbx }, row) {
    for (const [i, id] of row.trunks.entries()) checkTarget(pbx, `trunks[${i}]`, { kind: "trunk", id });
  },
};

const ivr: ObjectSpec<"ivr"> = {
  kind: "ivr",
  create: z.strictObject({
    name: nameField.optional(),
    greeting: z.string().min(1).max(200).nullable().optional(),
    invalid: destination.optional(),
    timeout: destination.optional(),
    options: ivrOptions.optional(),
    direct_dial: z.boolean().optional(),
    timeout_s: intBetween(1, 60).optional(),
    repeat: intBetween(0, 5).optional(),
  }),
  defaults: {
    name: "IVR",
    greeting: null,
    invalid: "hangup",
    timeout: "hangup",
    options: {},
    direct_dial: false,
    timeout_s: 10,
    repeat: 2,
  },
  validate({ pbx }, row) {
    for (const [key, v] of Object.entries(row.options)) checkDestination(pbx, `options.${key}`, v);
    checkDestination(pbx, "invalid", row.invalid);
    checkDestination(pbx, "timeout", row.timeout);
  },
};

const group: ObjectSpec<"group"> = {
  kind: "group",
  create: z.strictObject({
    number: dialNumber.nullable().optional(),
    name: nameField.optional(),
    strategy: z.enum(GROUP_STRATEGIES).optional(),
    noanswer: destination.optional(),
    moh: z.string().min(1).max(100).optional(),
    members: uniqueArray(objectId, 0, 50).optional(),
    ring_s: intBetween(5, 300).optional(),
  }),
  defaults: {
    number: null,
    name: "Ring group",
    strategy: "ringall",
    noanswer: "hangup",
    moh: "default",
    members: [],
    ring_s: 20,
  },
  validate({ pbx }, row) {
    checkDialNumber(pbx, row.number, row.id);
    checkExtensions(pbx, "members", row.members);
    checkDestination(pbx, "noanswer", row.noanswer);
  },
};

const queue: ObjectSpec<"queue"> = {
  kind: "queue",
  create: z.strictObject({
    number: dialNumber.nullable().optional(),
    name: nameField.optional(),
    strategy: z.enum(QUEUE_STRATEGIES).optional(),
    moh: z.string().min(1).max(100).optional(),
    timeout: destination.optional(),
    agents: uniqueArray(objectId, 0, 100).optional(),
    max_wait_s: intBetween(0, 7200).optional(),
    announce_every_s: intBetween(0, 600).optional(),
    announce_position: z.boolean().optional(),
    announce_wait: z.boolean().optional(),
  }),
  defaults: {
    number: null,
    name: "Queue",
    strategy: "ringall",
    moh: "default",
    timeout: "hangup",
    agents: [],
    max_wait_s: 300,
    announce_every_s: 0,
    announce_position: false,
    announce_wait: false,
  },
  validate({ pbx }, row) {
    checkDialNumber(pbx, row.number, row.id);
    checkExtensions(pbx, "agents", row.agents);
    checkDestination(pbx, "timeout", row.timeout);
  },
};

const timecond: ObjectSpec<"timecond"> = {
  kind: "timecond",
  create: z.strictObject({
    name: nameField.optional(),
    schedule,
  }),
  defaults: { name: "Time condition", schedule: [] },
};

/** The caller's PBX named in the path, with what the specs need beside it. */
export function pbxEnv(ctx: { store: Store; account: { name: string } }, pbxId: string): Env {
  return { store: ctx.store, account: ctx.account.name, pbx: ownPbx(ctx.store, ctx.account.name, pbxId) };
}

function defaultsOf<K extends Kind>(spec: ObjectSpec<K>, e: Env, body: Record<string, unknown>): Omit<Rows[K], Stamp> {
  // Fixed defaults are copied: a row must not share its lists with the spec or another row.
  return typeof spec.defaults === "function" ? spec.defaults(e, body) : structuredClone(spec.defaults);
}

/** A new object of `spec`'s kind in `e`'s PBX, built from a checked body and validated, not yet stored. */
export function newObject<K extends Kind>(spec: ObjectSpec<K>, e: Env, body: Record<string, unknown>): Rows[K] {
  const now = e.store.timestamp();
  const row = {
    id: newId(vgate(e.store), KINDS[spec.kind].prefix),
    pbx_id: e.pbx.id,
    ...defaultsOf(spec, e, body),
    ...defined(body),
    created_at: now,
    updated_at: now,
  } as Rows[K];
  spec.validate?.(e, row);
  return row;
}

function objectCollection<K extends Kind>(spec: ObjectSpec<K>) {
  const info = KINDS[spec.kind];
  const path = `/vgate/pbx/{pbx}/${info.path}` as "/vgate/pbx/{pbx}/objects";
  // A PBX's objects are owned through their PBX (the PBX named in the path), not by an account
  // field of their own, so the finding and listing of rows are the PBX's.
  type Row = Rows[K] & OwnedRow;
  const envOf = (ctx: { store: Store; account: { name: string }; params: { pbx: string } }) =>
    pbxEnv(ctx, ctx.params.pbx);
  const rowsOf = (pbx: PbxRow) => pbx.objects[spec.kind] as unknown as Map<KeyOf<Row>, Row>;
  return collection({
    path,
    item: `${path}/{id}` as "/vgate/pbx/{pbx}/objects/{id}",
    what: info.label,
    table: (env) => rowsOf(envOf(env as Ctx<typeof path, unknown, unknown>).pbx),
    view: (row) => objectView(spec.kind, row),
    own: (ctx, id) => ownObject(envOf(ctx).pbx, spec.kind, id) as Row,
    list: { rows: (ctx) => [...rowsOf(envOf(ctx).pbx).values()] },
    create: {
      body: spec.create,
      build: (ctx) => newObject(spec, envOf(ctx), ctx.body as Record<string, unknown>) as Row,
      answer: (row) => ({ ...objectView(spec.kind, row), ...spec.createExtras?.(row) }),
    },
    patch: {
      body: spec.create.partial(),
      apply: (ctx, row) => {
        const next = { ...structuredClone(row), ...defined(ctx.body as Record<string, unknown>) } as Row;
        spec.validate?.(envOf(ctx), next, row);
        Object.assign(row, next, { updated_at: ctx.store.timestamp() });
      },
    },
    // Refused while anything routes to the object.
    remove: (ctx, row) => {
      const e = envOf(ctx);
      refuseWhileRouted(e.pbx, spec.kind, row);
      spec.beforeDelete?.(e, row);
    },
  });
}

/** The collections whose rows have operations of their own (actions-routes.ts). */
export const extensions = objectCollection(extensionSpec);
export const trunks = objectCollection(trunk);
export const numbers = objectCollection(number);

export const vgateObjectRoutes: Route[] = [
  ...extensions.routes,
  ...trunks.routes,
  ...numbers.routes,
  ...[inbound, outbound, ivr, group, queue, timecond].flatMap(
    (spec) => objectCollection(spec as ObjectSpec<Kind>).routes,
  ),
];
