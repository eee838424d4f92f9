// Realtime rooms (/rtc): create, passcodes, patch limits, joins, recordings.
import { describe, expect, it } from "vitest";
import { useAccounts } from "../helpers/emulator-http";

const h = useAccounts("rooms");

describe("/rtc", () => {
  it("creates a room with a passcode in the body, patches, clears it with an empty one, and deletes", async () => {
    expect((await h.api("GET", "/rtc/cities")).body.data).toHaveLength(4);
    const c = await h.api("POST", "/rtc/rooms", { name: "stage", passcode: "s3cret" });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      max_peers: 16,
      max_video: 9,
      enabled: true,
      verify_level: "standard",
      city: "fra",
      has_passcode: true,
    });
    expect(c.body.passcode).toBeUndefined();
    const id = c.body.id;
    expect((await h.api("PATCH", `/rtc/rooms/${id}`, { name: "stage", record: true })).body).toMatchObject({
      record: true,
      has_passcode: true,
    });
    expect((await h.api("PATCH", `/rtc/rooms/${id}`, { name: "stage", passcode: "" })).body.has_passcode).toBe(false);
    expect((await h.api("PATCH", `/rtc/rooms/${id}`, { name: "stage", max_peers: 4 })).body.error.message).toMatch(
      /^max_peers: must not exceed/,
    );
    expect((await h.api("POST", `/rtc/rooms/${id}/join`, { near: { lat: 1 } })).body).toMatchObject({
      node: "fra1.rtc.nsp-emulator.test",
      token: expect.stringMatching(/^jt_/),
    });
    expect((await h.api("GET", `/rtc/rooms/${id}/recordings`)).body.data).toEqual([]);
    expect((await h.api("DELETE", `/rtc/rooms/${id}/recordings/rec1`)).status).toBe(404);
    expect((await h.api("DELETE", `/rtc/rooms/${id}`)).status).toBe(204);
    expect((await h.api("GET", `/rtc/rooms/${id}`)).status).toBe(404);
  });

  it("refuses more video than peers and unknown verify levels", async () => {
    expect((await h.api("POST", "/rtc/rooms", { name: "x", max_peers: 2, max_video: 3 })).body.error.message).toMatch(
      /^max_video/,
    );
    expect((await h.api("POST", "/rtc/rooms", { name: "x", verify_level: "extreme" })).body.error.code).toBe(
      "validation_error",
    );
  });
});
