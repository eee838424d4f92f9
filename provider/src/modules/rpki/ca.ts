import { z } from "zod";
import type { Holds } from "../../framework/definition/holds";
import type { OperationContext } from "../../framework/definition";
import { deepEqual } from "../../framework/engine/diff";
import { collection, apiId, naturalKey } from "../../framework/api/shapes/collection";
import { ownIdOf } from "../../framework/api/ids";
import { ASN_MAX, roa } from "./roa";

export const PARENT_RIRS = ["AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE"] as const;

const asns = z
  .array(z.number().int().min(1).max(ASN_MAX))
  .superRefine((list, ctx) => {
    list.forEach((asn, i) => {
      const first = list.indexOf(asn);
      if (first !== i)
        ctx.addIssue({ code: "custom", path: [i], message: `AS${asn} is listed twice (also at asns[${first}])` });
    });
  })
  // A set in meaning: sorted, so that the order a program lists them in is never a change.
  .transform((list) => [...list].sort((a, b) => a - b));

const caArgs = z.object({
  handle: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
      "must be 1 to 64 letters, digits, `-` or `_`, starting with a letter or digit",
    )
    .meta({
      key: true,
      description:
        "The CA's handle, which the parent RIR sees in the child request. Unique in the account (ignoring case).",
      create: true,
      replace: true,
    }),
  parentRir: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(PARENT_RIRS))
    .optional()
    .meta({
      description:
        "The regional registry that is the CA's parent: `AFRINIC`, `APNIC`, `ARIN`, `LACNIC` or `RIPE`. Left " +
        "to the API when unset.",
      create: true,
      replace: true,
    }),
  // An API that leaves asns out of a CA means none.
  asns: asns.default([]).meta({
    description: "The ASNs whose announcements the CA tracks (see `nsp:rpki:getRpkiSuggestions`).",
    create: true,
    patch: true,
    optionalOnWire: true,
  }),
  // The create body has no note; a patch sets it.
  note: z.string().max(1024).optional().meta({ description: "Free-text note.", patch: true }),
  parentResponseXml: z
    .string()
    .refine(
      (s) => /<([A-Za-z_][\w.-]*:)?parent_response[\s/>]/.test(s),
      "must be the RFC 8183 parent response XML (a <parent_response> document) that the parent RIR returned " +
        "for `childRequestXml`",
    )
    .optional()
    .meta({
      description:
        "The RFC 8183 parent response the RIR returned for `childRequestXml`. Posting it activates the CA; a " +
        "new value is posted again. The API never returns it, so it is compared with the value last applied.",
      // Posted to its own endpoint, never in the CA's bodies.
      writeOnly: true,
    }),
});

const caState = z.object({
  state: z.string().meta({ description: "`awaiting_parent` until a parent response is accepted, then `active`." }),
  parentHandle: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The parent's handle, from the accepted parent response." }),
  serviceUri: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The parent's up-down service URI, from the accepted parent response." }),
  syncedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When certified resources were last refreshed from the repository." }),
  // Read from its own endpoint, not from the CA.
  childRequestXml: z
    .string()
    .meta({ description: "The RFC 8183 child request to hand to the parent RIR.", local: true }),
  createdAt: z.string().meta({ description: "When the CA was created." }),
});

const caProperties = caArgs.extend(caState.shape);
export type CaState = z.output<typeof caProperties>;

const cas = collection({
  token: "nsp:rpki:Ca",
  path: "/rpki/cas",
  args: caArgs,
  state: caState,
  idOnWire: z.number().int(),
  id: apiId((id) => ownIdOf("nsp:rpki:Ca", id, { what: "CA", form: "<caId>" })),
  adjust: (state, raw) => ({
    ...state,
    asns: [...((raw.asns as number[] | null | undefined) ?? [])].sort((a, b) => a - b),
  }),
  // Dropping the note from the program clears it (the API takes null although the input is not nullable).
  patchBody: (patch, news, changed) => (changed.includes("note") ? { ...patch, note: news.note ?? null } : patch),
});
// Read from a JSON object's `xml`, or a bare JSON string: where the document sits is not documented.
const childRequestWire = z.union([z.string(), z.looseObject({ xml: z.string() }).transform((o) => o.xml)]);

/** The state of a CA with its child request, which is read from its own endpoint. */
async function withChildRequest(ctx: OperationContext, id: string, state: CaState): Promise<CaState> {
  return {
    ...state,
    childRequestXml: await ctx.client.get(`${cas.itemPath(id)}/child-request`, {
      schema: childRequestWire,
      signal: ctx.signal,
    }),
  };
}

async function postParentResponse(ctx: OperationContext, id: string, xml: string): Promise<CaState> {
  return cas.toState(
    await ctx.client.post(`${cas.itemPath(id)}/parent-response`, { xml }, { schema: cas.wire, signal: ctx.signal }),
  ).state;
}

const caHolds: Holds = {
  what: "CA",
  kinds: [{ of: roa, names: ["ROA", "ROAs"], nameOf: (r) => `${String(r.prefix)} AS${String(r.asn)}` }],
};

export const ca = cas.resource({
  since: "0.1.0",
  list: { label: (c) => String(c.handle) },
  description:
    "A hosted RPKI certificate authority. Hand `childRequestXml` to the parent RIR, then set " +
    "`parentResponseXml` to its answer to activate the CA. Deleting a CA deletes its ROAs: see Deleting.",
  holds: caHolds,
  // Handles are unique in the account, so a replacement that keeps its handle must wait for the delete.
  deleteBeforeReplace: (olds, news) => olds.handle.toLowerCase() === news.handle.toLowerCase(),
  importId: "<caId>",

  async create(ctx, args) {
    // Handles are unique in an account, ignoring case.
    const { id, state } = await cas.create(
      ctx,
      `CA ${args.handle}`,
      args,
      naturalKey((c) => String(c.handle).toLowerCase() === args.handle.toLowerCase()),
    );
    let last: CaState = { ...state, childRequestXml: "" };
    // A later step failing leaves the CA in the state, half-made; the next up finishes it.
    ctx.progress(id, last);
    if (args.note !== undefined) last = await cas.update(ctx, id, args, last, ["note"]);
    if (args.parentResponseXml !== undefined) last = await postParentResponse(ctx, id, args.parentResponseXml);
    return { id, state: await withChildRequest(ctx, id, last) };
  },

  async read(ctx, id) {
    const found = await cas.read(ctx, id);
    return found && { id, state: await withChildRequest(ctx, id, found.state) };
  },

  async update(ctx, id, news, olds) {
    let last: CaState | undefined;
    const changed = [
      ...(deepEqual(news.asns, olds.asns) ? [] : ["asns"]),
      ...(news.note !== olds.note && !(news.note === undefined && (olds.note === null || olds.note === undefined))
        ? ["note"]
        : []),
    ];
    if (changed.length) last = await cas.update(ctx, id, news, olds, changed);
    // A parent response cannot be withdrawn; only a new one is posted.
    if (news.parentResponseXml !== undefined && news.parentResponseXml !== olds.parentResponseXml)
      last = await postParentResponse(ctx, id, news.parentResponseXml);
    if (!last) return { ...olds, ...news };
    return { ...last, childRequestXml: olds.childRequestXml };
  },
});
