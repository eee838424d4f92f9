import { describe, expect, it } from "vitest";
import { createZone, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("acme");

describe("identity", () => {
  it("GET /me describes the token's account", async () => {
    const r = await h.api("GET", "/me");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      email: "acme@example.test",
      name: "acme",
      role: "admin",
      auth: "token",
      api_enabled: true,
    });
  });

  it("GET /account/quota counts usage across the account", async () => {
    const before = await h.api("GET", "/account/quota");
    expect(before.status).toBe(200);
    expect(before.body.usage.zones).toBe(0);
    expect(before.body.limits.zones).toBe(0); // 0 = unmetered
    expect(before.body.packs).toEqual([
      { plan: "emulator_unlimited", label: "Emulator Unlimited", qty: 1, note: null },
    ]);
    expect(typeof before.body.label).toBe("string");
    const z = await createZone(h.api, "quota.example");
    await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", content: "192.0.2.1" });
    const after = await h.api("GET", "/account/quota");
    expect(after.body.usage).toMatchObject({ zones: 1, records: 1 });
  });
});

describe("services", () => {
  it("seeds one service of each type with the documented fields", async () => {
    const r = await h.api("GET", "/services");
    expect(r.status).toBe(200);
    expect(r.body.paging).toEqual({ limit: 100, offset: 0, count: 4, next_offset: null });
    const types = r.body.data.map((s: any) => s.type);
    expect(types).toEqual(["resolver", "auth_dns", "cdn", "vm"]);
    for (const s of r.body.data) {
      expect(Object.keys(s).sort()).toEqual(
        ["created_at", "enabled", "filter_level", "id", "limits", "name", "note", "plan", "plan_label", "type"].sort(),
      );
      expect(s.enabled).toBe(true);
      expect(s.created_at).toMatch(ISO_MS);
      for (const v of Object.values(s.limits)) expect(v).toBe(0);
    }
    const dns = r.body.data.find((s: any) => s.type === "auth_dns");
    expect(dns.limits).toEqual({ zones: 0, records: 0 });
  });

  it("GET /services/{id} returns one service, pages with limit", async () => {
    const list = await h.api("GET", "/services?limit=2&offset=1");
    expect(list.body.data.map((s: any) => s.type)).toEqual(["auth_dns", "cdn"]);
    expect(list.body.paging.next_offset).toBe(3);
    const one = await h.api("GET", `/services/${list.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.data[0]);
    expect((await h.api("GET", "/services/987654")).status).toBe(404);
  });
});
