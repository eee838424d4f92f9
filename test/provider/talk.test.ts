// nsp:talk:Room and the city functions of both room kinds, through the built plugin binary over
// gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const TALK = "nsp:talk:Room";
type Obj = Record<string, any>;

const provider = useProvider({ account: "rooms" });
const { control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

describe("nsp:talk:Room", () => {
  it("creates a room with a secret passcode, patches, changes and clears the passcode, imports, and deletes", async () => {
    const inputs = await checked(TALK, { name: " lobby ", city: "AMS", maxPeers: 20, passcode: secret("1234") });
    expect(inputs).toMatchObject({
      name: "lobby",
      city: "ams",
      kind: "room",
      visibility: "public",
      publicJoin: false,
      enabled: true,
      maxPeers: 20,
    });
    await previewSendsNothing(TALK, inputs, "hasPasscode");

    const created = await plugin.create(TALK, "r", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({
      name: "lobby",
      city: "ams",
      maxPeers: 20,
      maxKbps: 2000,
      retentionDays: 30,
      hasPasscode: true,
    });
    expect(isSecret(created.properties.passcode)).toBe(true);
    expect(plain(created.properties.passcode)).toBe("1234");

    const read = await plugin.read(TALK, "r", created.id, created.properties, inputs);
    expect(isSecret(read.properties.passcode)).toBe(true);
    expect(read.inputs).toMatchObject({ name: "lobby", maxPeers: 20 });
    expect(read.inputs.maxKbps).toBeUndefined();
    expect((await plugin.diff(TALK, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(TALK, { ...inputs, visibility: "unlisted", maxPeers: 30, passcode: secret("9999") });
    const updated = await updatesInPlace(TALK, "r", created.id, read.properties, changed, inputs, [
      "maxPeers",
      "passcode",
      "visibility",
    ]);
    expect(updated).toMatchObject({ visibility: "unlisted", maxPeers: 30, hasPasscode: true });
    expect(plain(updated.passcode)).toBe("9999");

    const { passcode: _p, ...noPasscode } = changed;
    const cleared = await plugin.update(TALK, "r", created.id, updated, noPasscode, false, changed);
    expect(cleared.hasPasscode).toBe(false);

    const imported = await importClean(TALK, created.id);
    expect(imported.inputs).toMatchObject({ name: "lobby", visibility: "unlisted", maxPeers: 30, city: "ams" });
    expect(imported.inputs.passcode).toBeUndefined();
    await expect(plugin.read(TALK, "imp", "room-1")).rejects.toThrow(/not a room id/);

    await plugin.delete(TALK, "r", created.id, cleared);
    expect((await plugin.read(TALK, "r", created.id, cleared, noPasscode)).id).toBe("");
  });

  it("sees changes and a delete made through the API", async () => {
    const inputs = await checked(TALK, { name: "drift", enabled: true });
    const created = await plugin.create(TALK, "r", inputs);
    await control.patch(`/talk/rooms/${created.id}`, { name: "drift", enabled: false });
    await control.api("PUT", `/talk/rooms/${created.id}/passcode`, { passcode: "x" });
    const read = await plugin.read(TALK, "r", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ enabled: false, hasPasscode: true });
    expect(read.inputs.enabled).toBe(false);
    const d = await plugin.diff(TALK, "r", created.id, read.properties, inputs, read.inputs);
    expect(d).toMatchObject({ changes: true, diffs: ["enabled"] });
    await control.delete(`/talk/rooms/${created.id}`);
    expect((await plugin.read(TALK, "r", created.id, read.properties, inputs)).id).toBe("");
  });

  it("fails clearly in a city without room", async () => {
    const inputs = await checked(TALK, { name: "far", city: "sin" });
    await expect(plugin.create(TALK, "r", inputs)).rejects.toThrow(/limit_exceeded.*sin has no room/);
  });
});

lifecycle(provider, [
  {
    type: TALK,
    create: { name: "walk", maxPeers: 10 },
    update: { maxPeers: 12, enabled: false },
    apiPath: (_inputs, id) => `/talk/rooms/${id}`,
    drift: { body: { name: "walk", max_peers: 14 }, inputs: { maxPeers: 14 } },
    skip: { replace: "every input changes in place" },
    bad: [
      [{}, "name"],
      [{ name: " " }, "name"],
      [{ name: "x", kind: "stage" }, "kind"],
      [{ name: "x", city: "frankfurt" }, "city"],
      [{ name: "x", maxPeers: 1 }, "maxPeers"],
      [{ name: "x", maxKbps: 10 }, "maxKbps"],
      [{ name: "x", retentionDays: -1 }, "retentionDays"],
      [{ name: "x", passcode: "" }, "passcode"],
    ],
  },
]);

describe("city functions", () => {
  it("lists the seeded cities of both room kinds", async () => {
    for (const tok of ["nsp:talk:getTalkCities", "nsp:rtc:getRtcCities"]) {
      const all = await plugin.invoke(tok, {});
      expect(all.failures).toEqual([]);
      expect((all.result.cities as Obj[]).map((c) => c.id)).toEqual(["fra", "ams", "iad", "sin"]);
      expect((all.result.cities as Obj[])[0]).toEqual({ id: "fra", name: "Frankfurt", country: "DE", hasRoom: true });
      const open = await plugin.invoke(tok, { withRoomOnly: true });
      expect((open.result.cities as Obj[]).map((c) => c.id)).toEqual(["fra", "ams", "iad"]);
    }
  });
});
