import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAssetState } from "../../emulator/src/vod/state";
import { ISO_MS, type Api, type Harness, makeApi, startHarness } from "../helpers/emulator-http";

const WRITE = "svc_70d00000000000000000000000000001";

let h: Harness;
let other: Api;
beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "vodder", token: WRITE }, { name: "other" }] });
  other = makeApi(h.emu.baseUrl, h.emu.accounts.other!);
});
afterAll(() => h.emu.close());

describe("vod assets", () => {
  it("creates metadata, patches, filters by state, and deletes", async () => {
    const r = await h.api("POST", "/vod/assets", { title: "Intro", tags: { lang: "en" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: "Intro",
      description: null,
      tags: { lang: "en" },
      visibility: "public",
      state: "uploading",
      progress: null,
    });
    expect(r.body.id).toMatch(/^vid_[0-9a-f]{12}$/);
    expect(r.body.created_at).toMatch(ISO_MS);
    const id = r.body.id;
    const p = await h.api("PATCH", `/vod/assets/${id}`, { visibility: "private", title: null, description: "d" });
    expect(p.body).toMatchObject({ visibility: "private", title: null, description: "d", tags: { lang: "en" } });
    expect((await h.api("GET", "/vod/assets?state=uploading")).body.data.map((a: any) => a.id)).toContain(id);
    expect((await h.api("GET", "/vod/assets?state=ready")).body.data).toEqual([]);
    expect((await h.api("GET", "/vod/assets?state=gone")).status).toBe(400);
    expect((await h.api("POST", "/vod/assets", { visibility: "hidden" })).status).toBe(400);
    expect((await h.api("POST", "/vod/assets", { tags: { a: 1 } })).status).toBe(400);
    expect((await other("GET", `/vod/assets/${id}`)).status).toBe(404);
    expect((await h.api("DELETE", `/vod/assets/${id}`)).status).toBe(204);
    expect((await h.api("GET", `/vod/assets/${id}`)).status).toBe(404);
  });

  it("reprocesses, lists renditions and signs playback only for a ready asset", async () => {
    const a = (await h.api("POST", "/vod/assets", { visibility: "private" })).body;
    expect((await h.api("POST", `/vod/assets/${a.id}/reprocess`)).status).toBe(409);
    expect((await h.api("POST", `/vod/assets/${a.id}/playback`, {})).status).toBe(409);
    expect((await h.api("GET", `/vod/assets/${a.id}/renditions`)).body.data).toEqual([]);
    setAssetState(h.emu.app.store, a.id, "ready");
    expect((await h.api("GET", `/vod/assets/${a.id}/renditions`)).body.data.length).toBeGreaterThan(0);
    const pb = await h.api("POST", `/vod/assets/${a.id}/playback`, { expires_in: 600 });
    expect(pb.body.url).toMatch(/\?exp=\d+&sig=[0-9a-f]{32}$/);
    expect(pb.body.expires_at).toMatch(ISO_MS);
    expect((await h.api("POST", `/vod/assets/${a.id}/playback`, { expires_in: 5 })).status).toBe(400);
    const re = await h.api("POST", `/vod/assets/${a.id}/reprocess`);
    expect(re.body).toMatchObject({ state: "processing", progress: 0 });
  });
});

describe("vod signing keys", () => {
  it("returns the secret once, lists without it, deletes", async () => {
    const k = await h.api("POST", "/vod/keys", { note: "player" });
    expect(k.status).toBe(201);
    expect(k.body.id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(k.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = (await h.api("GET", "/vod/keys")).body.data;
    expect(list).toContainEqual({ id: k.body.id, note: "player", created_at: k.body.created_at });
    expect(JSON.stringify(list)).not.toContain(k.body.secret);
    expect((await other("DELETE", `/vod/keys/${k.body.id}`)).status).toBe(404);
    expect((await h.api("DELETE", `/vod/keys/${k.body.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/vod/keys/${k.body.id}`)).status).toBe(404);
    expect((await h.api("POST", "/vod/keys", { note: 3 })).status).toBe(400);
  });

  it("holds at most 10 keys", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await h.api("POST", "/vod/keys", {})).body.id);
    const over = await h.api("POST", "/vod/keys", {});
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("limit_exceeded");
    expect(over.body.error.message).toBe("an account may have at most 10 signing keys; delete one first");
    for (const id of ids) await h.api("DELETE", `/vod/keys/${id}`);
  });
});

describe("vod event endpoints", () => {
  it("stores endpoints (delivery off), validates, deletes", async () => {
    const w = await h.api("POST", "/vod/webhooks", { url: "https://hooks.example.com/vod", note: "n" });
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({
      url: "https://hooks.example.com/vod",
      events: ["*"],
      note: "n",
      delivery_enabled: false,
    });
    expect(typeof w.body.id).toBe("number");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /^url: is required/],
      [{ url: "ftp://x" }, /^url: must be an http/],
      [{ url: "https://x", events: ["asset.exploded"] }, /^events\[0\]: must be one of/],
      [{ url: "https://x", events: ["asset.ready", "asset.ready"] }, /^events\[1\]: duplicate of events\[0\]/],
    ];
    for (const [body, msg] of cases) {
      const r = await h.api("POST", "/vod/webhooks", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(msg);
    }
    expect((await h.api("GET", "/vod/webhooks")).body.data.map((x: any) => x.id)).toContain(w.body.id);
    expect((await h.api("DELETE", `/vod/webhooks/${w.body.id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/vod/webhooks/${w.body.id}`)).status).toBe(404);
  });
});
