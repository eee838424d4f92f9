// Zones: create, read, patch, delete (with cascade) and NS verification.
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { checkDelegation } from "./delegation";
import { normalizeZoneName } from "../model/names";
import { zoneView } from "./views";
import { collection } from "../model/collection";
import { pagingQuery } from "../model/paging";
import type { ZoneRow } from "../model/store";
import { isIP } from "../util/ip";
import { intBetween, queryInt } from "../pipeline/validation";
import { TTL_MAX, TTL_MIN } from "./records-routes";

const createBody = z.strictObject({
  service_id: z.int(),
  name: z.string(),
  mode: z.enum(["zone", "host"]).optional(),
});

const patchBody = z.strictObject({
  enabled: z.boolean().optional(),
  secondary_master: z.string().nullable().optional(),
  // The time a resolver caches "no such name" is bounded as a record's TTL is.
  negative_ttl: intBetween(TTL_MIN, TTL_MAX).optional(),
});

export const dnsZones = collection({
  path: "/dns/zones",
  what: "zone",
  table: ({ store }) => store.zones,
  view: (zn, { store }) => zoneView(store, zn),
  list: {
    query: z.strictObject({ ...pagingQuery, service_id: queryInt(1).optional() }),
    rows: ({ store, account, query }) =>
      store
        .list(store.zones, account.name)
        .filter((zn) => query.service_id === undefined || zn.service_id === query.service_id),
  },
  create: {
    body: createBody,
    build: (ctx): ZoneRow => {
      const { store, account, body } = ctx;
      const name = normalizeZoneName(body.name);
      if (name === null) throw invalid("name", "must be a valid domain name such as example.com");
      // Another account's service reads exactly like a missing one, so ids do not leak.
      const svc = store.services.get(body.service_id);
      if (!svc || svc.account !== account.name)
        throw invalid("service_id", `no service ${body.service_id} in this account`);
      if (svc.type !== "auth_dns")
        throw invalid("service_id", `service ${svc.id} is a ${svc.type} service, not auth_dns`);
      if (store.list(store.zones, account.name).some((zn) => zn.name === name)) {
        throw new ApiError("conflict", `zone ${name} already exists in this account`);
      }
      return {
        id: store.nextId(),
        account: account.name,
        service_id: svc.id,
        name,
        mode: body.mode ?? "zone",
        status: "pending",
        enabled: true,
        serial: store.serialBase() + 1,
        dnssec: null,
        secondary_master: null,
        negative_ttl: 300,
        transfer: { allow: [], notify: [], tsig_name: null, tsig_secret: null },
        delegation: { checked_at: null, lost_at: null },
        verified_at: null,
        created_at: store.timestamp(),
      };
    },
  },
  patch: {
    body: patchBody,
    apply: (ctx, zone) => {
      const { store, body } = ctx;
      let master = zone.secondary_master;
      if (body.secondary_master !== undefined) {
        const v = body.secondary_master === null ? "" : body.secondary_master.trim();
        if (v !== "" && !isIP(v)) {
          throw invalid("secondary_master", "must be an IP address, or null or empty to serve the zone as primary");
        }
        master = v === "" ? null : v;
      }
      let changed = false;
      if (body.enabled !== undefined && body.enabled !== zone.enabled) {
        zone.enabled = body.enabled;
        changed = true;
      }
      if (master !== zone.secondary_master) {
        zone.secondary_master = master;
        changed = true;
      }
      if (body.negative_ttl !== undefined && body.negative_ttl !== zone.negative_ttl) {
        zone.negative_ttl = body.negative_ttl;
        changed = true;
      }
      if (changed) store.bumpSerial(zone);
    },
  },
  remove: (ctx, zone) => ctx.store.deleteZone(zone),
});

export const dnsZoneRoutes = [
  ...dnsZones.routes,
  dnsZones.member("POST", "verify", (zone, ctx) => checkDelegation(ctx.store, ctx.publicDns, zone)),
];
