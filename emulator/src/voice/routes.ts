// Voice numbers: claimed numbers (as many as the packs allow) that ring PBX extensions. A number is
// addressed by its E.164 string; an extension rings for at most one number.
import { z } from "zod";
import { ApiError, notFound } from "../errors";
import { paginate, pagingOnlyQuery } from "../paging";
import { assignPresent } from "../patch";
import { route, type Env } from "../router";
import { perStore } from "../per-store";
import type { Store } from "../store";
import { ownObject, ownPbx, vgate } from "../vgate/state";

/** What the emulator's packs allow: numbers claimable per account. */
export const VOICE_NUMBER_LIMIT = 10;

export interface VoiceNumberRow {
  number: string;
  account: string;
  label: string | null;
  sip_in: boolean;
  noanswer: string | null;
  dest: string | null;
  endpoints: Array<{ pbx_id: string; ext: string }>;
  created_at: string;
}

interface VoiceTables {
  numbers: Map<string, VoiceNumberRow>;
  next: number;
}

const voice = perStore((): VoiceTables => ({ numbers: new Map(), next: 1 }));

/** A deleted PBX takes with it the endpoints that rang its extensions (docs/api-assumptions.md). */
export function dropPbxEndpoints(store: Store, pbxId: string): void {
  for (const n of voice(store).numbers.values()) n.endpoints = n.endpoints.filter((e) => e.pbx_id !== pbxId);
}

type Ctx = Env & { account: { name: string } };

function own(ctx: Ctx, number: string): VoiceNumberRow {
  const row = voice(ctx.store).numbers.get(number);
  if (!row || row.account !== ctx.account.name) throw notFound("number");
  return row;
}

const view = (r: VoiceNumberRow) => {
  const { account: _a, ...rest } = r;
  return { ...rest, endpoints: r.endpoints.map((e) => ({ ...e })) };
};

const text = z.string().max(200).nullable().optional();

export const voiceRoutes = [
  route({
    method: "GET",
    path: "/voice/numbers",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate([...voice(ctx.store).numbers.values()].filter((n) => n.account === ctx.account.name), ctx.query, view),
  }),
  route({
    method: "POST",
    path: "/voice/numbers",
    scope: "write",
    body: z.strictObject({ label: z.string().max(100).nullable().optional() }),
    handler: (ctx) => {
      const t = voice(ctx.store);
      const held = [...t.numbers.values()].filter((n) => n.account === ctx.account.name).length;
      if (held >= VOICE_NUMBER_LIMIT) throw new ApiError("limit_exceeded", `the account's packs allow ${VOICE_NUMBER_LIMIT} voice numbers and all are held`);
      const number = `+3120555${String(t.next++).padStart(4, "0")}`;
      const row: VoiceNumberRow = { number, account: ctx.account.name, label: ctx.body.label ?? null, sip_in: false, noanswer: null, dest: null, endpoints: [], created_at: ctx.store.timestamp() };
      t.numbers.set(number, row);
      ctx.status(201);
      return view(row);
    },
  }),
  route({ method: "GET", path: "/voice/numbers/{number}", scope: "read", handler: (ctx) => view(own(ctx, ctx.params.number)) }),
  route({
    method: "PATCH",
    path: "/voice/numbers/{number}",
    scope: "write",
    body: z.strictObject({ sip_in: z.boolean().optional(), noanswer: text, label: z.string().max(100).nullable().optional(), dest: text }),
    handler: (ctx) => {
      const row = own(ctx, ctx.params.number);
      assignPresent(row, ctx.body);
      return view(row);
    },
  }),
  route({
    method: "DELETE",
    path: "/voice/numbers/{number}",
    scope: "write",
    handler: (ctx) => {
      voice(ctx.store).numbers.delete(own(ctx, ctx.params.number).number);
      return undefined;
    },
  }),
  route({
    method: "POST",
    path: "/voice/numbers/{number}/endpoints",
    scope: "write",
    body: z.strictObject({ pbx_id: z.string().min(1), ext: z.string().min(1) }),
    handler: (ctx) => {
      const row = own(ctx, ctx.params.number);
      const { pbx_id, ext } = ctx.body;
      ownObject(ownPbx(ctx.store, ctx.account.name, pbx_id), "extension", ext);
      for (const n of voice(ctx.store).numbers.values()) {
        if (n.endpoints.some((e) => e.pbx_id === pbx_id && e.ext === ext)) {
          throw new ApiError("conflict", n === row ? `extension ${ext} already rings for ${n.number}` : `extension ${ext} already rings for ${n.number}; an extension rings for at most one number`);
        }
      }
      row.endpoints.push({ pbx_id, ext });
      ctx.status(201);
      return view(row);
    },
  }),
  route({
    method: "DELETE",
    path: "/voice/numbers/{number}/endpoints/{pbx}/{ext}",
    scope: "write",
    handler: (ctx) => {
      const row = own(ctx, ctx.params.number);
      const i = row.endpoints.findIndex((e) => e.pbx_id === ctx.params.pbx && e.ext === ctx.params.ext);
      if (i < 0) throw notFound("endpoint");
      row.endpoints.splice(i, 1);
      return undefined;
    },
  }),
  route({
    method: "GET",
    path: "/voice/destinations",
    scope: "read",
    handler: (ctx) => {
      const out: Array<{ pbx_id: string; kind: string; id: string; name: string }> = [];
      for (const pbx of vgate(ctx.store).pbxs.values()) {
        if (pbx.account !== ctx.account.name) continue;
        for (const r of pbx.objects.ivr.values()) out.push({ pbx_id: pbx.id, kind: "ivr", id: r.id, name: r.name });
        for (const r of pbx.objects.queue.values()) out.push({ pbx_id: pbx.id, kind: "queue", id: r.id, name: r.name });
        for (const r of pbx.objects.group.values()) out.push({ pbx_id: pbx.id, kind: "group", id: r.id, name: r.name });
        for (const r of pbx.objects.timecond.values()) out.push({ pbx_id: pbx.id, kind: "timecond", id: r.id, name: r.name });
        for (const r of pbx.objects.extension.values()) if (r.voicemail?.enabled === true) out.push({ pbx_id: pbx.id, kind: "voicemail", id: r.id, name: r.name });
      }
      return { data: out };
    },
  }),
  route({
    method: "GET",
    path: "/voice/extensions",
    scope: "read",
    handler: (ctx) => {
      const out: Array<{ pbx_id: string; ext: string; number: string; name: string }> = [];
      for (const pbx of vgate(ctx.store).pbxs.values()) {
        if (pbx.account !== ctx.account.name) continue;
        for (const e of pbx.objects.extension.values()) out.push({ pbx_id: pbx.id, ext: e.id, number: e.number, name: e.name });
      }
      return { data: out };
    },
  }),
];
