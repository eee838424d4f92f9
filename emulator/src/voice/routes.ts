// Voice numbers: claimed numbers (as many as the packs allow) that ring PBX extensions. A number is
// addressed by its E.164 string; an extension rings for at most one number.
import { z } from "zod";
import { assignPresent, collection } from "../model/collection";
import { ApiError, notFound } from "../pipeline/errors";
import { route } from "../pipeline/route";
import type { Store } from "../model/store";
import { ownObject, ownPbx, vgate } from "../vgate/state";
import { VOICE_NUMBER_LIMIT, type VoiceNumberRow, voice } from "./state";

const numberView = (r: VoiceNumberRow) => {
  const { account: _a, id: _id, ...rest } = r;
  return { ...rest, endpoints: r.endpoints.map((e) => ({ ...e })) };
};

const text = z.string().max(200).nullable().optional();
const label = z.string().max(100).nullable().optional();

const numbers = collection({
  path: "/voice/numbers",
  item: "/voice/numbers/{number}",
  what: "number",
  table: ({ store }) => voice(store).numbers,
  view: numberView,
  create: {
    body: z.strictObject({ label }),
    build: (ctx): VoiceNumberRow => {
      const t = voice(ctx.store);
      const held = ctx.store.list(t.numbers, ctx.account.name).length;
      if (held >= VOICE_NUMBER_LIMIT)
        throw new ApiError(
          "limit_exceeded",
          `the account's packs allow ${VOICE_NUMBER_LIMIT} voice numbers and all are held`,
        );
      const number = `+3120555${String(t.next++).padStart(4, "0")}`;
      return {
        id: number,
        number,
        account: ctx.account.name,
        label: ctx.body.label ?? null,
        sip_in: false,
        noanswer: null,
        dest: null,
        endpoints: [],
        created_at: ctx.store.timestamp(),
      };
    },
  },
  patch: {
    body: z.strictObject({ sip_in: z.boolean().optional(), noanswer: text, label, dest: text }),
    apply: (ctx, row) => assignPresent(row, ctx.body),
  },
  remove: true,
});

/** The destinations a number can ring besides an extension, in this order for each PBX. */
const DESTINATION_KINDS = ["ivr", "queue", "group", "timecond"] as const;

const accountPbxs = (ctx: { store: Store; account: { name: string } }) =>
  ctx.store.list(vgate(ctx.store).pbxs, ctx.account.name);

export const voiceRoutes = [
  ...numbers.routes,
  numbers.member(
    "POST",
    "endpoints",
    (row, ctx) => {
      const { pbx_id, ext } = ctx.body;
      ownObject(ownPbx(ctx.store, ctx.account.name, pbx_id), "extension", ext);
      for (const n of voice(ctx.store).numbers.values()) {
        if (n.endpoints.some((e) => e.pbx_id === pbx_id && e.ext === ext)) {
          throw new ApiError(
            "conflict",
            n === row
              ? `extension ${ext} already rings for ${n.number}`
              : `extension ${ext} already rings for ${n.number}; an extension rings for at most one number`,
          );
        }
      }
      row.endpoints.push({ pbx_id, ext });
      ctx.status(201);
      return numberView(row);
    },
    { body: z.strictObject({ pbx_id: z.string().min(1), ext: z.string().min(1) }) },
  ),
  numbers.member("DELETE", "endpoints/{pbx}/{ext}", (row, { params }) => {
    const i = row.endpoints.findIndex((e) => e.pbx_id === params.pbx && e.ext === params.ext);
    if (i < 0) throw notFound("endpoint");
    row.endpoints.splice(i, 1);
    return undefined;
  }),
  route({
    method: "GET",
    path: "/voice/destinations",
    scope: "read",
    handler: (ctx) => ({
      data: accountPbxs(ctx).flatMap((pbx) => [
        ...DESTINATION_KINDS.flatMap((kind) =>
          [...pbx.objects[kind].values()].map((r) => ({
            pbx_id: pbx.id,
            kind: kind as string,
            id: r.id,
            name: r.name,
          })),
        ),
        ...[...pbx.objects.extension.values()]
          .filter((r) => r.voicemail?.enabled === true)
          .map((r) => ({ pbx_id: pbx.id, kind: "voicemail", id: r.id, name: r.name })),
      ]),
    }),
  }),
  route({
    method: "GET",
    path: "/voice/extensions",
    scope: "read",
    handler: (ctx) => ({
      data: accountPbxs(ctx).flatMap((pbx) =>
        [...pbx.objects.extension.values()].map((e) => ({ pbx_id: pbx.id, ext: e.id, number: e.number, name: e.name })),
      ),
    }),
  }),
];
