import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISO_MS, type Harness, authDnsServiceId, createZone, startHarness } from "../helpers/emulator-http";

let h: Harness;
let sid: number;
beforeAll(async () => {
  h = await startHarness();
  sid = await authDnsServiceId(h.api);
});
afterAll(() => h.emu.close());

const todayBase = () => {
  const d = new Date();
  return (d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()) * 100;
};

describe("zone create", () => {
  it("creates a pending zone with every documented default", async () => {
    const r = await h.api("POST", "/dns/zones", { service_id: sid, name: "Create.Example.COM." });
    expect(r.status).toBe(201);
    const z = r.body;
    expect(z).toMatchObject({
      service_id: sid,
      name: "create.example.com",
      mode: "zone",
      status: "pending",
      enabled: true,
      dnssec: false,
      secondary_master: null,
      negative_ttl: 300,
      name_servers: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"],
      transfer: { allow: [], notify: [], tsig_name: null, tsig_configured: false },
      delegation: { checked_at: null, lost_at: null },
      verified_at: null,
    });
    expect(z.serial).toBe(todayBase() + 1);
    expect(z.created_at).toMatch(ISO_MS);
    expect(Number.isInteger(z.id)).toBe(true);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body).toEqual(z);
  });

  it("accepts mode host and rejects other modes", async () => {
    const host = await h.api("POST", "/dns/zones", { service_id: sid, name: "app.host.example", mode: "host" });
    expect(host.status).toBe(201);
    expect(host.body.mode).toBe("host");
    const bad = await h.api("POST", "/dns/zones", { service_id: sid, name: "m.example", mode: "secondary" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("mode: must be one of zone, host");
  });

  it("rejects invalid names", async () => {
    for (const name of [
      "",
      "localhost",
      "bad name.example",
      "-x.example",
      "a..example",
      "x_y.example",
      `${"a".repeat(64)}.example`,
    ]) {
      const r = await h.api("POST", "/dns/zones", { service_id: sid, name });
      expect(r.status, name).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.message).toMatch(/^name: /);
    }
  });

  it("requires an auth_dns service of the caller", async () => {
    const services = (await h.api("GET", "/services")).body.data;
    const cdn = services.find((s: any) => s.type === "cdn");
    const wrongType = await h.api("POST", "/dns/zones", { service_id: cdn.id, name: "cdn.example" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/^service_id: .*not auth_dns/);
    const missing = await h.api("POST", "/dns/zones", { service_id: 999999, name: "missing.example" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^service_id: /);
  });

  it("refuses a duplicate name in the account with conflict", async () => {
    await createZone(h.api, "dup.example");
    const again = await h.api("POST", "/dns/zones", { service_id: sid, name: "DUP.example." });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
  });

  it("filters the list by service_id", async () => {
    const all = await h.api("GET", "/dns/zones");
    expect(all.body.data.length).toBeGreaterThan(0);
    const mine = await h.api("GET", `/dns/zones?service_id=${sid}`);
    expect(mine.body.data.length).toBe(all.body.data.length);
    const none = await h.api("GET", `/dns/zones?service_id=${sid + 1}`);
    expect(none.body.data).toEqual([]);
    expect((await h.api("GET", "/dns/zones?service_id=x")).status).toBe(400);
  });
});

describe("zone patch and serial", () => {
  it("patches enabled, secondary_master and negative_ttl, bumping the serial on change only", async () => {
    const z = await createZone(h.api, "patch.example");
    const p1 = await h.api("PATCH", `/dns/zones/${z.id}`, { enabled: false });
    expect(p1.status).toBe(200);
    expect(p1.body.enabled).toBe(false);
    expect(p1.body.serial).toBe(z.serial + 1);
    const same = await h.api("PATCH", `/dns/zones/${z.id}`, { enabled: false });
    expect(same.body.serial).toBe(z.serial + 1);

    const sec = await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: "192.0.2.53" });
    expect(sec.body.secondary_master).toBe("192.0.2.53");
    const v6 = await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: "2001:db8::53" });
    expect(v6.body.secondary_master).toBe("2001:db8::53");
    const empty = await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: "" });
    expect(empty.body.secondary_master).toBeNull();
    await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: "192.0.2.53" });
    const nul = await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: null });
    expect(nul.body.secondary_master).toBeNull();
    const badIp = await h.api("PATCH", `/dns/zones/${z.id}`, { secondary_master: "ns1.example" });
    expect(badIp.status).toBe(400);
    expect(badIp.body.error.message).toMatch(/^secondary_master: /);

    const nt = await h.api("PATCH", `/dns/zones/${z.id}`, { negative_ttl: 60 });
    expect(nt.body.negative_ttl).toBe(60);
    for (const bad of [59, 86401, 1.5, "300"]) {
      const r = await h.api("PATCH", `/dns/zones/${z.id}`, { negative_ttl: bad });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/^negative_ttl: /);
    }
    expect((await h.api("PATCH", `/dns/zones/${z.id}`, { name: "renamed.example" })).body.error.message).toBe(
      "name: unknown field",
    );
    const final = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(final.serial).toBe(z.serial + 7);
    expect(final.name).toBe("patch.example");
  });

  it("bumps the serial on every record change", async () => {
    const z = await createZone(h.api, "serial.example");
    const rec = await h.api("POST", `/dns/zones/${z.id}/records`, { type: "A", content: "192.0.2.1" });
    const s1 = (await h.api("GET", `/dns/zones/${z.id}`)).body.serial;
    expect(s1).toBe(z.serial + 1);
    await h.api("PATCH", `/dns/zones/${z.id}/records/${rec.body.id}`, { ttl: 120 });
    await h.api("DELETE", `/dns/zones/${z.id}/records/${rec.body.id}`);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.serial).toBe(z.serial + 3);
  });
});

describe("zone delete", () => {
  it("deletes the zone with its records, ranges and grants", async () => {
    const z = await createZone(h.api, "3.2.1.in-addr.arpa");
    const rec = await h.api("POST", `/dns/zones/${z.id}/records`, { type: "PTR", name: "4", content: "host.example" });
    expect(rec.status).toBe(201);
    const range = await h.api("POST", `/dns/zones/${z.id}/ranges`, { prefix: "1.2.3.0/28" });
    expect(range.status).toBe(201);
    expect((await h.api("PUT", `/dns/zones/${z.id}/grants/ops@example.test`, { role: "viewer" })).status).toBe(200);

    const del = await h.api("DELETE", `/dns/zones/${z.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await h.api("GET", `/dns/zones/${z.id}`)).status).toBe(404);
    expect((await h.api("GET", `/dns/zones/${z.id}/records`)).status).toBe(404);
    expect((await h.api("GET", `/dns/zones/${z.id}/records/${rec.body.id}`)).status).toBe(404);
    const ranges = await h.api("GET", "/dns/ranges");
    expect(ranges.body.data.map((r: any) => r.id)).not.toContain(range.body.id);
    expect(h.emu.app.store.grants.has(z.id)).toBe(false);
    expect(h.emu.app.store.records.has(z.id)).toBe(false);
    expect((await h.api("DELETE", `/dns/zones/${z.id}`)).status).toBe(404);

    // the name is free again, and ids are never reused
    const again = await createZone(h.api, "3.2.1.in-addr.arpa");
    expect(again.id).toBeGreaterThan(range.body.id);
    const recs = await h.api("GET", `/dns/zones/${again.id}/records`);
    expect(recs.body.data).toEqual([]);
  });
});

describe("zone verify", () => {
  it("stays pending while public DNS shows nothing or other servers", async () => {
    const z = await createZone(h.api, "verify.example");
    const r = await h.api("POST", `/dns/zones/${z.id}/verify`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      active: false,
      seen: [],
      expected: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"],
      serving_pops: expect.any(Number),
    });
    expect(r.body.ns).toEqual([
      { host: "ns1.nsp-emulator.test", expected: true, seen: false },
      { host: "ns2.nsp-emulator.test", expected: true, seen: false },
    ]);
    const after = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(after.status).toBe("pending");
    expect(after.verified_at).toBeNull();
    expect(after.delegation.checked_at).toMatch(ISO_MS);

    await h.control("PUT", "/_emulator/public-dns", {
      name: "verify.example",
      ns: ["ns1.other.test", "ns2.other.test"],
    });
    const other = await h.api("POST", `/dns/zones/${z.id}/verify`);
    expect(other.body.active).toBe(false);
    expect(other.body.seen).toEqual(["ns1.other.test", "ns2.other.test"]);
    // one of ours plus a foreign one is not a delegation to us either
    h.emu.app.publicDns.set({ name: "verify.example", ns: ["ns1.nsp-emulator.test", "ns9.other.test"] });
    expect((await h.api("POST", `/dns/zones/${z.id}/verify`)).body.active).toBe(false);
  });

  it("activates the zone once public DNS shows the service's two name servers", async () => {
    const z = await createZone(h.api, "live.example");
    const put = await h.control("PUT", "/_emulator/public-dns", {
      name: "Live.Example.",
      ns: ["NS2.nsp-emulator.test.", "ns1.nsp-emulator.test"],
    });
    expect(put.status).toBe(200);
    const r = await h.api("POST", `/dns/zones/${z.id}/verify`);
    expect(r.body.active).toBe(true);
    expect(r.body.serving_pops).toBeGreaterThan(0);
    const after = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(after.status).toBe("active");
    expect(after.verified_at).toMatch(ISO_MS);
    expect(after.delegation.checked_at).toMatch(ISO_MS);
    expect(after.delegation.lost_at).toBeNull();
    expect(after.serial).toBe(z.serial); // verification is not a content change

    // public DNS moves away: the zone stays active, lost_at is set (verify or the daily re-check)
    expect((await h.control("DELETE", "/_emulator/public-dns?name=live.example")).status).toBe(204);
    const recheck = await h.control("POST", "/_emulator/dns/recheck");
    expect(recheck.body.checked).toBeGreaterThanOrEqual(1);
    const lost = (await h.api("GET", `/dns/zones/${z.id}`)).body;
    expect(lost.status).toBe("active");
    expect(lost.delegation.lost_at).toMatch(ISO_MS);
    // and comes back
    h.emu.app.publicDns.set({ name: "live.example", ns: ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"] });
    await h.api("POST", `/dns/zones/${z.id}/verify`);
    expect((await h.api("GET", `/dns/zones/${z.id}`)).body.delegation.lost_at).toBeNull();
  });
});
