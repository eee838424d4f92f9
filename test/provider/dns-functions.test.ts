// The lookup functions (services, identity, quota) through the built plugin's Invoke over gRPC.
import { beforeAll, describe, expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";

const { control, plugin } = useProvider({ account: "lookups" });
let services: { id: number; type: string; name: string }[];

beforeAll(async () => {
  services = await control.services();
});

describe("nsp:dns:getService", () => {
  it("finds a service by id or by name, with the API's fields in camelCase", async () => {
    const dns = services.find((s) => s.type === "auth_dns")!;
    const byId = await plugin.invoke("nsp:dns:getService", { id: String(dns.id) });
    expect(byId.failures).toEqual([]);
    expect(byId.result).toEqual({
      id: String(dns.id),
      name: "Authoritative DNS",
      type: "auth_dns",
      plan: "dns_pro",
      planLabel: "DNS Pro",
      enabled: true,
      filterLevel: null,
      note: null,
      limits: { zones: 0, records: 0 },
      createdAt: expect.any(String),
    });
    const byName = await plugin.invoke("nsp:dns:getService", { name: "Authoritative DNS" });
    expect(byName.result).toEqual(byId.result);
    await expect(plugin.invoke("nsp:dns:getService", { name: "Nope" })).rejects.toThrow(
      /no service named "Nope".*"Authoritative DNS" \(auth_dns/,
    );
    await expect(plugin.invoke("nsp:dns:getService", { id: "987654" })).rejects.toThrow(/not_found|not found/i);
  });

  it("rejects bad arguments before any request", async () => {
    await control.resetStats();
    expect((await plugin.invoke("nsp:dns:getService", {})).failures.map((f) => f.property)).toEqual(["name"]);
    expect((await plugin.invoke("nsp:dns:getService", { id: "1", name: "x" })).failures.map((f) => f.property)).toEqual(
      ["name"],
    );
    expect((await plugin.invoke("nsp:dns:getService", { id: "dns" })).failures.map((f) => f.property)).toEqual(["id"]);
    expect((await plugin.invoke("nsp:dns:getService", { name: "   " })).failures.map((f) => f.property)).toEqual([
      "name",
    ]);
    expect((await control.stats()).total).toBe(0);
  });
});

describe("nsp:dns:getServices", () => {
  it("lists every service, or those of one type", async () => {
    const all = await plugin.invoke("nsp:dns:getServices", {});
    expect(all.failures).toEqual([]);
    const list = all.result.services as Record<string, unknown>[];
    expect(list.map((s) => s.type)).toEqual(["resolver", "auth_dns", "cdn", "vm"]);
    expect(list.map((s) => s.id)).toEqual(services.map((s) => String(s.id)));
    expect(list[0]).toMatchObject({
      name: "Resolver",
      plan: "resolver_standard",
      filterLevel: "standard",
      limits: { clients: 0, rules: 0 },
    });

    const dns = await plugin.invoke("nsp:dns:getServices", { type: "auth_dns" });
    expect((dns.result.services as Record<string, unknown>[]).map((s) => s.name)).toEqual(["Authoritative DNS"]);
    // The id is what a zone's serviceId takes.
    const serviceId = (dns.result.services as { id: string }[])[0]!.id;
    const zone = await plugin.check("nsp:dns:Zone", "z", { serviceId, name: "from-lookup.example" });
    expect(zone.failures).toEqual([]);
    const created = await plugin.create("nsp:dns:Zone", "z", zone.inputs);
    expect(created.properties.serviceId).toBe(serviceId);
    await plugin.delete("nsp:dns:Zone", "z", created.id, created.properties);
  });

  it("rejects an unknown type before any request", async () => {
    await control.resetStats();
    const bad = await plugin.invoke("nsp:dns:getServices", { type: "dns" });
    expect(bad.failures.map((f) => f.property)).toEqual(["type"]);
    expect(bad.failures[0]!.reason).toMatch(/auth_dns/);
    expect((await plugin.invoke("nsp:dns:getServices", { kind: "vm" })).failures.map((f) => f.property)).toEqual([
      "kind",
    ]);
    expect((await control.stats()).total).toBe(0);
  });
});

describe("nsp:index:getMe and nsp:index:getQuota", () => {
  it("describe the token's account", async () => {
    const me = await plugin.invoke("nsp:index:getMe", {});
    expect(me).toEqual({
      failures: [],
      result: { email: "lookups@example.test", name: "lookups", role: "admin", auth: "token", apiEnabled: true },
    });
  });

  it("report limits, usage counted live and the packs", async () => {
    const before = await plugin.invoke("nsp:index:getQuota", {});
    expect(before.failures).toEqual([]);
    expect(before.result).toMatchObject({
      label: "Emulator Unlimited",
      packs: [{ plan: "emulator_unlimited", label: "Emulator Unlimited", qty: 1, note: null }],
    });
    expect((before.result.limits as Record<string, number>).zones).toBe(0);
    const zonesBefore = (before.result.usage as Record<string, number>).zones!;
    const dns = services.find((s) => s.type === "auth_dns")!;
    const zone = await control.post<{ id: number }>("/dns/zones", { service_id: dns.id, name: "counted.example" });
    const after = await plugin.invoke("nsp:index:getQuota", {});
    expect((after.result.usage as Record<string, number>).zones).toBe(zonesBefore + 1);
    await control.delete(`/dns/zones/${zone.id}`);
  });

  it("take no arguments", async () => {
    expect((await plugin.invoke("nsp:index:getMe", { email: "x" })).failures.map((f) => f.property)).toEqual(["email"]);
  });
});
