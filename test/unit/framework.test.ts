import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkProperties } from "../../provider/src/framework/engine/check";
import { diffResource } from "../../provider/src/framework/engine/diff";
import {
  makeSecret,
  OUTPUT_SIG,
  SIG_KEY,
  UNKNOWN,
  unwrapProperties,
  wrapSecrets,
} from "../../provider/src/framework/engine/property-values";
import {
  fromWire,
  idRef,
  isoTimestamp,
  sameInstant,
  toWire,
  wireTimestamp,
} from "../../provider/src/framework/api/wire";
import { record } from "../../provider/src/modules/dns/record";
import { zone } from "../../provider/src/modules/dns/zone";

describe("property values", () => {
  it("unwraps secrets and output values, remembering which top-level keys were secret", () => {
    const { value, secretKeys } = unwrapProperties({
      token: makeSecret("svc_x"),
      nested: { a: [1, makeSecret("s")] },
      plain: "p",
      out: { [SIG_KEY]: OUTPUT_SIG, value: "known", secret: true },
      pending: { [SIG_KEY]: OUTPUT_SIG },
    });
    expect(value).toEqual({ token: "svc_x", nested: { a: [1, "s"] }, plain: "p", out: "known", pending: UNKNOWN });
    expect([...secretKeys].sort()).toEqual(["nested", "out", "token"]);
    expect(wrapSecrets({ a: 1, b: null }, ["a", "b"])).toEqual({ a: makeSecret(1), b: null });
  });
});

describe("checkProperties", () => {
  const schema = z.object({
    id: idRef("x"),
    ttl: z.number().int().min(60).default(3600),
    note: z.string().nullable().optional(),
  });

  it("passes unknown values through, fills defaults and names each failing property", () => {
    expect(checkProperties(schema, { id: UNKNOWN })).toEqual({
      value: { id: UNKNOWN, ttl: 3600 },
      failures: [],
      hasUnknowns: true,
    });
    const bad = checkProperties(schema, { ttl: 5, extra: true });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["extra", "id", "ttl"]);
    expect(bad.failures.find((f) => f.property === "id")!.reason).toBe("is required");
    expect(bad.failures.find((f) => f.property === "ttl")!.reason).toBe("must be at least 60, got 5");
  });

  it("treats null as unset unless the property accepts null", () => {
    expect(checkProperties(schema, { id: "7", ttl: null, note: null }).value).toEqual({
      id: "7",
      ttl: 3600,
      note: null,
    });
  });
});

describe("wire conversion", () => {
  it("sends string ids as integers and snake_case keys, and reads them back", () => {
    const schema = z.object({
      zoneId: idRef("z"),
      healthCheck: z.string().nullable().optional(),
      nested: z.object({ lostAt: z.string().nullable() }).optional(),
    });
    expect(toWire(schema, { zoneId: "12", healthCheck: null })).toEqual({ zone_id: 12, health_check: null });
    expect(fromWire(schema, { zone_id: 12, health_check: "https:443/", nested: { lost_at: null }, other: 1 })).toEqual({
      zoneId: "12",
      healthCheck: "https:443/",
      nested: { lostAt: null },
    });
  });

  it("stores a timestamp given as epoch seconds or as any RFC 3339 string as one ISO string", () => {
    const iso = "2025-11-21T12:00:00.250Z";
    const schema = z.object({
      createdAt: z.string(),
      nested: z.object({ checkedAt: z.string().nullable() }),
      at: z.string(),
      content: z.string(),
      count: z.number(),
    });
    const expected = { createdAt: iso, nested: { checkedAt: iso }, at: iso, content: "1763726400", count: 5 };
    expect(
      fromWire(schema, { created_at: iso, nested: { checked_at: iso }, at: iso, content: "1763726400", count: 5 }),
    ).toEqual(expected);
    expect(
      fromWire(schema, {
        created_at: 1763726400.25,
        nested: { checked_at: 1763726400.25 },
        at: 1763726400.25,
        content: 1763726400,
        count: 5,
      }),
    ).toEqual(expected);
    expect(
      fromWire(schema, {
        created_at: "2025-11-21T13:00:00.25+01:00",
        nested: { checked_at: null },
        at: "2025-11-21 12:00:00.250Z",
        content: "x",
        count: 5,
      }),
    ).toMatchObject({ createdAt: iso, nested: { checkedAt: null }, at: iso });
    expect(isoTimestamp(1763726400)).toBe("2025-11-21T12:00:00.000Z");
    expect(isoTimestamp("not a date")).toBe("not a date");
    expect(wireTimestamp.parse(1763726400.25)).toBe(iso);
    expect(wireTimestamp.parse(iso)).toBe(iso);
  });

  it("takes two spellings of one instant in a timestamp property as the same value, and nothing else", () => {
    expect(sameInstant("grantedAt", "2026-02-01T10:00:00Z", "2026-02-01T10:00:00.000Z")).toBe(true);
    expect(sameInstant("at", "2026-02-01T11:00:00+01:00", "2026-02-01T10:00:00.000Z")).toBe(true);
    expect(sameInstant("grantedAt", "2026-02-01T10:00:00Z", "2026-02-01T10:00:01.000Z")).toBe(false);
    expect(sameInstant("content", "2026-02-01T10:00:00Z", "2026-02-01T10:00:00.000Z")).toBe(false);
    expect(sameInstant("grantedAt", "soon", "soon ")).toBe(false);
  });
});

describe("diffResource", () => {
  const state = {
    zoneId: "1",
    name: "www",
    type: "A",
    content: "192.0.2.1",
    ttl: 3600,
    enabled: true,
    proxied: false,
    weight: null,
    createdAt: "t",
  };
  const inputs = {
    zoneId: "1",
    name: "www",
    type: "A",
    content: "192.0.2.1",
    ttl: 3600,
    enabled: true,
    proxied: false,
  };

  it("finds no change when the inputs match the state, whatever the API added", () => {
    expect(diffResource(record, state, inputs, inputs).changes).toBe(false);
  });

  it("updates in place, replaces on name or type, and treats unknowns as changes", () => {
    expect(diffResource(record, state, { ...inputs, ttl: 300 }, inputs)).toMatchObject({
      changes: true,
      diffs: ["ttl"],
      replaces: [],
      detailed: { ttl: "UPDATE" },
    });
    expect(diffResource(record, state, { ...inputs, type: "AAAA", content: "::1" }, inputs)).toMatchObject({
      replaces: ["type"],
      detailed: { type: "UPDATE_REPLACE", content: "UPDATE" },
    });
    expect(diffResource(record, state, { ...inputs, zoneId: UNKNOWN }, inputs).replaces).toEqual(["zoneId"]);
  });

  it("leaves API-chosen values alone but sees a dropped input", () => {
    const zoneState = {
      serviceId: "2",
      name: "a.example",
      mode: "zone",
      enabled: true,
      negativeTtl: 300,
      status: "active",
    };
    const zoneInputs = { serviceId: "2", name: "a.example", mode: "zone", enabled: true };
    expect(diffResource(zone, zoneState, zoneInputs, zoneInputs).changes).toBe(false);
    const withWeight = { ...state, weight: 5 };
    expect(diffResource(record, withWeight, inputs, { ...inputs, weight: 5 }).detailed).toEqual({ weight: "DELETE" });
  });

  it("deletes a zone before creating its replacement when the name stays", () => {
    const s = { serviceId: "2", name: "a.example", mode: "zone", enabled: true };
    expect(diffResource(zone, s, { ...s, mode: "host" }, s).deleteBeforeReplace).toBe(true);
    expect(diffResource(zone, s, { ...s, name: "b.example" }, s).deleteBeforeReplace).toBe(false);
  });
});

describe("per-element detailed diff", () => {
  it("shows each record of nsp:dns:ZoneRecords added, changed or removed, while diffs name the property", async () => {
    const { zoneRecords } = await import("../../provider/src/modules/dns/zone-records");
    const rec = (name: string, content: string) => ({ name, type: "A", content, ttl: 3600 });
    const olds = {
      zoneId: "1",
      records: [rec("a", "192.0.2.1"), rec("b", "192.0.2.2"), rec("c", "192.0.2.3")],
      maxDeletePercent: 20,
    };
    const grown = {
      ...olds,
      records: [rec("a", "192.0.2.1"), rec("b", "192.0.2.9"), rec("c", "192.0.2.3"), rec("d", "192.0.2.4")],
    };
    const d = diffResource(zoneRecords, olds, grown, olds);
    expect(d.diffs).toEqual(["records"]);
    expect(d.detailed).toEqual({ "records[1]": "UPDATE", "records[3]": "ADD" });
    const shrunk = { ...olds, records: [rec("a", "192.0.2.1"), rec("b", "192.0.2.2")] };
    expect(diffResource(zoneRecords, olds, shrunk, olds).detailed).toEqual({ "records[2]": "DELETE" });
  });
});
