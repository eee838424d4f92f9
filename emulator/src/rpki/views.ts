// What the API returns for hosted-RPKI objects. Internal fields (owning account, the stored
// parent response, the BPKI key material) never leave through anything but these functions.
import type { Store } from "../model/store";
import { cidrContains } from "../util/ip";
import { roaMatches, storedCidr } from "./prefix";
import { type CaRow, type RoaRow, announcedBy, caRoas } from "./state";

export function roaView(r: RoaRow) {
  return {
    id: r.id,
    ca_id: r.ca_id,
    asn: r.asn,
    prefix: r.prefix,
    max_length: r.max_length,
    comment: r.comment,
    created_at: r.created_at,
  };
}

export function caView(store: Store, ca: CaRow) {
  return {
    id: ca.id,
    handle: ca.handle,
    parent_rir: ca.parent_rir,
    asns: [...ca.asns],
    note: ca.note,
    state: ca.state,
    parent_handle: ca.parent_handle,
    service_uri: ca.service_uri,
    synced_at: ca.synced_at,
    created_at: ca.created_at,
    roas: caRoas(store, ca.id).map(roaView),
  };
}

export type Validity = "valid" | "invalid" | "not_found";

/**
 * Every prefix the CA's ASNs announce, judged against the CA's own ROAs as RFC 6811 route-origin
 * validation would: `valid` (a ROA covers it for this ASN and length), `invalid` (ROAs cover the
 * prefix but none allows this origin or length), `not_found` (no ROA covers it).
 */
export function suggestions(store: Store, ca: CaRow) {
  const roas = caRoas(store, ca.id).map((r) => ({
    id: r.id,
    asn: r.asn,
    cidr: storedCidr(r.prefix),
    maxLength: r.max_length,
  }));
  const out = [];
  for (const asn of ca.asns) {
    for (const prefix of announcedBy(store, asn)) {
      const route = { asn, cidr: storedCidr(prefix) };
      const match = roas.find((r) => roaMatches(r, route));
      const validity: Validity = match
        ? "valid"
        : roas.some((r) => cidrContains(r.cidr, route.cidr))
          ? "invalid"
          : "not_found";
      out.push({
        asn,
        prefix,
        covered: match !== undefined,
        validity,
        roa_id: match?.id ?? null,
        suggested_roa: match ? null : { asn, prefix, max_length: route.cidr.len },
      });
    }
  }
  return out;
}

const RPSL_WIDTH = 16;

function attr(name: string, value: string): string {
  return `${`${name}:`.padEnd(RPSL_WIDTH)}${value}`;
}

/** The CA's ROAs as RPSL route / route6 objects, one per ROA in id order, blank-line separated. */
export function rpsl(store: Store, ca: CaRow): string {
  return caRoas(store, ca.id)
    .map((r) => {
      const lines = [attr(r.prefix.includes(":") ? "route6" : "route", r.prefix)];
      // RPSL values are single lines; a multi-line comment is folded into one.
      if (r.comment) lines.push(attr("descr", r.comment.replace(/\s+/g, " ").trim()));
      lines.push(attr("origin", `AS${r.asn}`));
      lines.push(attr("remarks", `ROA ${r.id} of RPKI CA ${ca.handle}, max-length ${r.max_length}`));
      lines.push(attr("source", "NSP-RPKI"));
      return `${lines.join("\n")}\n`;
    })
    .join("\n");
}
