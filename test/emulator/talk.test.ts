// Chat rooms (/talk): create, defaults, patch, passcodes, cities, joins.
import { describe, expect, it } from "vitest";
import { useAccounts } from "../helpers/emulator-http";

const h = useAccounts("rooms");
const { other } = h;

describe("/talk", () => {
  it("lists seeded cities, with and without room", async () => {
    const r = await h.api("GET", "/talk/cities");
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: any) => [c.id, c.has_room])).toEqual([
      ["fra", true],
      ["ams", true],
      ["iad", true],
      ["sin", false],
    ]);
  });

  it("creates a room with defaults, patches it, sets and clears a passcode, and deletes it", async () => {
    const c = await h.api("POST", "/talk/rooms", { name: " lobby " });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      name: "lobby",
      kind: "room",
      city: "fra",
      visibility: "public",
      max_peers: 50,
      max_kbps: 2000,
      retention_days: 30,
      public_join: false,
      enabled: true,
      has_passcode: false,
    });
    expect(c.body.passcode).toBeUndefined();
    const id = c.body.id;
    const p = await h.api("PATCH", `/talk/rooms/${id}`, { name: "lobby", max_peers: 10, city: "ams" });
    expect(p.body).toMatchObject({ max_peers: 10, city: "ams", kind: "room" });
    expect((await h.api("PATCH", `/talk/rooms/${id}`, { max_peers: 10 })).status).toBe(400);
    expect((await h.api("PUT", `/talk/rooms/${id}/passcode`, { passcode: "1234" })).body.has_passcode).toBe(true);
    expect((await h.api("GET", `/talk/rooms/${id}`)).body.has_passcode).toBe(true);
    expect((await h.api("PUT", `/talk/rooms/${id}/passcode`, { passcode: "" })).body.has_passcode).toBe(false);
    const join = await h.api("POST", `/talk/rooms/${id}/join`, { label: "Ann", readonly: true });
    expect(join.body).toMatchObject({ room_id: id, readonly: true, token: expect.stringMatching(/^jt_/) });
    expect((await h.api("GET", `/talk/rooms/${id}/history`)).body.data).toEqual([]);
    expect((await h.api("GET", `/talk/rooms/${id}/usage`)).body.data).toEqual([]);
    expect((await other("GET", `/talk/rooms/${id}`)).status).toBe(404);
    expect((await h.api("DELETE", `/talk/rooms/${id}`)).status).toBe(204);
    expect((await h.api("GET", `/talk/rooms/${id}`)).status).toBe(404);
  });

  it("refuses bad bodies and cities without room", async () => {
    expect((await h.api("POST", "/talk/rooms", { name: "" })).body.error.code).toBe("validation_error");
    expect((await h.api("POST", "/talk/rooms", { name: "x", max_peers: 1 })).body.error.message).toMatch(/max_peers/);
    expect((await h.api("POST", "/talk/rooms", { name: "x", kind: "stage" })).body.error.code).toBe("validation_error");
    expect((await h.api("POST", "/talk/rooms", { name: "x", city: "xyz" })).body.error.message).toMatch(
      /^city: unknown city/,
    );
    expect((await h.api("POST", "/talk/rooms", { name: "x", city: "sin" })).body.error.code).toBe("limit_exceeded");
  });
});
