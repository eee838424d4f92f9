import { describe, expect, it } from "vitest";
import { setOnAir } from "../../emulator/src/stream/state";
import { ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("caster");
const { ro, other } = h;

let seq = 0;
async function newChannel(extra: Record<string, unknown> = {}): Promise<any> {
  const r = await h.api("POST", "/stream/streams", { name: `ch-${++seq}`, ...extra });
  if (r.status !== 201) throw new Error(`channel create failed: ${r.status} ${r.text}`);
  return r.body;
}

describe("stream channels", () => {
  it("creates a channel with defaults and a stream key shown once", async () => {
    const c = await newChannel();
    expect(c).toMatchObject({
      visibility: "public",
      placement: "anycast",
      city: null,
      renditions: 3,
      record: false,
      latency_mode: "standard",
      delay_s: 0,
      quality: "standard",
      watermark: "off",
      allow_rtmp: true,
      realtime_play: false,
      recording_store: null,
      enabled: true,
      state: "idle",
    });
    expect(c.stream_key).toMatch(/^sk_[0-9a-f]{40}$/);
    expect(c.created_at).toMatch(ISO_MS);
    const read = await h.api("GET", `/stream/streams/${c.id}`);
    expect(read.body).not.toHaveProperty("stream_key");
    expect(JSON.stringify((await h.api("GET", "/stream/streams")).body)).not.toContain(c.stream_key);
    expect((await other("GET", `/stream/streams/${c.id}`)).status).toBe(404);
    expect((await ro("POST", "/stream/streams", { name: "x" })).status).toBe(403);
  });

  it("validates the channel body and the placement rules", async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{}, 400, /^name: is required/],
      [{ name: " " }, 400, /^name: must not be empty/],
      [{ name: "a", renditions: 9 }, 400, /^renditions: must be between 1 and 5/],
      [{ name: "a", delay_s: -1 }, 400, /^delay_s: must be between 0 and 300/],
      [{ name: "a", watermark: "tr" }, 400, /^watermark: must be one of off, br, tl/],
      [{ name: "a", colour: 1 }, 400, /colour: unknown field/],
      [{ name: "a", placement: "city" }, 400, /^city: is required when placement is city/],
      [{ name: "a", placement: "city", city: "xyz" }, 400, /^city: must be one of/],
      [{ name: "a", city: "ams" }, 400, /^city: must be empty unless placement is city/],
      [{ name: "a", placement: "city", city: "par" }, 409, /par has no room/],
    ];
    for (const [body, status, msg] of cases) {
      const r = await h.api("POST", "/stream/streams", body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message).toMatch(msg);
    }
    const c = await newChannel({ placement: "city", city: "AMS", recording_store: { bucket: "b" } });
    expect(c).toMatchObject({ placement: "city", city: "ams", recording_store: { bucket: "b" } });
    expect(c.ingest.srt).toContain("ams.ingest.");
  });

  it("patches with the channel body (name required), merges the placement, and deletes", async () => {
    const c = await newChannel({ placement: "city", city: "fra" });
    expect((await h.api("PATCH", `/stream/streams/${c.id}`, { record: true })).body.error.message).toBe(
      "name: is required",
    );
    const p = await h.api("PATCH", `/stream/streams/${c.id}`, { name: "renamed", record: true, quality: "high" });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ name: "renamed", record: true, quality: "high", placement: "city", city: "fra" });
    expect(p.body).not.toHaveProperty("stream_key");
    const any = await h.api("PATCH", `/stream/streams/${c.id}`, { name: "renamed", placement: "anycast" });
    expect(any.body).toMatchObject({ placement: "anycast", city: null });
    expect((await h.api("DELETE", `/stream/streams/${c.id}`)).status).toBe(204);
    expect((await h.api("GET", `/stream/streams/${c.id}`)).status).toBe(404);
  });

  it("issues a new key; revoke_now ends the broadcast on air, stop ends it too", async () => {
    const c = await newChannel();
    setOnAir(h.emu.app.store, c.id, true);
    const k = await h.api("POST", `/stream/streams/${c.id}/key`, {});
    expect(k.status).toBe(200);
    expect(k.body.stream_key).toMatch(/^sk_/);
    expect(k.body.stream_key).not.toBe(c.stream_key);
    expect(k.body.state).toBe("live");
    const r = await h.api("POST", `/stream/streams/${c.id}/key`, { revoke_now: true });
    expect(r.body.state).toBe("idle");
    setOnAir(h.emu.app.store, c.id, true);
    expect((await h.api("POST", `/stream/streams/${c.id}/stop`)).body.state).toBe("idle");
    expect((await h.api("POST", `/stream/streams/${c.id}/key`, { revoke_now: "yes" })).status).toBe(400);
  });

  it("replaces the programme, guarded by updated_at", async () => {
    const c = await newChannel();
    const g = await h.api("GET", `/stream/streams/${c.id}/programme`);
    expect(g.body).toMatchObject({ channel_id: c.id, enabled: false, mode: "loop", items: [] });
    const items = [{ asset_id: "vid_1", seconds: 30 }, { url: "https://example.com/a.mp4" }];
    const p = await h.api("PUT", `/stream/streams/${c.id}/programme`, {
      enabled: true,
      mode: "relay",
      items,
      updated_at: g.body.updated_at,
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ enabled: true, mode: "relay", items });
    const stale = await h.api("PUT", `/stream/streams/${c.id}/programme`, {
      enabled: false,
      updated_at: "2000-01-01T00:00:00.000Z",
    });
    expect(stale.status).toBe(409);
    expect((await h.api("PUT", `/stream/streams/${c.id}/programme`, { mode: "shuffle" })).status).toBe(400);
    expect((await h.api("PUT", `/stream/streams/${c.id}/programme`, { items: [1] })).status).toBe(400);
    const reset = await h.api("PUT", `/stream/streams/${c.id}/programme`, {});
    expect(reset.body).toMatchObject({ enabled: false, mode: "loop", items: [] });
  });

  it("lists cities, empty sessions and recordings; recording ids are not found", async () => {
    const cities = (await h.api("GET", "/stream/cities")).body.data;
    expect(cities.map((c: any) => c.code)).toEqual(["ams", "fra", "par", "iad", "sin"]);
    expect(cities.find((c: any) => c.code === "par").has_room).toBe(false);
    const c = await newChannel();
    expect((await h.api("GET", `/stream/streams/${c.id}/sessions`)).body).toEqual({
      data: [],
      paging: { limit: 100, offset: 0, count: 0, next_offset: null },
    });
    expect((await h.api("GET", `/stream/streams/${c.id}/recordings`)).body.data).toEqual([]);
    expect((await h.api("DELETE", `/stream/streams/${c.id}/recordings/rec_1`)).status).toBe(404);
    expect((await h.api("GET", "/stream/recordings/rec_1")).status).toBe(404);
    expect((await h.api("PATCH", "/stream/recordings/rec_1", { visibility: "secret" })).status).toBe(400);
  });
});
