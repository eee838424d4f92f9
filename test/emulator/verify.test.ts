import { describe, expect, it } from "vitest";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("ver");
const { ro, other } = h;

const SITE_FIELDS = [
  "id",
  "name",
  "hostnames",
  "mode",
  "fingerprint",
  "interaction",
  "enabled",
  "sitekey",
  "secret_issued_at",
  "created_at",
].sort();

describe("bot verification sites", () => {
  it("creates a site with defaults, showing the secret once", async () => {
    const r = await h.api("POST", "/verify/sites", {
      name: "shop",
      hostnames: ["Shop.Example.com.", "www.example.com"],
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([...SITE_FIELDS, "secret"].sort());
    expect(r.body).toMatchObject({
      name: "shop",
      hostnames: ["shop.example.com", "www.example.com"],
      mode: "managed",
      fingerprint: false,
      interaction: "off",
      enabled: true,
    });
    expect(r.body.secret).toMatch(/^vss_[0-9a-f]{48}$/);
    expect(r.body.sitekey).toMatch(/^vsk_/);
    expect(r.body.created_at).toMatch(ISO_MS);

    const got = await h.api("GET", `/verify/sites/${r.body.id}`);
    expect(Object.keys(got.body).sort()).toEqual(SITE_FIELDS);
    const list = await h.api("GET", "/verify/sites?limit=10&offset=0");
    expect(list.body.data.map((s: any) => s.id)).toContain(r.body.id);
    expect(list.body.data.every((s: any) => !("secret" in s))).toBe(true);
    expect(list.body.paging).toMatchObject({ limit: 10, offset: 0 });
  });

  it("validates the body and refuses duplicate names", async () => {
    expectError(await h.api("POST", "/verify/sites", { hostnames: [] }), 400, "validation_error", /name/);
    expectError(await h.api("POST", "/verify/sites", { name: "x", mode: "loud" }), 400, "validation_error", /mode/);
    expectError(
      await h.api("POST", "/verify/sites", { name: "x", interaction: "maybe" }),
      400,
      "validation_error",
      /interaction/,
    );
    expectError(await h.api("POST", "/verify/sites", { name: "x", enabled: false }), 400, "validation_error");
    expectError(
      await h.api("POST", "/verify/sites", { name: "x", hostnames: ["not a host"] }),
      400,
      "validation_error",
      /hostnames\[0\]/,
    );
    expectError(
      await h.api("POST", "/verify/sites", { name: "x", hostnames: ["a.example.com", "A.example.com"] }),
      400,
      "validation_error",
      /hostnames\[1\].*duplicate/,
    );
    await h.api("POST", "/verify/sites", { name: "dup" });
    expectError(await h.api("POST", "/verify/sites", { name: "DUP" }), 409, "conflict", /name/);
    expectError(await ro("POST", "/verify/sites", { name: "ro" }), 403, "forbidden");
  });

  it("patches, rotates the secret, and deletes", async () => {
    const s = (await h.api("POST", "/verify/sites", { name: "p", interaction: "strict" })).body;
    const p = await h.api("PATCH", `/verify/sites/${s.id}`, {
      name: "p2",
      mode: "invisible",
      enabled: false,
      fingerprint: true,
      hostnames: ["a.example.org"],
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      name: "p2",
      mode: "invisible",
      enabled: false,
      fingerprint: true,
      hostnames: ["a.example.org"],
      interaction: "strict",
    });
    expect(p.body).not.toHaveProperty("secret");
    expectError(
      await h.api("PATCH", `/verify/sites/${s.id}`, { interaction: "off" }),
      400,
      "validation_error",
      /interaction/,
    );

    const rot = await h.api("POST", `/verify/sites/${s.id}/rotate`);
    expect(rot.status).toBe(200);
    expect(rot.body.secret).toMatch(/^vss_/);
    expect(rot.body.secret).not.toBe(s.secret);
    expect(rot.body.sitekey).toBe(s.sitekey);
    expectError(await ro("POST", `/verify/sites/${s.id}/rotate`), 403, "forbidden");

    expectError(await other("GET", `/verify/sites/${s.id}`), 404, "not_found");
    expect((await h.api("DELETE", `/verify/sites/${s.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/verify/sites/${s.id}`), 404, "not_found");
  });

  it("serves insights and analytics by range", async () => {
    const s = (await h.api("POST", "/verify/sites", { name: "stats" })).body;
    const ins = await ro("GET", `/verify/sites/${s.id}/insights?range=7d`);
    expect(ins.status).toBe(200);
    expect(ins.body).toMatchObject({ range: "7d", challenges: expect.any(Number), passes: expect.any(Number) });
    expectError(await h.api("GET", `/verify/sites/${s.id}/insights?range=1h`), 400, "validation_error");
    const an = await ro("GET", `/verify/sites/${s.id}/analytics?range=1h`);
    expect(an.body.buckets).toHaveLength(12);
    expect(Object.keys(an.body.buckets[0]).sort()).toEqual([
      "at",
      "challenges",
      "escalations",
      "fails",
      "passes",
      "siteverify_calls",
    ]);
  });
});
