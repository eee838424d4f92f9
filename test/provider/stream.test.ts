// nsp:stream:Channel, nsp:stream:Programme and nsp:stream:getStreamCities, through the built
// plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const CHANNEL = "nsp:stream:Channel";
const PROGRAMME = "nsp:stream:Programme";
type Obj = Record<string, any>;

const provider = useProvider({ account: "streamer" });
const { control, plugin, checked, importClean } = provider;

lifecycle(provider, [
  {
    type: CHANNEL,
    create: { name: " walk ", placement: "city", city: "AMS" },
    unknownOutput: "streamKey",
    update: { record: true, quality: "high", recordingStore: { bucket: "rec" } },
    apiPath: (_inputs, id) => `/stream/streams/${id}`,
    drift: { body: { name: "walk", watermark: "br" }, inputs: { watermark: "br" } },
    bad: [
      [{}, "name"],
      [{ name: " " }, "name"],
      [{ name: "a", visibility: "private" }, "visibility"],
      [{ name: "a", renditions: 6 }, "renditions"],
      [{ name: "a", delayS: 301 }, "delayS"],
      [{ name: "a", watermark: "tr" }, "watermark"],
      [{ name: "a", placement: "city" }, "city"],
      [{ name: "a", city: "ams" }, "city"],
      [{ name: "a", keyRotation: false }, "keyRotation"],
    ],
    nestedFailures: ["["],
    skip: { replace: "every input changes in place" },
  },
  {
    type: PROGRAMME,
    create: async () => ({
      channelId: String((await control.post<Obj>("/stream/streams", { name: "walk-programme" })).id),
      items: [{ asset_id: "vid_1", seconds: 30 }],
    }),
    unknownOutput: "updatedAt",
    update: { mode: "relay", items: [{ asset_id: "vid_1", seconds: 30 }, { url: "https://example.com/b.mp4" }] },
    replace: { channelId: "999999" },
    apiPath: (inputs) => `/stream/streams/${inputs.channelId}/programme`,
    bad: [
      [{ items: [] }, "channelId"],
      [{ channelId: "x" }, "channelId"],
      [{ channelId: "1", mode: "shuffle" }, "mode"],
      [{ channelId: "1", items: [1] }, "items"],
      [{ channelId: "1", items: Array.from({ length: 101 }, () => ({})) }, "items"],
    ],
    nestedFailures: ["["],
    skip: {
      drift:
        "in the test of its own below, which also refuses an overwrite before a refresh, and a programme goes " +
        "only with its channel",
      delete: "the programme is part of its channel: a delete empties it (checked below)",
    },
  },
]);

describe("nsp:stream:Channel", () => {
  it("issues a new stream key on its trigger, kept as a secret, which an import cannot know", async () => {
    const moved = await checked(CHANNEL, {
      name: "studio",
      record: true,
      quality: "high",
      recordingStore: { bucket: "rec" },
    });
    const created = await plugin.create(CHANNEL, "c", moved);
    const updated = created.properties;
    const key = plain(updated.streamKey) as string;
    expect(key).toMatch(/^sk_[0-9a-f]{40}$/);

    // The trigger issues a new key, no replacement.
    const rotate = await checked(CHANNEL, { ...moved, keyRotation: "k2" });
    expect(await plugin.diff(CHANNEL, "c", created.id, updated, rotate, moved)).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["keyRotation"],
    });
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
    expect(imported.inputs).toEqual({
      name: "studio",
      record: true,
      quality: "high",
      recordingStore: { bucket: "rec" },
    });
    expect(plain(imported.properties.streamKey)).toBeNull();
    await expect(plugin.read(CHANNEL, "imp", "studio")).rejects.toThrow(/not a stream channel id/);

    await plugin.delete(CHANNEL, "c", created.id, afterRotation.properties);
    expect((await plugin.read(CHANNEL, "c", created.id, afterRotation.properties, rotate)).id).toBe("");
  });

  it("sees a key issued through the API, keeping the key it knows", async () => {
    const inputs = await checked(CHANNEL, { name: "drift" });
    const created = await plugin.create(CHANNEL, "c", inputs);
    await new Promise((r) => setTimeout(r, 5));
    await control.post(`/stream/streams/${created.id}/key`, {});
    const read = await plugin.read(CHANNEL, "c", created.id, created.properties, inputs);
    expect(read.properties.keyIssuedAt).not.toBe(created.properties.keyIssuedAt);
    expect(plain(read.properties.streamKey)).toBe(plain(created.properties.streamKey));
    expect(plugin.engineLogs.some((l) => /new stream key was issued/.test(l))).toBe(true);
    expect((await plugin.diff(CHANNEL, "c", created.id, read.properties, inputs, read.inputs)).changes).toBe(false);
    await plugin.delete(CHANNEL, "c", created.id, read.properties);
  });
});

describe("nsp:stream:Programme", () => {
  it("empties the programme on delete, leaving the channel", async () => {
    const ch = await control.post<Obj>("/stream/streams", { name: "prog" });
    const inputs = await checked(PROGRAMME, { channelId: String(ch.id), items: [{ asset_id: "vid_1", seconds: 30 }] });
    const created = await plugin.create(PROGRAMME, "g", inputs);
    await expect(plugin.read(PROGRAMME, "imp", "x/1")).rejects.toThrow(/not a stream channel id/);
    await plugin.delete(PROGRAMME, "g", created.id, created.properties);
    expect(await control.get<Obj>(`/stream/streams/${ch.id}/programme`)).toMatchObject({ enabled: false, items: [] });
  });

  it("sees an edit through the API, refuses to overwrite it before a refresh, and is gone with its channel", async () => {
    const ch = await control.post<Obj>("/stream/streams", { name: "prog2" });
    const inputs = await checked(PROGRAMME, { channelId: String(ch.id), items: [{ a: 1 }] });
    const created = await plugin.create(PROGRAMME, "g", inputs);
    await new Promise((r) => setTimeout(r, 5));
    await control.api("PUT", `/stream/streams/${ch.id}/programme`, { enabled: true, items: [] });
    const changed = await checked(PROGRAMME, { ...inputs, mode: "relay" });
    await expect(plugin.update(PROGRAMME, "g", created.id, created.properties, changed, false, inputs)).rejects.toThrow(
      /changed outside this program/,
    );
    const read = await plugin.read(PROGRAMME, "g", created.id, created.properties, inputs);
    expect(read.properties.items).toEqual([]);
    expect(await plugin.diff(PROGRAMME, "g", created.id, read.properties, inputs, read.inputs)).toMatchObject({
      changes: true,
      diffs: ["items"],
    });
    const fixed = await plugin.update(PROGRAMME, "g", created.id, read.properties, inputs, false, read.inputs);
    expect(fixed.items).toEqual([{ a: 1 }]);
    await control.delete(`/stream/streams/${ch.id}`);
    expect((await plugin.read(PROGRAMME, "g", created.id, fixed, inputs)).id).toBe("");
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
