// Meeting settings (/meet) and its read-only views.
import { describe, expect, it } from "vitest";
import { useAccounts } from "../helpers/emulator-http";

const h = useAccounts("meet");

describe("/meet", () => {
  it("reads defaults with the cities, patches some settings and leaves the others", async () => {
    const g = await h.api("GET", "/meet/settings");
    expect(g.body).toMatchObject({
      waiting_room: false,
      guests_allowed: true,
      share_policy: "anyone",
      record_policy: "host",
      city: "fra",
      phone_lang: "en",
      retention: { days: 30 },
    });
    expect(g.body.cities.map((c: any) => c.id)).toEqual(["fra", "ams", "iad"]);
    const p = await h.api("PATCH", "/meet/settings", {
      waiting_room: true,
      retention: { days: 7 },
      share_policy: "host_only",
    });
    expect(p.body).toMatchObject({ waiting_room: true, retention: { days: 7 }, share_policy: "host_only", chat: true });
    expect((await h.api("PATCH", "/meet/settings", { city: "sin" })).body.error.message).toMatch(/^city/);
    expect((await h.api("PATCH", "/meet/settings", { share_policy: "all" })).status).toBe(400);
    expect(
      (await h.api("PATCH", "/meet/settings", { waiting_room: false, waiting_room_all: true })).body.error.message,
    ).toMatch(/^waiting_room_all/);
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
