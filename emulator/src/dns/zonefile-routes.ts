// Zone files in and out, and moving a zone here from elsewhere.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { exportZone, parseZoneFile } from "./bind";
import { storedContent, insertRecord } from "./records";
import { zoneService } from "./views";
import { dnsZones } from "./zones-routes";

import type { RecordType, Store, ZoneRow } from "../model/store";
import { isIP } from "../util/ip";
import { TTL_MAX, TTL_MIN } from "./records-routes";

const importBody = z.strictObject({
  text: z.string(),
  mode: z.enum(["preview", "apply"]).optional(),
  replace: z.boolean().optional(),
});

const migrationBody = z.strictObject({
  mode: z.enum(["axfr", "zonefile", "fresh"]),
  master_ip: z.string().optional(),
  zonefile: z.string().optional(),
});

export interface ImportResult {
  mode: "preview" | "apply";
  added: number;
  skipped: string[];
  deleted: number;
}

function recordKey(r: { name: string; type: RecordType; content: string; ttl: number }): string {
  return [r.name, r.type, storedContent(r.type, r.content), r.ttl].join("\u0000");
}

/**
 * The largest zone-file text a request takes. The API documents no body limit; a zone file is the
 * one body that grows with the zone (100,000 records are about 4 MB), so the zone-file endpoints
 * take up to 64 MiB where every other takes 1 MiB.
 */
const ZONE_FILE_MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Imports BIND text into `zone`. Everything is parsed and planned first and written only at the
 * end, so a bad line leaves the zone untouched. An exact duplicate (same name, type, content and
 * TTL, of an existing record or of an earlier line) is skipped; with `replace`, existing records
 * that no line matches are deleted. `rewrite` is the alternative reading of `replace`: every
 * existing record is deleted and every line added anew.
 */
export function importZoneText(
  store: Store,
  zone: ZoneRow,
  text: string,
  apply: boolean,
  replace: boolean,
  rewrite = false,
): ImportResult {
  const parsed = parseZoneFile(text, zone.name, { min: TTL_MIN, max: TTL_MAX });
  const existing = [...store.zoneRecords(zone.id).values()];
  const existingKeys = new Set(replace && rewrite ? [] : existing.map(recordKey));
  const textKeys = new Set<string>();
  const skipped = [...parsed.skipped];
  const toAdd: typeof parsed.records = [];
  for (const p of parsed.records) {
    const k = recordKey(p);
    if (existingKeys.has(k) || textKeys.has(k)) skipped.push({ line: p.line, entry: `${p.text} (duplicate)` });
    else toAdd.push(p);
    textKeys.add(k);
  }
  const toDelete = replace ? existing.filter((r) => rewrite || !textKeys.has(recordKey(r))) : [];
  if (apply) {
    const records = store.zoneRecords(zone.id);
    for (const r of toDelete) records.delete(r.id);
    for (const p of toAdd) insertRecord(store, zone, { name: p.name, type: p.type, ttl: p.ttl, content: p.content });
    if (toAdd.length > 0 || toDelete.length > 0) store.bumpSerial(zone);
  }
  skipped.sort((a, b) => a.line - b.line);
  return {
    mode: apply ? "apply" : "preview",
    added: toAdd.length,
    skipped: skipped.map((s) => s.entry),
    deleted: toDelete.length,
  };
}

function registrarSteps(zone: ZoneRow, ns: string[]): string[] {
  return [
    `At the registrar of ${zone.name}, set the name servers to ${ns.join(" and ")}.`,
    `Then call POST /dns/zones/${zone.id}/verify until the result reports active.`,
  ];
}

export const dnsZoneFileRoutes = [
  dnsZones.member("GET", "export", (zone, ctx) => {
    const ns = zoneService(ctx.store, zone)?.name_servers ?? [];
    return {
      zone_id: zone.id,
      name: zone.name,
      serial: zone.serial,
      text: exportZone(zone, ctx.store.zoneRecords(zone.id).values(), ns),
    };
  }),

  dnsZones.member(
    "POST",
    "import",
    (zone, ctx) => {
      const b = ctx.body;
      return importZoneText(
        ctx.store,
        zone,
        b.text,
        (b.mode ?? "preview") === "apply",
        b.replace ?? false,
        ctx.alternatives.has("replace-rewrites"),
      );
    },
    { body: importBody, maxBodyBytes: ZONE_FILE_MAX_BODY_BYTES },
  ),

  dnsZones.member("POST", "migration/plan", (zone, ctx) => {
    const expected = zoneService(ctx.store, zone)?.name_servers ?? [];
    const current = ctx.publicDns.get(zone.name)?.ns ?? [];
    const servedHere = current.length > 0 && current.every((h) => expected.includes(h));
    const servedElsewhere = current.length > 0 && !servedHere;
    return {
      zone_id: zone.id,
      name: zone.name,
      current_ns: current,
      expected_ns: [...expected],
      served_here: servedHere,
      modes: [
        {
          mode: "axfr",
          available: servedElsewhere,
          note: "transfer the zone from the current primary (needs master_ip)",
        },
        { mode: "zonefile", available: true, note: "import a BIND zone file" },
        { mode: "fresh", available: true, note: "start with an empty zone" },
      ],
      recommended: servedElsewhere ? "axfr" : "fresh",
      steps: servedHere ? [] : registrarSteps(zone, expected),
    };
  }),

  dnsZones.member(
    "POST",
    "migration/apply",
    (zone, ctx) => {
      const b = ctx.body;
      if (b.mode === "axfr") {
        if (b.master_ip === undefined) throw invalid("master_ip", "is required for mode axfr");
        if (!isIP(b.master_ip)) throw invalid("master_ip", "must be an IP address");
      } else if (b.master_ip !== undefined) {
        throw invalid("master_ip", "is only used with mode axfr");
      }
      if (b.mode === "zonefile" && b.zonefile === undefined) throw invalid("zonefile", "is required for mode zonefile");
      if (b.mode !== "zonefile" && b.zonefile !== undefined)
        throw invalid("zonefile", "is only used with mode zonefile");
      let result: ImportResult = { mode: "apply", added: 0, skipped: [], deleted: 0 };
      // The emulator cannot reach a real primary, so an AXFR migration transfers nothing.
      if (b.mode === "zonefile") result = importZoneText(ctx.store, zone, b.zonefile ?? "", true, false);
      const ns = zoneService(ctx.store, zone)?.name_servers ?? [];
      return {
        zone_id: zone.id,
        mode: b.mode,
        added: result.added,
        skipped: result.skipped,
        registrar_steps: registrarSteps(zone, ns),
      };
    },
    { body: migrationBody, maxBodyBytes: ZONE_FILE_MAX_BODY_BYTES },
  ),
];
