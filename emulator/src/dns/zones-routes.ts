// Zones: create, read, patch, delete (with cascade) and NS verification.
import { z } from "zod";
import { ApiError, invalid } from "../errors";
import { checkDelegation } from "./delegation";
import { normalizeZoneName } from "./names";
import { ownZone, zoneView } from "./views";
import { paginate, pagingQuery } from "../paging";
import { route } from "../router";
import type { ZoneRow } from "../store";
import { isIP } from "../util/ip";
import { intBetween, queryInt } from "../validation";

export const NEGATIVE_TTL_DEFAULT = 300;
export const NEGATIVE_TTL_MIN = 60;
export const NEGATIVE_TTL_MAX = 86400;

const createBody = z.strictObject({
  service_id: z.int(),
  name: z.string(),
  mode: z.enum(["zone", "host"]).optional(),
});

const patchBody = z.strictObject({
  enabled: z.boolean().optional(),
  secondary_master: z.string().nullable().optional(),
  negative_ttl: intBetween(NEGATIVE_TTL_MIN, NEGATIVE_TTL_MAX).optional(),
});

export const dnsZoneRoutes = [
  route({
    method: "GET",
    path: "/dns/zones",
    scope: "read",
    query: z.strictObject({ ...pagingQuery, service_id: queryInt(1).optional() }),
    handler: ({ store, account, query }) => {
      let zones = store.list(store.zones, account.name);
      if (query.service_id !== undefined) zones = zones.filter((zn) => zn.service_id === query.service_id);
      return paginate(zones, query, (zn) => zoneView(store, zn));
    },
  }),

  route({
    method: "POST",
    path: "/dns/zones",
    scope: "write",
    body: createBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const name = normalizeZoneName(body.name);
      if (name === null) throw invalid("name", "must be a valid domain name such as example.com");
      // Another account's service reads exactly like a missing one, so ids do not leak.
      const svc = store.services.get(body.service_id);
      if (!svc || svc.account !== account.name) throw invalid("service_id", `no service ${body.service_id} in this account`);
      if (svc.type !== "auth_dns") throw invalid("service_id", `service ${svc.id} is a ${svc.type} service, not auth_dns`);
      if (store.list(store.zones, account.name).some((zn) => zn.name === name)) {
        throw new ApiError("conflict", `zone ${name} already exists in this account`);
      }
      const zone: ZoneRow = {
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
        negative_ttl: NEGATIVE_TTL_DEFAULT,
        transfer: { allow: [], notify: [], tsig_name: null, tsig_secret: null },
        delegation: { checked_at: null, lost_at: null },
        verified_at: null,
        created_at: store.timestamp(),
      };
      store.zones.set(zone.id, zone);
      ctx.status(201);
      return zoneView(store, zone);
    },
  }),

  route({
    method: "GET",
    path: "/dns/zones/:id",
    scope: "read",
    handler: (ctx) => zoneView(ctx.store, ownZone(ctx, ctx.params.id)),
  }),

  route({
    method: "PATCH",
    path: "/dns/zones/:id",
    scope: "write",
    body: patchBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const zone = ownZone(ctx, ctx.params.id);
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
      return zoneView(store, zone);
    },
  }),

  route({
    method: "DELETE",
    path: "/dns/zones/:id",
    scope: "write",
    handler: (ctx) => {
      ctx.store.deleteZone(ownZone(ctx, ctx.params.id));
      return undefined;
    },
  }),

  route({
    method: "POST",
    path: "/dns/zones/:id/verify",
    scope: "write",
    handler: (ctx) => checkDelegation(ctx.store, ctx.publicDns, ownZone(ctx, ctx.params.id)),
  }),
];
