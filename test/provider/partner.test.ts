// Managed partner customers, driven through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { setPartnerMode } from "../../emulator/src/partner/state";
import { secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const SUBJECT = "nsp:partner:Subject";

const token = `svc_${"9a27".repeat(8)}`;
const provider = useProvider({
  emulator: {
    accounts: [
      { name: "partnertest", token },
      { name: "oauthpartner", token: `svc_${"9a28".repeat(8)}` },
    ],
  },
});
const { emulator, control, plugin, anotherPlugin, checked, createWithLostAnswer } = provider;

lifecycle(provider, [
  {
    type: SUBJECT,
    create: { externalRef: "cust-1001" },
    unknownOutput: "createdAt",
    replace: { externalRef: "cust-1002" },
    apiPath: (_inputs, id) => `/partner/subjects/${encodeURIComponent(id)}`,
    bad: [
      [{}, "externalRef"],
      [{ externalRef: "" }, "externalRef"],
      [{ externalRef: "a/b" }, "externalRef"],
      [{ externalRef: "x".repeat(129) }, "externalRef"],
    ],
    skip: {
      update: "the reference is the customer's one input, and it replaces",
      "drift edit": "the API has no edit of a customer",
    },
  },
]);

describe("nsp:partner:Subject over gRPC", () => {
  it("sees the ranges granted through the API, and the customer removed", async () => {
    const inputs = await checked(SUBJECT, { externalRef: "cust:2001@eu" });
    const s = await plugin.create(SUBJECT, "d", inputs);
    const svc = (await control.services()).find((x) => x.type === "auth_dns")!;
    const zone = await control.post<{ id: number }>("/dns/zones", { service_id: svc.id, name: "2.0.192.in-addr.arpa" });
    const range = await control.post<{ id: number }>(`/dns/zones/${zone.id}/ranges`, {
      prefix: "192.0.2.16/28",
      external_ref: "cust:2001@eu",
    });
    const read = await plugin.read(SUBJECT, "d", s.id, s.properties, inputs);
    expect(read.properties.ranges).toEqual([
      { id: String(range.id), zoneId: String(zone.id), prefix: "192.0.2.16/28", enabled: true },
    ]);
    expect((await plugin.diff(SUBJECT, "d", s.id, read.properties, inputs, read.inputs)).changes).toBe(false);
    await control.delete(`/partner/subjects/${encodeURIComponent("cust:2001@eu")}`);
    expect((await plugin.read(SUBJECT, "d", s.id, read.properties, inputs)).id).toBe("");
  });

  it("adopts a customer whose create answer was lost", async () => {
    const inputs = await checked(SUBJECT, { externalRef: "cust-lost" });
    const s = await createWithLostAnswer(SUBJECT, "lost", inputs, "/partner/subjects");
    expect(s.byRoute).toMatchObject({ "POST /partner/subjects": 1, "GET /partner/subjects/{ref}": 1 });
    expect(s.id).toBe("cust-lost");
    await plugin.delete(SUBJECT, "lost", s.id, s.properties);
  });

  it("reports the API's refusal outside managed mode", async () => {
    setPartnerMode(emulator.app.store, "oauthpartner", "oauth");
    const p = await anotherPlugin({ apiToken: secret(`svc_${"9a28".repeat(8)}`) });
    await expect(p.create(SUBJECT, "o", { externalRef: "c1" })).rejects.toThrow(/forbidden.*managed mode/);
  });
});
