// nsp:rtc:Room, through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const RTC = "nsp:rtc:Room";

const provider = useProvider({ account: "rtc" });
const { plugin, checked, previewSendsNothing, importClean } = provider;

describe("nsp:rtc:Room", () => {
  it("creates with a secret passcode, patches in place, clears the passcode, imports, and deletes", async () => {
    const inputs = await checked(RTC, {
      name: "stage",
      maxPeers: 8,
      maxVideo: 4,
      passcode: secret("s3cret"),
      record: true,
    });
    expect(inputs).toMatchObject({
      enabled: true,
      publicJoin: false,
      requireVerify: false,
      cascade: false,
      verifyLevel: "standard",
      record: true,
    });
    await previewSendsNothing(RTC, inputs, "hasPasscode");
    const created = await plugin.create(RTC, "r", inputs);
    expect(created.properties).toMatchObject({
      maxPeers: 8,
      maxVideo: 4,
      record: true,
      city: "fra",
      hasPasscode: true,
    });
    expect(isSecret(created.properties.passcode)).toBe(true);

    const read = await plugin.read(RTC, "r", created.id, created.properties, inputs);
    expect(plain(read.properties.passcode)).toBe("s3cret");
    expect((await plugin.diff(RTC, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(RTC, { ...inputs, requireVerify: true, verifyLevel: "strict", city: "iad" });
    const d = await plugin.diff(RTC, "r", created.id, read.properties, changed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const updated = await plugin.update(RTC, "r", created.id, read.properties, changed, false, inputs);
    expect(updated).toMatchObject({ requireVerify: true, verifyLevel: "strict", city: "iad", hasPasscode: true });

    const { passcode: _p, ...noPasscode } = changed;
    const cleared = await plugin.update(RTC, "r", created.id, updated, noPasscode, false, changed);
    expect(cleared.hasPasscode).toBe(false);

    const imported = await importClean(RTC, created.id);
    expect(imported.inputs).toMatchObject({ name: "stage", maxPeers: 8, city: "iad", verifyLevel: "strict" });
    await plugin.delete(RTC, "r", created.id, cleared);
    expect((await plugin.read(RTC, "r", created.id, cleared, noPasscode)).id).toBe("");
  });
});

lifecycle(provider, [
  {
    type: RTC,
    create: { name: "drift-rtc", maxPeers: 10 },
    unknownOutput: "hasPasscode",
    update: { requireVerify: true, verifyLevel: "strict" },
    skip: { replace: "every input changes in place" },
    apiPath: (_inputs, id) => `/rtc/rooms/${id}`,
    drift: { body: { name: "drift-rtc", max_peers: 12 }, inputs: { maxPeers: 12 } },
    bad: [
      [{ maxPeers: 4 }, "name"],
      [{ name: "x", maxPeers: 4, maxVideo: 5 }, "maxVideo"],
      [{ name: "x", verifyLevel: "extreme" }, "verifyLevel"],
      [{ name: "x", record: "yes" }, "record"],
      [{ name: "x", passcode: "p".repeat(65) }, "passcode"],
    ],
  },
]);
