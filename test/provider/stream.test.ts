// nsp:stream:Channel, nsp:stream:Programme and nsp:stream:getStreamCities, through the built
// plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

const CHANNEL = "nsp:stream:Channel";
const PROGRAMME = "nsp:stream:Programme";
type Obj = Record<string, any>;

const token = `svc_${"5ea3".repeat(8)}`;
const { control, plugin, checked, previewSendsNothing, importClean, expectCheckFailures } = useProvider({ emulator: { accounts: [{ name: "streamer", token }], rateLimitPerMinute: 0 } });

const DEFAULTS = {
  visibility: "public",
  placement: "anycast",
  renditions: 3,
  record: false,
  latencyMode: "standard",
  delayS: 0,
  quality: "standard",
  watermark: "off",
  allowRtmp: true,
  realtimePlay: false,
  enabled: true,
};

describe("nsp:stream:Channel", () => {
  it("creates a channel with a one-time stream key kept as a secret, patches, rotates the key, imports, and deletes", async () => {
    const inputs = await checked(CHANNEL, { name: " studio ", placement: "city", city: "AMS" });
    expect(inputs).toEqual({ ...DEFAULTS, name: "studio", placement: "city", city: "ams" });
    await previewSendsNothing(CHANNEL, inputs, "streamKey");

    const created = await plugin.create(CHANNEL, "c", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ ...inputs, state: "idle" });
    expect(isSecret(created.properties.streamKey)).toBe(true);
    const key = plain(created.properties.streamKey) as string;
    expect(key).toMatch(/^sk_[0-9a-f]{40}$/);

    // The API never shows the key again; a refresh keeps it, still a secret.
    const read = await plugin.read(CHANNEL, "c", created.id, created.properties, inputs);
    expect(isSecret(read.properties.streamKey)).toBe(true);
    expect(plain(read.properties.streamKey)).toBe(key);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(CHANNEL, "c", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Patch: anycast drops the city; the key is kept.
    const moved = await checked(CHANNEL, { name: "studio", record: true, quality: "high", recordingStore: { bucket: "rec" } });
    const d = await plugin.diff(CHANNEL, "c", created.id, read.properties, moved, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual(["city", "placement", "quality", "record", "recordingStore"]);
    await control.resetStats();
    await plugin.update(CHANNEL, "c", created.id, read.properties, moved, true, inputs);
    expect((await control.stats()).total).toBe(0);
    const updated = await plugin.update(CHANNEL, "c", created.id, read.properties, moved, false, inputs);
    expect(updated).toMatchObject({ placement: "anycast", record: true, quality: "high", recordingStore: { bucket: "rec" } });
    expect(updated.city).toBeUndefined();
    expect(plain(updated.streamKey)).toBe(key);
    expect(await control.get<Obj>(`/stream/streams/${created.id}`)).toMatchObject({ placement: "anycast", city: null, record: true });

    // The trigger issues a new key, no replacement.
    const rotate = await checked(CHANNEL, { ...moved, keyRotation: "k2" });
    expect(await plugin.diff(CHANNEL, "c", created.id, updated, rotate, moved)).toMatchObject({ changes: true, replaces: [], diffs: ["keyRotation"] });
    const rotated = await plugin.update(CHANNEL, "c", created.id, updated, rotate, false, moved);
    expect(isSecret(rotated.streamKey)).toBe(true);
    const key2 = plain(rotated.streamKey) as string;
    expect(key2).toMatch(/^sk_/);
    expect(key2).not.toBe(key);
    expect(rotated.keyRotation).toBe("k2");
    const afterRotation = await plugin.read(CHANNEL, "c", created.id, rotated, rotate);
    expect(isSecret(afterRotation.properties.streamKey)).toBe(true);
    expect(plain(afterRotation.properties.streamKey)).toBe(key2);
    expect(afterRotation.inputs).toEqual(rotate);
    expect((await plugin.diff(CHANNEL, "c", created.id, afterRotation.properties, rotate, rotate)).changes).toBe(false);

    // Import: the key cannot be known.
    const imported = await importClean(CHANNEL, created.id);
    expect(imported.inputs).toEqual({ name: "studio", record: true, quality: "high", recordingStore: { bucket: "rec" } });
    expect(plain(imported.properties.streamKey)).toBeNull();
    await expect(plugin.read(CHANNEL, "imp", "studio")).rejects.toThrow(/not a stream channel id/);

    await plugin.delete(CHANNEL, "c", created.id, afterRotation.properties);
    expect((await plugin.read(CHANNEL, "c", created.id, afterRotation.properties, rotate)).id).toBe("");
  });

  it("sees an edit, a key issued and a delete made through the API", async () => {
    const inputs = await checked(CHANNEL, { name: "drift" });
    const created = await plugin.create(CHANNEL, "c", inputs);
    await new Promise((r) => setTimeout(r, 5));
    await control.patch(`/stream/streams/${created.id}`, { name: "drift", watermark: "br" });
    await control.post(`/stream/streams/${created.id}/key`, {});
    const read = await plugin.read(CHANNEL, "c", created.id, created.properties, inputs);
    expect(read.properties.watermark).toBe("br");
    expect(read.properties.keyIssuedAt).not.toBe(created.properties.keyIssuedAt);
    expect(plain(read.properties.streamKey)).toBe(plain(created.properties.streamKey));
    expect(plugin.engineLogs.some((l) => /new stream key was issued/.test(l))).toBe(true);
    expect(await plugin.diff(CHANNEL, "c", created.id, read.properties, inputs, read.inputs)).toMatchObject({ changes: true, diffs: ["watermark"] });
    await control.delete(`/stream/streams/${created.id}`);
    expect((await plugin.read(CHANNEL, "c", created.id, read.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check", async () => {
    await expectCheckFailures(CHANNEL, [
      [{}, "name"],
      [{ name: " " }, "name"],
      [{ name: "a", visibility: "private" }, "visibility"],
      [{ name: "a", renditions: 6 }, "renditions"],
      [{ name: "a", delayS: 301 }, "delayS"],
      [{ name: "a", watermark: "tr" }, "watermark"],
      [{ name: "a", placement: "city" }, "city"],
      [{ name: "a", city: "ams" }, "city"],
      [{ name: "a", keyRotation: false }, "keyRotation"],
    ], ["["]);
  });
});

describe("nsp:stream:Programme", () => {
  it("replaces the programme, updates it, imports, and empties it on delete", async () => {
    const ch = await control.post<Obj>("/stream/streams", { name: "prog" });
    const items = [{ asset_id: "vid_1", seconds: 30 }];
    const inputs = await checked(PROGRAMME, { channelId: String(ch.id), items });
    expect(inputs).toEqual({ channelId: String(ch.id), enabled: true, mode: "loop", items });
    await previewSendsNothing(PROGRAMME, inputs, "updatedAt");

    const created = await plugin.create(PROGRAMME, "g", inputs);
    expect(created.id).toBe(String(ch.id));
    expect(created.properties).toMatchObject(inputs);
    const read = await plugin.read(PROGRAMME, "g", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(PROGRAMME, "g", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const relay = await checked(PROGRAMME, { ...inputs, mode: "relay", items: [...items, { url: "https://example.com/b.mp4" }] });
    expect(await plugin.diff(PROGRAMME, "g", created.id, read.properties, relay, inputs)).toMatchObject({ changes: true, replaces: [] });
    const updated = await plugin.update(PROGRAMME, "g", created.id, read.properties, relay, false, inputs);
    expect(updated).toMatchObject({ mode: "relay", items: relay.items });

    const otherChannel = await checked(PROGRAMME, { ...relay, channelId: "999999" });
    expect((await plugin.diff(PROGRAMME, "g", created.id, updated, otherChannel, relay)).replaces).toEqual(["channelId"]);

    const imported = await importClean(PROGRAMME, created.id);
    expect(imported.inputs).toEqual({ channelId: String(ch.id), mode: "relay", items: relay.items });
    await expect(plugin.read(PROGRAMME, "imp", "x/1")).rejects.toThrow(/not a stream channel id/);

    await plugin.delete(PROGRAMME, "g", created.id, updated);
    expect(await control.get<Obj>(`/stream/streams/${ch.id}/programme`)).toMatchObject({ enabled: false, items: [] });
  });

  it("sees an edit through the API, refuses to overwrite it before a refresh, and is gone with its channel", async () => {
    const ch = await control.post<Obj>("/stream/streams", { name: "prog2" });
    const inputs = await checked(PROGRAMME, { channelId: String(ch.id), items: [{ a: 1 }] });
    const created = await plugin.create(PROGRAMME, "g", inputs);
    await new Promise((r) => setTimeout(r, 5));
    await control.api("PUT", `/stream/streams/${ch.id}/programme`, { enabled: true, items: [] });
    const changed = await checked(PROGRAMME, { ...inputs, mode: "relay" });
    await expect(plugin.update(PROGRAMME, "g", created.id, created.properties, changed, false, inputs)).rejects.toThrow(/changed outside this program/);
    const read = await plugin.read(PROGRAMME, "g", created.id, created.properties, inputs);
    expect(read.properties.items).toEqual([]);
    expect(await plugin.diff(PROGRAMME, "g", created.id, read.properties, inputs, read.inputs)).toMatchObject({ changes: true, diffs: ["items"] });
    const fixed = await plugin.update(PROGRAMME, "g", created.id, read.properties, inputs, false, read.inputs);
    expect(fixed.items).toEqual([{ a: 1 }]);
    await control.delete(`/stream/streams/${ch.id}`);
    expect((await plugin.read(PROGRAMME, "g", created.id, fixed, inputs)).id).toBe("");
  });

  it("rejects bad input in Check", async () => {
    await expectCheckFailures(PROGRAMME, [
      [{ items: [] }, "channelId"],
      [{ channelId: "x" }, "channelId"],
      [{ channelId: "1", mode: "shuffle" }, "mode"],
      [{ channelId: "1", items: [1] }, "items"],
      [{ channelId: "1", items: Array.from({ length: 101 }, () => ({})) }, "items"],
    ], ["["]);
  });
});

describe("nsp:stream:getStreamCities", () => {
  it("lists the ingest cities", async () => {
    const { result, failures } = await plugin.invoke("nsp:stream:getStreamCities", {});
    expect(failures).toEqual([]);
    expect(result.cities).toContainEqual({ code: "par", name: "Paris", country: "FR", hasRoom: false });
    expect((result.cities as Obj[]).map((c) => c.code)).toContain("ams");
  });
});
