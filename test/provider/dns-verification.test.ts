// nsp:dns:ZoneVerification through the built plugin over gRPC: it polls the API's verify
// operation until the emulator's public-DNS view delegates the zone to the service.
import { beforeAll, describe, expect, it } from "vitest";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { until } from "../helpers/until";
import { useProvider } from "../helpers/use-provider";

const ZONE = "nsp:dns:Zone";
const VERIFY = "nsp:dns:ZoneVerification";
const NS = ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"];

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "verify" });
const { control, plugin, anotherPlugin, checked } = provider;
let serviceId: string;

beforeAll(async () => {
  serviceId = String((await control.services()).find((s) => s.type === "auth_dns")!.id);
});

async function newZone(name: string): Promise<{ id: string; properties: Obj }> {
  return plugin.create(ZONE, name, await checked(ZONE, { serviceId, name }));
}

const verifyCalls = async () => (await control.stats()).byRoute["POST /dns/zones/:id/verify"] ?? 0;

let walks = 0;
lifecycle(provider, [
  {
    type: VERIFY,
    create: async () => {
      const name = `verify-walk${++walks}.example`;
      const zone = await newZone(name);
      await control.setPublicDns(name, NS);
      return { zoneId: zone.id, timeoutSeconds: 5, pollIntervalSeconds: 0.5 };
    },
    unknownOutput: "verifiedAt",
    update: { timeoutSeconds: 600 },
    replace: { zoneId: "999999" },
    apiPath: (inputs) => `/dns/zones/${inputs.zoneId}`,
    // How long to wait is the provider's, never the API's.
    writeOnly: ["timeoutSeconds", "pollIntervalSeconds"],
    bad: [
      [{}, "zoneId"],
      [{ zoneId: "one" }, "zoneId"],
      [{ zoneId: "1", timeoutSeconds: 0 }, "timeoutSeconds"],
      [{ zoneId: "1", timeoutSeconds: 1.5 }, "timeoutSeconds"],
      [{ zoneId: "1", pollIntervalSeconds: 0 }, "pollIntervalSeconds"],
      [{ zoneId: "1", pollIntervalSeconds: "10" }, "pollIntervalSeconds"],
    ],
    skip: {
      delete: "a verification is a fact about its zone: the delete leaves the zone verified",
      "drift edit": "the API cannot unverify a zone (a lost delegation leaves it active: the test of its own below)",
    },
  },
  {
    // Created once public DNS delegates the zone, with the default wait.
    type: VERIFY,
    create: async () => {
      const name = `delegated${++walks}.example`;
      const zone = await newZone(name);
      await control.setPublicDns(name, NS);
      return { zoneId: zone.id };
    },
    checkedAs: (given) => ({ ...given, timeoutSeconds: 300, pollIntervalSeconds: 10 }),
    unknownOutput: ["active", "verifiedAt"],
    idPattern: (inputs) => inputs.zoneId,
    outputs: { active: true, verifiedAt: expect.any(String), nameServers: NS },
    exactOutputs: true,
    apiObject: { status: "active" },
    stableReads: true,
    keptOutputs: ["verifiedAt"],
    // The wait settings change in place and send nothing.
    update: [{ inputs: { timeoutSeconds: 900 }, outputs: { active: true }, requests: {} }],
    replace: { zoneId: "999" },
    imported: (inputs) => ({ zoneId: inputs.zoneId }),
    importedOutputs: { active: true, nameServers: NS },
    badImportIds: () => [["delegated.example", /is not a zone id; a zone is known by its numeric id \(<zoneId>/]],
    apiPath: (inputs) => `/dns/zones/${inputs.zoneId}`,
    writeOnly: ["timeoutSeconds", "pollIntervalSeconds"],
    // Delete leaves the zone alone and sends nothing.
    deleteRequests: {},
    skip: {
      delete: "a verification is a fact about its zone: the delete leaves the zone verified",
      drift: "the row above",
      bad: "the row above",
    },
  },
]);

describe("nsp:dns:ZoneVerification", () => {
  it("keeps polling until the delegation appears", async () => {
    const zone = await newZone("later.example");
    await control.resetStats();
    const creating = plugin.create(
      VERIFY,
      "v",
      await checked(VERIFY, { zoneId: zone.id, pollIntervalSeconds: 0.05, timeoutSeconds: 30 }),
    );
    await until(async () => (await verifyCalls()) >= 2);
    await control.setPublicDns("later.example.", ["NS2.nsp-emulator.test.", "ns1.nsp-emulator.test"]);
    const created = await creating;
    expect(created.properties).toMatchObject({ active: true, nameServers: NS });
    await plugin.delete(ZONE, "z", zone.id, zone.properties);
  });

  it("gives up after the timeout, reporting the name servers seen and expected", async () => {
    const zone = await newZone("elsewhere.example");
    await control.setPublicDns("elsewhere.example", ["ns1.other-dns.test", "ns2.other-dns.test"]);
    await control.resetStats();
    const started = Date.now();
    const err = await plugin
      .create(VERIFY, "v", await checked(VERIFY, { zoneId: zone.id, timeoutSeconds: 1, pollIntervalSeconds: 0.2 }))
      .then(
        () => undefined,
        (e: Error) => e,
      );
    const elapsed = Date.now() - started;
    expect(err?.message).toMatch(/nsp:dns:ZoneVerification: zone \d+ is not active after 1s \(\d+ checks\)/);
    expect(err?.message).toMatch(
      /\[ns1\.other-dns\.test, ns2\.other-dns\.test\] \(seen\), expected \[ns1\.nsp-emulator\.test, ns2\.nsp-emulator\.test\]/,
    );
    // How many checks fit in the second depends on the machine; that each reported one reached the API does not.
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(await verifyCalls()).toBe(Number(/\((\d+) checks\)/.exec(err!.message)![1]));
    expect((await control.get(`/dns/zones/${zone.id}`)).status).toBe("pending");

    // Nothing in public DNS at all.
    const bare = await newZone("nowhere.example");
    await expect(
      plugin.create(
        VERIFY,
        "v",
        await checked(VERIFY, { zoneId: bare.id, timeoutSeconds: 1, pollIntervalSeconds: 0.5 }),
      ),
    ).rejects.toThrow(/\[none\] \(seen\), expected \[ns1\.nsp-emulator\.test, ns2\.nsp-emulator\.test\]/);
  });

  it("stops waiting when the engine cancels", async () => {
    const zone = await newZone("cancelled.example");
    // A plugin of its own: a cancelled plugin serves no further request.
    const p = await anotherPlugin();
    await control.resetStats();
    const creating = p.create(VERIFY, "v", { zoneId: zone.id, timeoutSeconds: 600, pollIntervalSeconds: 60 }).then(
      () => undefined,
      (e: Error) => e,
    );
    // Cancelled once it sleeps after its first check: left alone it would check again in a minute
    // and give up in ten, so an answer at all within the test's timeout is the cancel's doing.
    await until(async () => (await verifyCalls()) >= 1);
    await p.call("cancel", new Empty());
    const err = await creating;
    expect(err?.message).toMatch(/cancelled/);
    expect(await verifyCalls()).toBe(1);
  });

  it("is gone from the state when its zone is deleted", async () => {
    const zone = await newZone("short-lived.example");
    await control.setPublicDns("short-lived.example", NS);
    const inputs = await checked(VERIFY, { zoneId: zone.id });
    const created = await plugin.create(VERIFY, "v", inputs);
    // A lost delegation leaves the zone active and served: still verified.
    await control.setPublicDns("short-lived.example", ["ns.elsewhere.test"]);
    await fetch(`${control.root}/_emulator/dns/recheck`, { method: "POST" });
    expect(
      (await control.get<{ delegation: { lost_at: string | null } }>(`/dns/zones/${zone.id}`)).delegation.lost_at,
    ).not.toBeNull();
    const read = await plugin.read(VERIFY, "v", created.id, created.properties, inputs);
    expect(read.properties.active).toBe(true);
    await control.delete(`/dns/zones/${zone.id}`);
    expect((await plugin.read(VERIFY, "v", created.id, created.properties, inputs)).id).toBe("");
    // A zone that was never verified cannot be imported as verified.
    const pending = await newZone("pending.example");
    expect((await plugin.read(VERIFY, "imp", pending.id)).id).toBe("");
  });
});
