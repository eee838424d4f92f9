// Managed partner customers, driven through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { setPartnerMode } from "../../emulator/src/partner/state";
import { secret } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

const SUBJECT = "nsp:partner:Subject";
type Obj = Record<string, unknown>;

const token = `svc_${"9a27".repeat(8)}`;
const { emulator, control, plugin, anotherPlugin, checked, previewSendsNothing } = useProvider({ emulator: { accounts: [{ name: "partnertest", token }, { name: "oauthpartner", token: `svc_${"9a28".repeat(8)}` }] } });

describe("nsp:partner:Subject over gRPC", () => {
  it("creates a managed customer, reads it, replaces on a new reference, stops acting on delete", async () => {
    const inputs = await checked(SUBJECT, { externalRef: "cust-1001" });
    expect(inputs).toEqual({ externalRef: "cust-1001" });
    await previewSendsNothing(SUBJECT, inputs, "createdAt");

    await control.resetStats();
    const created = await plugin.create(SUBJECT, "s", inputs);
    expect((await control.stats()).byRoute).toEqual({ "POST /partner/subjects": 1 });
    expect(created.id).toBe("cust-1001");
    expect(created.properties).toMatchObject({ externalRef: "cust-1001", mode: "managed", ranges: [] });

    const read = await plugin.read(SUBJECT, "s", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(await plugin.diff(SUBJECT, "s", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false });
    const other = await checked(SUBJECT, { externalRef: "cust-1002" });
    expect(await plugin.diff(SUBJECT, "s", created.id, read.properties, other, inputs)).toMatchObject({ changes: true, replaces: ["externalRef"] });

    const imported = await plugin.read(SUBJECT, "imp", "cust-1001");
    expect(imported.inputs).toEqual(inputs);
    const importChecked = await checked(SUBJECT, imported.inputs);
    expect((await plugin.diff(SUBJECT, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(SUBJECT, "imp", "has space")).rejects.toThrow(/not a customer reference/);

    await plugin.delete(SUBJECT, "s", created.id, created.properties);
    expect((await plugin.read(SUBJECT, "s", created.id, created.properties, inputs)).id).toBe("");
    await plugin.delete(SUBJECT, "s", created.id, created.properties);
  });

  it("sees the ranges granted through the API, and the customer removed", async () => {
    const inputs = await checked(SUBJECT, { externalRef: "cust:2001@eu" });
    const s = await plugin.create(SUBJECT, "d", inputs);
    const svc = (await control.services()).find((x) => x.type === "auth_dns")!;
    const zone = await control.post<{ id: number }>("/dns/zones", { service_id: svc.id, name: "2.0.192.in-addr.arpa" });
    const range = await control.post<{ id: number }>(`/dns/zones/${zone.id}/ranges`, { prefix: "192.0.2.16/28", external_ref: "cust:2001@eu" });
    const read = await plugin.read(SUBJECT, "d", s.id, s.properties, inputs);
    expect(read.properties.ranges).toEqual([{ id: String(range.id), zoneId: String(zone.id), prefix: "192.0.2.16/28", enabled: true }]);
    expect((await plugin.diff(SUBJECT, "d", s.id, read.properties, inputs, read.inputs)).changes).toBe(false);
    await control.delete(`/partner/subjects/${encodeURIComponent("cust:2001@eu")}`);
    expect((await plugin.read(SUBJECT, "d", s.id, read.properties, inputs)).id).toBe("");
  });

  it("adopts a customer whose create answer was lost", async () => {
    const inputs = await checked(SUBJECT, { externalRef: "cust-lost" });
    await control.resetStats();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/partner/subjects$", count: 1 });
    try {
      const s = await plugin.create(SUBJECT, "lost", inputs);
      expect((await control.stats()).byRoute).toMatchObject({ "POST /partner/subjects": 1, "GET /partner/subjects/{ref}": 1 });
      expect(s.id).toBe("cust-lost");
      await plugin.delete(SUBJECT, "lost", s.id, s.properties);
    } finally {
      await control.clearFaults();
    }
  });

  it("reports the API's refusal outside managed mode", async () => {
    setPartnerMode(emulator.app.store, "oauthpartner", "oauth");
    const p = await anotherPlugin({ apiToken: secret(`svc_${"9a28".repeat(8)}`) });
    await expect(p.create(SUBJECT, "o", { externalRef: "c1" })).rejects.toThrow(/forbidden.*managed mode/);
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    for (const news of [{}, { externalRef: "" }, { externalRef: "a/b" }, { externalRef: "x".repeat(129) }]) {
      const { failures } = await plugin.check(SUBJECT, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toContain("externalRef");
    }
    expect((await control.stats()).total).toBe(0);
  });
});
