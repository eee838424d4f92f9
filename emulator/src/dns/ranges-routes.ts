// Address-range grants inside reverse zones (in-addr.arpa / ip6.arpa).
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { assignDefined, collection } from "../model/collection";
import { reverseZonePrefix } from "./names";
import { ownZone, rangeView } from "./views";
import type { RangeRow, Store, ZoneRow } from "../model/store";
import { type Cidr, cidrContains, cidrOverlaps, formatCidr, parseCidr } from "../util/ip";
import { nullWhereAbsent } from "../model/tables";
import { optText } from "../pipeline/validation";

const createBody = z.strictObject({
  prefix: z.string(),
  owner: optText(),
  external_ref: optText(),
  note: optText(),
});

const patchBody = z.strictObject({
  prefix: z.string().optional(),
  owner: optText(),
  note: optText(),
  enabled: z.boolean().optional(),
});

function parsePrefix(s: string): Cidr {
  const r = parseCidr(s.trim());
  if (!r.ok) throw invalid("prefix", r.reason);
  return r.cidr;
}

/** Checks that `cidr` fits the zone and overlaps no other grant in it; returns its canonical text. */
function placeInZone(store: Store, zone: ZoneRow, cidr: Cidr, self?: number): string {
  const cover = reverseZonePrefix(zone.name);
  if (!cover) throw invalid("prefix", `zone ${zone.name} is not a reverse zone`);
  if (!cidrContains(cover, cidr)) {
    throw invalid("prefix", `${formatCidr(cidr)} is outside ${formatCidr(cover)}, the space of zone ${zone.name}`);
  }
  for (const r of store.ranges.values()) {
    if (r.zone_id !== zone.id || r.id === self) continue;
    const other = parseCidr(r.prefix);
    if (other.ok && cidrOverlaps(other.cidr, cidr)) {
      throw new ApiError("conflict", `prefix ${formatCidr(cidr)} overlaps range ${r.id} (${r.prefix})`);
    }
  }
  return formatCidr(cidr);
}

function newRange(store: Store, zone: ZoneRow, body: z.output<typeof createBody>): RangeRow {
  const prefix = placeInZone(store, zone, parsePrefix(body.prefix));
  return {
    id: store.nextId(),
    account: zone.account,
    zone_id: zone.id,
    prefix,
    ...nullWhereAbsent(body, ["owner", "external_ref", "note"]),
    enabled: true,
    created_at: store.timestamp(),
  };
}

const zoneRanges = collection({
  path: "/dns/zones/:id/ranges",
  item: "/dns/zones/:id/ranges/:rid",
  what: "range",
  table: ({ store }) => store.ranges,
  view: rangeView,
  parent: { own: (ctx) => ownZone(ctx, ctx.params.id), of: (r) => r.zone_id },
  create: { body: createBody, build: (ctx, zone) => newRange(ctx.store, zone, ctx.body) },
  get: false,
  patch: {
    body: patchBody,
    apply: ({ store, body }, row) => {
      const zone = store.zones.get(row.zone_id) as ZoneRow;
      row.prefix = body.prefix !== undefined ? placeInZone(store, zone, parsePrefix(body.prefix), row.id) : row.prefix;
      assignDefined(row, body, ["owner", "note", "enabled"]);
    },
  },
  remove: true,
});

// The account's ranges across its zones; a range created here lands in the zone that covers it.
const accountRanges = collection({
  path: "/dns/ranges",
  what: "range",
  table: ({ store }) => store.ranges,
  view: rangeView,
  create: {
    body: createBody,
    build: ({ store, account, body }) => {
      const cidr = parsePrefix(body.prefix);
      // The most specific of the caller's reverse zones that covers the prefix.
      let best: { zone: ZoneRow; len: number } | null = null;
      for (const zone of store.list(store.zones, account.name)) {
        const cover = reverseZonePrefix(zone.name);
        if (cover && cidrContains(cover, cidr) && (!best || cover.len > best.len)) best = { zone, len: cover.len };
      }
      if (!best) throw invalid("prefix", `no reverse zone of this account covers ${formatCidr(cidr)}`);
      return newRange(store, best.zone, body);
    },
  },
  get: false,
});

export const dnsRangeRoutes = [...zoneRanges.routes, ...accountRanges.routes];
