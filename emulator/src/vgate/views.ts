// What the PBX gateway answers. Secrets (SIP passwords, trunk passwords) never appear here; the
// handlers that issue a SIP password add it to that one answer.
import type { AnyRow, ExtensionRow, Kind, NumberRow, PbxRow, TrunkRow } from "./state";

export function pbxView(pbx: PbxRow): Record<string, unknown> {
  return {
    id: pbx.id,
    name: pbx.name,
    city: pbx.city,
    timezone: pbx.timezone,
    template: pbx.template,
    language: pbx.language,
    settings: structuredClone(pbx.settings),
    status: pbx.status,
    calls_up: pbx.calls_up,
    sip_domain: pbx.sip_domain,
    reloaded_at: pbx.reloaded_at,
    created_at: pbx.created_at,
    updated_at: pbx.updated_at,
  };
}

export function objectView(kind: Kind, row: AnyRow): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(row) as unknown as Record<string, unknown>;
  if (kind === "extension") {
    delete out.sip_password;
    out.sip_username = (row as ExtensionRow).number;
  }
  if (kind === "trunk") {
    delete out.password;
    out.password_set = (row as TrunkRow).password !== null;
  }
  if (kind === "number") out.flow = (row as NumberRow).flow === null ? null : structuredClone((row as NumberRow).flow);
  return out;
}
