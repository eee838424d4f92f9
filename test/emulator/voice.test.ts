// Voice numbers (/voice) with endpoints on PBX extensions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/emulator-http";

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
    expect(c.body).toMatchObject({
      number: expect.stringMatching(/^\+3120555\d{4}$/),
      label: "main",
      sip_in: false,
      dest: null,
      noanswer: null,
      endpoints: [],
    });
    const num = encodeURIComponent(c.body.number);
    expect((await h.api("PATCH", `/voice/numbers/${num}`, { sip_in: true, dest: "ivr:x" })).body).toMatchObject({
      sip_in: true,
      dest: "ivr:x",
    });
    const { pbx, exts } = await pbxWithExtensions(1);
    const e = await h.api("POST", `/voice/numbers/${num}/endpoints`, { pbx_id: pbx, ext: exts[0] });
    expect(e.status).toBe(201);
    expect(e.body.endpoints).toEqual([{ pbx_id: pbx, ext: exts[0] }]);
    const second = (await h.api("POST", "/voice/numbers", {})).body.number;
    const clash = await h.api("POST", `/voice/numbers/${encodeURIComponent(second)}/endpoints`, {
      pbx_id: pbx,
      ext: exts[0],
    });
    expect(clash.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining(c.body.number) });
    expect((await h.api("POST", `/voice/numbers/${num}/endpoints`, { pbx_id: pbx, ext: "ext_missing" })).status).toBe(
      404,
    );
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
