// The dns, cdn, security, rpki, compute, index and ix resources declare each field's roles on the
// property itself; the lists Diff, Read and the secret handling consult are derived from them.
// These are the lists the definitions spelled out by hand before, so a role lost in a property's
// meta fails here even where the schema does not show it (write-only, one-time).
import { describe, expect, it } from "vitest";
import { resourcesByToken } from "../../provider/src/modules/all-definitions";
import { zoneWire } from "../../provider/src/modules/dns/zone";
import { serviceWire } from "../../provider/src/modules/dns/service";

type Lists = { replaceOnChanges?: string[]; secrets?: string[]; writeOnly?: string[]; oneTime?: string[] };

const expected: Record<string, Lists> = {
  "nsp:dns:Zone": { replaceOnChanges: ["serviceId", "name", "mode"], writeOnly: ["forceDestroy"] },
  "nsp:dns:Record": { replaceOnChanges: ["zoneId", "name", "type"] },
  "nsp:dns:ZoneDnssec": { replaceOnChanges: ["zoneId"] },
  "nsp:dns:ZoneTransfer": { replaceOnChanges: ["zoneId"], secrets: ["tsigKey"], writeOnly: ["tsigRotation"] },
  "nsp:dns:ZoneGrant": { replaceOnChanges: ["zoneId", "email"] },
  "nsp:dns:Range": { replaceOnChanges: ["zoneId", "externalRef"] },
  "nsp:dns:ZoneVerification": { replaceOnChanges: ["zoneId"] },
  "nsp:dns:ZoneRecords": { replaceOnChanges: ["zoneId"] },
  "nsp:cdn:Site": {
    replaceOnChanges: ["hostname", "origin", "serviceId"],
    secrets: ["keyPem"],
    writeOnly: ["keyPem", "forceDestroy"],
  },
  "nsp:cdn:SiteSettings": { replaceOnChanges: ["hostname"], secrets: ["keyPem"], writeOnly: ["keyPem"] },
  "nsp:cdn:SiteVerification": { replaceOnChanges: ["siteId"] },
  "nsp:security:Rule": { replaceOnChanges: ["siteId", "zoneId", "field", "op", "value", "action", "seq", "note"] },
  "nsp:rpki:Ca": { replaceOnChanges: ["handle", "parentRir"], writeOnly: ["parentResponseXml", "forceDestroy"] },
  "nsp:rpki:Roa": { replaceOnChanges: ["caId", "asn", "prefix", "maxLength", "comment"] },
  "nsp:compute:VmPower": {
    replaceOnChanges: ["vmId"],
    secrets: ["rootPassword"],
    writeOnly: ["reinstallTrigger"],
    oneTime: ["rootPassword"],
  },
  "nsp:index:Webhook": { secrets: ["secret"], oneTime: ["secret"] },
  "nsp:ix:Member": { replaceOnChanges: ["asn"] },
};

const sorted = (list: readonly string[] | undefined) => [...(list ?? [])].sort();

describe("roles declared on the properties", () => {
  for (const [token, lists] of Object.entries(expected)) {
    it(`${token} derives the replace, secret, write-only and one-time lists it used to spell out`, () => {
      const def = resourcesByToken.get(token);
      expect(def, token).toBeDefined();
      expect({
        replaceOnChanges: sorted(def!.replaceOnChanges),
        secrets: sorted(def!.secrets),
        writeOnly: sorted(def!.writeOnly),
        oneTime: sorted(def!.oneTime),
      }).toEqual({
        replaceOnChanges: sorted(lists.replaceOnChanges),
        secrets: sorted(lists.secrets),
        writeOnly: sorted(lists.writeOnly),
        oneTime: sorted(lists.oneTime),
      });
    });
  }
});

describe("full wire schemas", () => {
  const zone = {
    id: 7,
    service_id: 3,
    name: "example.com",
    mode: "zone",
    enabled: true,
    secondary_master: null,
    status: "pending",
    serial: 1,
    dnssec: false,
    delegation: { checked_at: null, lost_at: null },
    transfer: { allow: [], notify: [], tsig_name: null, tsig_configured: false },
    name_servers: ["ns1.example.net"],
    verified_at: null,
    created_at: "2026-01-01T00:00:00Z",
  };

  it("accept a zone as the API returns it, also used by getZone", () => {
    expect(zoneWire.safeParse(zone).success).toBe(true);
  });

  it("name the field a zone answer lacks, where the hand-written schema checked only id and name", () => {
    const { status: _status, ...withoutStatus } = zone;
    const parsed = zoneWire.safeParse(withoutStatus);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["status"]);
    const badTransfer = zoneWire.safeParse({ ...zone, transfer: { ...zone.transfer, tsig_configured: "no" } });
    expect(badTransfer.error?.issues.map((i) => i.path.join("."))).toEqual(["transfer.tsig_configured"]);
  });

  it("check a service's declared fields, not only its id, name and type", () => {
    const service = { id: 3, name: "dns", type: "auth_dns", plan: "basic", enabled: true };
    expect(serviceWire.safeParse(service).success).toBe(true);
    const { plan: _plan, ...withoutPlan } = service;
    expect(serviceWire.safeParse(withoutPlan).error?.issues.map((i) => i.path.join("."))).toEqual(["plan"]);
  });
});
