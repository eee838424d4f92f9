// Hosted RPKI: certificate authorities under an RIR parent (RFC 8183 setup), their ROAs, and
// what the routing table says about the CA's ASNs.
import { z } from "zod";
import { ApiError, invalid, notFound } from "../errors";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import { parseRoaPrefix } from "./prefix";
import { type CaRow, PARENT_RIRS, type RoaRow, caRoas, deleteCa, newBpkiTa, rpki } from "./state";
import { caView, roaView, rpsl, suggestions } from "./views";
import { childRequestXml, readParentResponse } from "./xml";
import { intBetween, optText } from "../validation";

export const ASN_MAX = 4294967295;
export const MAX_CA_ASNS = 64;
const HANDLE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const asnList = z
  .array(intBetween(1, ASN_MAX))
  .max(MAX_CA_ASNS)
  .superRefine((asns, ctx) => {
    asns.forEach((asn, i) => {
      const first = asns.indexOf(asn);
      if (first !== i) ctx.addIssue({ code: "custom", path: [i], message: `duplicate of asns[${first}]` });
    });
  });

const createCaBody = z.strictObject({
  handle: z.string().regex(HANDLE, { error: "must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit" }),
  parent_rir: z.enum(PARENT_RIRS).optional(),
  asns: asnList.optional(),
});

const patchCaBody = z.strictObject({
  asns: asnList.optional(),
  note: optText(),
});

const parentResponseBody = z.strictObject({ xml: z.string().min(1) });

const createRoaBody = z.strictObject({
  // AS0 is allowed: an AS0 ROA (RFC 7607) declares a prefix that no one should originate.
  asn: intBetween(0, ASN_MAX),
  prefix: z.string(),
  max_length: z.int().optional(),
  comment: optText(),
});

function ownCa(ctx: Env & { account: { name: string } }, id: number): CaRow {
  return ctx.store.owned(rpki(ctx.store).cas, id, ctx.account.name, "CA");
}

const sorted = (asns: readonly number[]) => [...asns].sort((a, b) => a - b);

export const rpkiRoutes = [
  route({
    method: "GET",
    path: "/rpki/cas",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ store, account, query }) => paginate(store.list(rpki(store).cas, account.name), query, (ca) => caView(store, ca)),
  }),

  route({
    method: "POST",
    path: "/rpki/cas",
    scope: "write",
    body: createCaBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const t = rpki(store);
      const clash = store.list(t.cas, account.name).find((c) => c.handle.toLowerCase() === body.handle.toLowerCase());
      if (clash) throw new ApiError("conflict", `handle: a CA with handle ${clash.handle} already exists (id ${clash.id})`);
      const ca: CaRow = {
        id: store.nextId(),
        account: account.name,
        handle: body.handle,
        parent_rir: body.parent_rir ?? "RIPE",
        asns: sorted(body.asns ?? []),
        note: null,
        state: "awaiting_parent",
        parent_handle: null,
        service_uri: null,
        parent_response: null,
        bpki_ta: newBpkiTa(),
        synced_at: null,
        created_at: store.timestamp(),
      };
      t.cas.set(ca.id, ca);
      ctx.status(201);
      return caView(store, ca);
    },
  }),

  route({
    method: "GET",
    path: "/rpki/cas/:id",
    scope: "read",
    handler: (ctx) => caView(ctx.store, ownCa(ctx, ctx.params.id)),
  }),

  route({
    method: "PATCH",
    path: "/rpki/cas/:id",
    scope: "write",
    body: patchCaBody,
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      if (ctx.body.asns !== undefined) ca.asns = sorted(ctx.body.asns);
      if (ctx.body.note !== undefined) ca.note = ctx.body.note;
      return caView(ctx.store, ca);
    },
  }),

  route({
    method: "DELETE",
    path: "/rpki/cas/:id",
    scope: "write",
    handler: (ctx) => {
      deleteCa(ctx.store, ownCa(ctx, ctx.params.id));
      return undefined;
    },
  }),

  route({
    method: "GET",
    path: "/rpki/cas/:id/child-request",
    scope: "read",
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      return { ca_id: ca.id, handle: ca.handle, xml: childRequestXml(ca.handle, ca.bpki_ta) };
    },
  }),

  route({
    method: "POST",
    path: "/rpki/cas/:id/parent-response",
    scope: "write",
    body: parentResponseBody,
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      const parsed = readParentResponse(ctx.body.xml);
      if (!parsed.ok) throw invalid("xml", parsed.problem);
      ca.parent_response = ctx.body.xml;
      ca.parent_handle = parsed.value.parentHandle;
      ca.service_uri = parsed.value.serviceUri;
      ca.state = "active";
      return caView(ctx.store, ca);
    },
  }),

  route({
    method: "POST",
    path: "/rpki/cas/:id/sync",
    scope: "write",
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      if (ca.state !== "active") {
        throw new ApiError("conflict", `CA ${ca.handle} has no parent yet; post the parent's response to /rpki/cas/${ca.id}/parent-response first`);
      }
      ca.synced_at = ctx.store.timestamp();
      return caView(ctx.store, ca);
    },
  }),

  route({
    method: "GET",
    path: "/rpki/cas/:id/suggestions",
    scope: "read",
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      return { ca_id: ca.id, suggestions: suggestions(ctx.store, ca) };
    },
  }),

  route({
    method: "GET",
    path: "/rpki/cas/:id/rpsl",
    scope: "read",
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      return { ca_id: ca.id, text: rpsl(ctx.store, ca) };
    },
  }),

  route({
    method: "GET",
    path: "/rpki/cas/:id/roas",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(caRoas(ctx.store, ownCa(ctx, ctx.params.id).id), ctx.query, roaView),
  }),

  route({
    method: "POST",
    path: "/rpki/cas/:id/roas",
    scope: "write",
    body: createRoaBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const ca = ownCa(ctx, ctx.params.id);
      const p = parseRoaPrefix(body.prefix);
      if (!p.ok) throw invalid("prefix", p.reason);
      const familyMax = p.cidr.version === 4 ? 32 : 128;
      const maxLength = body.max_length ?? p.cidr.len;
      if (maxLength < p.cidr.len || maxLength > familyMax) throw invalid("max_length", `must be between ${p.cidr.len} and ${familyMax}`);
      const dup = caRoas(store, ca.id).find((r) => r.asn === body.asn && r.prefix === p.text && r.max_length === maxLength);
      if (dup) throw new ApiError("conflict", `a ROA for AS${body.asn} ${p.text} max_length ${maxLength} already exists in this CA (id ${dup.id})`);
      const roa: RoaRow = {
        id: store.nextId(),
        account: ca.account,
        ca_id: ca.id,
        asn: body.asn,
        prefix: p.text,
        max_length: maxLength,
        comment: body.comment ?? null,
        created_at: store.timestamp(),
      };
      rpki(store).roas.set(roa.id, roa);
      ctx.status(201);
      return roaView(roa);
    },
  }),

  route({
    method: "DELETE",
    path: "/rpki/cas/:id/roas/:rid",
    scope: "write",
    handler: (ctx) => {
      const ca = ownCa(ctx, ctx.params.id);
      const t = rpki(ctx.store);
      const roa = t.roas.get(ctx.params.rid);
      if (!roa || roa.ca_id !== ca.id) throw notFound("ROA");
      t.roas.delete(roa.id);
      return undefined;
    },
  }),
];
