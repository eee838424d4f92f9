// Records of a zone. Every accepted change bumps the zone's serial.
import { z } from "zod";
import { invalid } from "../errors";
import { normalizeRecordName } from "./names";
import { PROXIABLE_TYPES, contentProblem, healthCheckProblem, insertRecord, storedContent } from "./records";
import { ownRecord, ownZone, recordView } from "./views";
import { dnsZones } from "./zones-routes";
// Hook of the edge-proxy area: proxying a record makes a zone-mode site, un-proxying or deleting removes it.
import { syncZoneSites } from "../cdn/state";
import { paginate, pagingOnlyQuery } from "../paging";
import { route } from "../router";
import { RECORD_TYPES, type RecordRow, type RecordType } from "../store";
import { intBetween } from "../validation";

export const TTL_MIN = 60;
export const TTL_MAX = 86400;
export const TTL_DEFAULT = 3600;
export const WEIGHT_MAX = 2147483647;

const ttl = intBetween(TTL_MIN, TTL_MAX);
const weight = intBetween(0, WEIGHT_MAX).nullable();

const createBody = z.strictObject({
  type: z.enum(RECORD_TYPES),
  content: z.string(),
  name: z.string().optional(),
  ttl: ttl.optional(),
  weight: weight.optional(),
  health_check: z.string().nullable().optional(),
  // Not in the API's create body, accepted so a proxied or disabled record needs no second call.
  enabled: z.boolean().optional(),
  proxied: z.boolean().optional(),
});

const patchBody = z.strictObject({
  content: z.string().optional(),
  ttl: ttl.optional(),
  weight: weight.optional(),
  health_check: z.string().nullable().optional(),
  enabled: z.boolean().optional(),
  proxied: z.boolean().optional(),
});

function checkContent(type: RecordType, content: string): void {
  const p = contentProblem(type, content);
  if (p) throw invalid("content", p);
}

function checkHealth(v: string | null | undefined): void {
  if (v === null || v === undefined) return;
  const p = healthCheckProblem(v);
  if (p) throw invalid("health_check", p);
}

function checkProxied(type: RecordType, proxied: boolean | undefined): void {
  if (proxied === true && !PROXIABLE_TYPES.has(type)) {
    throw invalid("proxied", `only A, AAAA and CNAME records can be proxied, not ${type}`);
  }
}

export const dnsRecordRoutes = [
  dnsZones.member("GET", "records", (zone, ctx) => {
    return paginate([...ctx.store.zoneRecords(zone.id).values()], ctx.query, recordView);
  }, { query: pagingOnlyQuery }),

  route({
    method: "POST",
    path: "/dns/zones/:id/records",
    scope: "write",
    body: createBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const zone = ownZone(ctx, ctx.params.id);
      const name = normalizeRecordName(body.name ?? "@");
      if (name === null) {
        throw invalid("name", "must be @ or labels of letters, digits, hyphens and underscores (optionally starting with *)");
      }
      // The apex NS set is the service's own pair; the zone-file import ignores apex NS for the same reason.
      if (body.type === "NS" && name === "@") throw invalid("name", "NS records at the apex are managed by the service");
      checkContent(body.type, body.content);
      checkHealth(body.health_check);
      checkProxied(body.type, body.proxied);
      const row = insertRecord(store, zone, {
        name,
        type: body.type,
        ttl: body.ttl ?? TTL_DEFAULT,
        content: storedContent(body.type, body.content),
        enabled: body.enabled ?? true,
        proxied: body.proxied ?? false,
        weight: body.weight ?? null,
        health_check: body.health_check ?? null,
      });
      store.bumpSerial(zone);
      syncZoneSites(store, zone);
      ctx.status(201);
      return recordView(row);
    },
  }),

  route({
    method: "GET",
    path: "/dns/zones/:id/records/:rid",
    scope: "read",
    handler: (ctx) => recordView(ownRecord(ctx.store, ownZone(ctx, ctx.params.id), ctx.params.rid)),
  }),

  route({
    method: "PATCH",
    path: "/dns/zones/:id/records/:rid",
    scope: "write",
    body: patchBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const zone = ownZone(ctx, ctx.params.id);
      const rec = ownRecord(store, zone, ctx.params.rid);
      if (body.content !== undefined) checkContent(rec.type, body.content);
      checkHealth(body.health_check);
      checkProxied(rec.type, body.proxied);
      const next: RecordRow = {
        ...rec,
        content: body.content !== undefined ? storedContent(rec.type, body.content) : rec.content,
        ttl: body.ttl ?? rec.ttl,
        weight: body.weight !== undefined ? body.weight : rec.weight,
        health_check: body.health_check !== undefined ? body.health_check : rec.health_check,
        enabled: body.enabled ?? rec.enabled,
        proxied: body.proxied ?? rec.proxied,
      };
      const changed = (Object.keys(next) as Array<keyof RecordRow>).some((k) => next[k] !== rec[k]);
      if (changed) {
        Object.assign(rec, next);
        store.bumpSerial(zone);
        syncZoneSites(store, zone);
      }
      return recordView(rec);
    },
  }),

  dnsZones.member("DELETE", "records/:rid", (zone, ctx) => {
    const rec = ownRecord(ctx.store, zone, ctx.params.rid);
    ctx.store.zoneRecords(zone.id).delete(rec.id);
    ctx.store.bumpSerial(zone);
    syncZoneSites(ctx.store, zone);
    return undefined;
  }),
];
