// The emulator's other answers to points the API leaves "not shown", each switched on through the
// control API of a running emulator, as the provider's alternative suite does.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type Harness, ISO_MS, createZone, startHarness } from "../helpers/emulator-http";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ rateLimitPerMinute: 300 }); // reset-epoch reads the limit's headers
});
afterAll(() => h.emu.close());
beforeEach(async () => {
  expect((await h.control("PUT", "/_emulator/alternatives", { alternatives: [] })).status).toBe(200);
});

const use = async (...alternatives: string[]) => {
  const r = await h.control("PUT", "/_emulator/alternatives", { alternatives });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ alternatives });
};

it("lists the active alternatives and refuses an unknown name", async () => {
  expect((await h.control("GET", "/_emulator/alternatives")).body).toEqual({ alternatives: [] });
  const bad = await h.control("PUT", "/_emulator/alternatives", { alternatives: ["xml"] });
  expect(bad.status).toBe(400);
  expect(bad.body.error.message).toMatch(/^alternatives\[0\]/);
});

it("bare-lists: a list is the bare array of the page's rows, still paged by limit and offset", async () => {
  await createZone(h.api, "bare-a.example");
  await createZone(h.api, "bare-b.example");
  const wrapped = await h.api("GET", "/dns/zones?limit=1");
  expect(wrapped.body.paging.next_offset).toBe(1);
  await use("bare-lists");
  const first = await h.api("GET", "/dns/zones?limit=1");
  expect(Array.isArray(first.body)).toBe(true);
  expect(first.body.map((z: { name: string }) => z.name)).toEqual(["bare-a.example"]);
  const second = await h.api("GET", "/dns/zones?limit=1&offset=1");
  expect(second.body.map((z: { name: string }) => z.name)).toEqual(["bare-b.example"]);
  // A single object is not a list and keeps its shape.
  expect((await h.api("GET", "/me")).body).toHaveProperty("email");
});

it("status-422: a validation_error answers 422; other codes keep their status", async () => {
  await use("status-422");
  const bad = await h.api("POST", "/dns/zones", { name: 5 });
  expect(bad.status).toBe(422);
  expect(bad.body.error.code).toBe("validation_error");
  expect((await h.api("GET", "/dns/zones/999999")).status).toBe(404);
});

it("reset-epoch: X-RateLimit-Reset is an epoch time in seconds", async () => {
  const before = Number((await h.api("GET", "/me")).headers.get("x-ratelimit-reset"));
  expect(before).toBeLessThan(120);
  await use("reset-epoch");
  const reset = Number((await h.api("GET", "/me")).headers.get("x-ratelimit-reset"));
  const nowS = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(nowS));
  expect(reset).toBeLessThan(nowS + 120);
});

it("epoch-timestamps: timestamp fields are epoch seconds with the milliseconds as a fraction", async () => {
  const zone = await createZone(h.api, "epoch.example");
  expect(zone.created_at).toMatch(ISO_MS);
  await use("epoch-timestamps");
  const read = await h.api("GET", `/dns/zones/${zone.id}`);
  expect(read.body.created_at).toBe(Date.parse(zone.created_at) / 1000);
  expect(read.body.name).toBe("epoch.example");
  // A record whose content looks like a date is user content, not a timestamp, and stays a string.
  const rec = await h.api("POST", `/dns/zones/${zone.id}/records`, {
    type: "TXT",
    name: "t",
    content: "2026-01-01T00:00:00.000Z",
  });
  expect(rec.body.content).toBe("2026-01-01T00:00:00.000Z");
  expect(typeof rec.body.created_at).toBe("number");
});

it("bodiless-404: not_found answers 404 with no body, inside and outside /api/v1", async () => {
  await use("bodiless-404");
  const gone = await h.api("GET", "/dns/zones/999999");
  expect(gone.status).toBe(404);
  expect(gone.text).toBe("");
  const outside = await fetch(`${h.origin}/dns/zones/1`);
  expect(outside.status).toBe(404);
  expect(await outside.text()).toBe("");
  // Other errors keep their body.
  const bad = await h.api("POST", "/dns/zones", { name: 5 });
  expect(bad.body.error.code).toBe("validation_error");
});

it("replace-rewrites: an import with replace deletes every record and adds every line anew, in its preview too", async () => {
  const zone = await createZone(h.api, "rewrite.example");
  const kept = (
    await h.api("POST", `/dns/zones/${zone.id}/records`, {
      type: "A",
      name: "kept",
      content: "192.0.2.1",
      proxied: true,
    })
  ).body;
  await h.api("POST", `/dns/zones/${zone.id}/records`, { type: "A", name: "gone", content: "192.0.2.2" });
  const text = "kept 3600 IN A 192.0.2.1\nnew 3600 IN A 192.0.2.3\n";
  const matching = await h.api("POST", `/dns/zones/${zone.id}/import`, { text, mode: "preview", replace: true });
  expect(matching.body).toMatchObject({ added: 1, deleted: 1, skipped: ["kept 3600 IN A 192.0.2.1 (duplicate)"] });
  await use("replace-rewrites");
  const preview = await h.api("POST", `/dns/zones/${zone.id}/import`, { text, mode: "preview", replace: true });
  expect(preview.body).toEqual({ mode: "preview", added: 2, deleted: 2, skipped: [] });
  await h.api("POST", `/dns/zones/${zone.id}/import`, { text, mode: "apply", replace: true });
  const after = (await h.api("GET", `/dns/zones/${zone.id}/records`)).body.data;
  expect(after.map((r: { name: string }) => r.name).sort()).toEqual(["kept", "new"]);
  // The record of the same name and data is a new one: another id, the proxy gone.
  expect(after.find((r: { name: string }) => r.name === "kept")).toMatchObject({ proxied: false });
  expect(after.find((r: { name: string }) => r.name === "kept").id).not.toBe(kept.id);
  // Without replace an import is the same as by default.
  expect((await h.api("POST", `/dns/zones/${zone.id}/import`, { text, mode: "preview" })).body).toMatchObject({
    added: 0,
    deleted: 0,
  });
});

it("several alternatives combine", async () => {
  await use("bare-lists", "epoch-timestamps");
  const list = await h.api("GET", "/dns/zones");
  expect(Array.isArray(list.body)).toBe(true);
  expect(typeof list.body[0].created_at).toBe("number");
});
