// Voice numbers (/voice) with endpoints on PBX extensions, and meeting settings (/meet).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: [{ name: "voice" }] });
});
afterAll(() => h.emu.close());

async function pbxWithExtensions(n: number): Promise<{ pbx: string; exts: string[] }> {
  const pbx = (await h.api("POST", "/vgate/pbx", { name: "office", template: "blank" })).body.id as string;
  const exts: string[] = [];
  for (let i = 0; i < n; i++) exts.push((await h.api("POST", `/vgate/pbx/${pbx}/extensions`, {})).body.id);
  return { pbx, exts };
}

describe("/voice/numbers", () => {
  it("drops the endpoints of a PBX when the PBX is deleted", async () => {
    const { pbx, exts } = await pbxWithExtensions(1);
    const num = encodeURIComponent((await h.api("POST", "/voice/numbers", {})).body.number);
    await h.api("POST", `/voice/numbers/${num}/endpoints`, { pbx_id: pbx, ext: exts[0] });
    expect((await h.api("DELETE", `/vgate/pbx/${pbx}`)).status).toBe(204);
    expect((await h.api("GET", `/voice/numbers/${num}`)).body.endpoints).toEqual([]);
    expect((await h.api("DELETE", `/voice/numbers/${num}`)).status).toBe(204);
  });

  it("claims, patches, rings extensions (each for one number at most) and releases", async () => {
    const c = await h.api("POST", "/voice/numbers", { label: "main" });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ number: expect.stringMatching(/^\+3120555\d{4}$/), label: "main", sip_in: false, dest: null, noanswer: null, endpoints: [] });
    const num = encodeURIComponent(c.body.number);
    expect((await h.api("PATCH", `/voice/numbers/${num}`, { sip_in: true, dest: "ivr:x" })).body).toMatchObject({ sip_in: true, dest: "ivr:x" });
    const { pbx, exts } = await pbxWithExtensions(1);
    const e = await h.api("POST", `/voice/numbers/${num}/endpoints`, { pbx_id: pbx, ext: exts[0] });
    expect(e.status).toBe(201);
    expect(e.body.endpoints).toEqual([{ pbx_id: pbx, ext: exts[0] }]);
    const second = (await h.api("POST", "/voice/numbers", {})).body.number;
    const clash = await h.api("POST", `/voice/numbers/${encodeURIComponent(second)}/endpoints`, { pbx_id: pbx, ext: exts[0] });
    expect(clash.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining(c.body.number) });
    expect((await h.api("POST", `/voice/numbers/${num}/endpoints`, { pbx_id: pbx, ext: "ext_missing" })).status).toBe(404);
    expect((await h.api("GET", "/voice/extensions")).body.data.map((x: any) => x.ext)).toEqual(exts);
    expect((await h.api("GET", "/voice/destinations")).status).toBe(200);
    expect((await h.api("DELETE", `/voice/numbers/${num}/endpoints/${pbx}/${exts[0]}`)).status).toBe(204);
    expect((await h.api("DELETE", `/voice/numbers/${num}/endpoints/${pbx}/${exts[0]}`)).status).toBe(404);
    expect((await h.api("DELETE", `/voice/numbers/${num}`)).status).toBe(204);
    expect((await h.api("GET", `/voice/numbers/${num}`)).status).toBe(404);
  });

  it("stops at the packs' limit of 10 numbers", async () => {
    const held = (await h.api("GET", "/voice/numbers")).body.data.length;
    for (let i = held; i < 10; i++) expect((await h.api("POST", "/voice/numbers", {})).status).toBe(201);
    expect((await h.api("POST", "/voice/numbers", {})).body.error.code).toBe("limit_exceeded");
  });
});

describe("/meet", () => {
  it("reads defaults with the cities, patches some settings and leaves the others", async () => {
    const g = await h.api("GET", "/meet/settings");
    expect(g.body).toMatchObject({ waiting_room: false, guests_allowed: true, share_policy: "anyone", record_policy: "host", city: "fra", phone_lang: "en", retention: { days: 30 } });
    expect(g.body.cities.map((c: any) => c.id)).toEqual(["fra", "ams", "iad"]);
    const p = await h.api("PATCH", "/meet/settings", { waiting_room: true, retention: { days: 7 }, share_policy: "host_only" });
    expect(p.body).toMatchObject({ waiting_room: true, retention: { days: 7 }, share_policy: "host_only", chat: true });
    expect((await h.api("PATCH", "/meet/settings", { city: "sin" })).body.error.message).toMatch(/^city/);
    expect((await h.api("PATCH", "/meet/settings", { share_policy: "all" })).status).toBe(400);
    expect((await h.api("PATCH", "/meet/settings", { waiting_room: false, waiting_room_all: true })).body.error.message).toMatch(/^waiting_room_all/);
    expect((await h.api("DELETE", "/meet/settings")).status).toBe(405);
  });

  it("serves the read-only views and refuses actions on unknown meetings", async () => {
    expect((await h.api("GET", "/meet/overview")).body).toMatchObject({ running: [] });
    expect((await h.api("GET", "/meet/meetings?state=active&group=live")).body.data).toEqual([]);
    expect((await h.api("GET", "/meet/meetings?state=gone")).status).toBe(400);
    expect((await h.api("POST", "/meet/meetings/m1/end")).status).toBe(404);
    expect((await h.api("GET", "/meet/recordings")).body.data).toEqual([]);
    expect((await h.api("GET", "/meet/usage?days=7")).body.data).toEqual([]);
    expect((await h.api("GET", "/meet/audit")).body.data).toEqual([]);
  });
});
