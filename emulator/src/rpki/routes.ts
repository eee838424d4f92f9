// Hosted RPKI: certificate authorities under an RIR parent (RFC 8183 setup), their ROAs, and
// what the routing table says about the CA's ASNs.
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { assignDefined, collection } from "../model/collection";
import { parseRoaPrefix } from "./prefix";
import { type CaRow, PARENT_RIRS, type RoaRow, caRoas, deleteCa, newBpkiTa, rpki } from "./state";
import { caView, roaView, rpsl, suggestions } from "./views";
import { childRequestXml, readParentResponse } from "./xml";
import { intBetween, noRepeats, optText } from "../pipeline/validation";

const ASN_MAX = 4294967295;
const MAX_CA_ASNS = 64;
const HANDLE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const asnList = z
  .array(intBetween(1, ASN_MAX))
  .max(MAX_CA_ASNS)
  .superRefine(noRepeats((first) => `duplicate of asns[${first}]`));

const createCaBody = z.strictObject({
  handle: z
    .string()
    .regex(HANDLE, { error: "must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit" }),
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

const sorted = (asns: readonly number[]) => [...asns].sort((a, b) => a - b);

const cas = collection({
  path: "/rpki/cas",
  what: "CA",
  table: ({ store }) => rpki(store).cas,
  view: (ca, { store }) => caView(store, ca),
  create: {
    body: createCaBody,
    build: ({ store, account, body }): CaRow => {
      const clash = store
        .list(rpki(store).cas, account.name)
        .find((c) => c.handle.toLowerCase() === body.handle.toLowerCase());
      if (clash)
        throw new ApiError("conflict", `handle: a CA with handle ${clash.handle} already exists (id ${clash.id})`);
      return {
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
    },
  },
  patch: {
    body: patchCaBody,
    apply: ({ body }, ca) => assignDefined(ca, { ...body, asns: body.asns && sorted(body.asns) }, ["asns", "note"]),
  },
  remove: ({ store }, ca) => deleteCa(store, ca),
});

const roas = collection({
  path: "/rpki/cas/:id/roas",
  item: "/rpki/cas/:id/roas/:rid",
  what: "ROA",
  table: ({ store }) => rpki(store).roas,
  view: roaView,
  parent: { own: (ctx) => cas.own(ctx, ctx.params.id), of: (r) => r.ca_id },
  create: {
    body: createRoaBody,
    build: ({ store, body }, ca): RoaRow => {
      const p = parseRoaPrefix(body.prefix);
      if (!p.ok) throw invalid("prefix", p.reason);
      const familyMax = p.cidr.version === 4 ? 32 : 128;
      const maxLength = body.max_length ?? p.cidr.len;
      if (maxLength < p.cidr.len || maxLength > familyMax)
        throw invalid("max_length", `must be between ${p.cidr.len} and ${familyMax}`);
      const dup = caRoas(store, ca.id).find(
        (r) => r.asn === body.asn && r.prefix === p.text && r.max_length === maxLength,
      );
      if (dup)
        throw new ApiError(
          "conflict",
          `a ROA for AS${body.asn} ${p.text} max_length ${maxLength} already exists in this CA (id ${dup.id})`,
        );
      return {
        id: store.nextId(),
        account: ca.account,
        ca_id: ca.id,
        asn: body.asn,
        prefix: p.text,
        max_length: maxLength,
        comment: body.comment ?? null,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  remove: true,
});

export const rpkiRoutes = [
  ...cas.routes,

  cas.member("GET", "child-request", (ca) => ({
    ca_id: ca.id,
    handle: ca.handle,
    xml: childRequestXml(ca.handle, ca.bpki_ta),
  })),

  cas.member(
    "POST",
    "parent-response",
    (ca, { store, body }) => {
      const parsed = readParentResponse(body.xml);
      if (!parsed.ok) throw invalid("xml", parsed.problem);
      ca.parent_response = body.xml;
      ca.parent_handle = parsed.value.parentHandle;
      ca.service_uri = parsed.value.serviceUri;
      ca.state = "active";
      return caView(store, ca);
    },
    { body: parentResponseBody },
  ),

  cas.member("POST", "sync", (ca, { store }) => {
    if (ca.state !== "active") {
      throw new ApiError(
        "conflict",
        `CA ${ca.handle} has no parent yet; post the parent's response to /rpki/cas/${ca.id}/parent-response first`,
      );
    }
    ca.synced_at = store.timestamp();
    return caView(store, ca);
  }),

  cas.member("GET", "suggestions", (ca, { store }) => ({ ca_id: ca.id, suggestions: suggestions(store, ca) })),
  cas.member("GET", "rpsl", (ca, { store }) => ({ ca_id: ca.id, text: rpsl(store, ca) })),

  ...roas.routes,
];
