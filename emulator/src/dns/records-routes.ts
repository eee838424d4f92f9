// Records of a zone. Every accepted change bumps the zone's serial.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { normalizeRecordName } from "./names";
import { PROXIABLE_TYPES, contentProblem, healthCheckProblem, insertRecord, storedContent } from "./records";
import { ownZone, recordView } from "./views";
// Hook of the edge-proxy area: proxying a record makes a zone-mode site, un-proxying or deleting removes it.
import { syncZoneSites } from "../cdn/state";
import { type AccountEnv, collection } from "../model/collection";
import { RECORD_TYPES, type RecordRow, type RecordType, type ZoneRow } from "../model/store";
import { intBetween } from "../pipeline/validation";

export const TTL_MIN = 60;
export const TTL_MAX = 86400;
const TTL_DEFAULT = 3600;
const WEIGHT_MAX = 2147483647;

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

// A record's type and name are fixed once it exists; the rest may change.
const patchBody = createBody.omit({ type: true, name: true }).partial();

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

// Each zone keeps its records in a table of its own, named by the path's zone id.
const zoneOfPath = (ctx: AccountEnv) => (ctx as AccountEnv & { params: { id: number } }).params.id;

const zoneRecords = collection({
  path: "/dns/zones/:id/records",
  item: "/dns/zones/:id/records/:rid",
  what: "record",
  table: (ctx) => ctx.store.zoneRecords(zoneOfPath(ctx)),
  view: recordView,
  parent: { own: (ctx) => ownZone(ctx, ctx.params.id), of: (r) => r.zone_id },
  create: {
    body: createBody,
    build: ({ store, body }, zone) => {
      const name = normalizeRecordName(body.name ?? "@");
      if (name === null) {
        throw invalid(
          "name",
          "must be @ or labels of letters, digits, hyphens and underscores (optionally starting with *)",
        );
      }
      // The apex NS set is the service's own pair; the zone-file import ignores apex NS for the same reason.
      if (body.type === "NS" && name === "@")
        throw invalid("name", "NS records at the apex are managed by the service");
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
      return row;
    },
  },
  patch: {
    body: patchBody,
    apply: ({ store, body }, rec) => {
      const zone = store.zones.get(rec.zone_id) as ZoneRow;
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
    },
  },
  remove: ({ store }, rec) => {
    const zone = store.zones.get(rec.zone_id) as ZoneRow;
    // Gone before the sites follow the records, which must no longer count this one.
    store.zoneRecords(zone.id).delete(rec.id);
    store.bumpSerial(zone);
    syncZoneSites(store, zone);
  },
});

export const dnsRecordRoutes = zoneRecords.routes;
