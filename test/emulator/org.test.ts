import { describe, expect, it } from "vitest";
import { createZone, expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("acme");
const { ro, other } = h;

describe("organisation", () => {
  it("is created on first read, with the account holder as owner, and patches name and slug", async () => {
    const first = await h.api("GET", "/org");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^org_[0-9a-f]{16}$/),
      name: "acme",
      slug: "acme",
      owner: "acme@example.test",
      apps: { mail: true, meet: true, chat: true, drive: true },
      members: 1,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await h.api("GET", "/org")).body.id).toBe(first.body.id);
    const p = await h.api("PATCH", "/org", { name: "  Acme Ltd ", slug: "acme-ltd" });
    expect(p.body).toMatchObject({ id: first.body.id, name: "Acme Ltd", slug: "acme-ltd" });
    expect((await ro("GET", "/org")).body.slug).toBe("acme-ltd");
    expect((await other("GET", "/org")).body.id).not.toBe(first.body.id);
  });

  it("validates the patch, keeps slugs unique and needs write scope", async () => {
    expectError(await h.api("PATCH", "/org", { slug: "Bad Slug" }), 400, "validation_error", /^slug: must be 3 to 63/);
    expectError(await h.api("PATCH", "/org", { name: "" }), 400, "validation_error", /^name:/);
    expectError(await h.api("PATCH", "/org", { colour: "red" }), 400, "validation_error", "colour: unknown field");
    await other("PATCH", "/org", { slug: "taken-slug" });
    expectError(
      await h.api("PATCH", "/org", { slug: "taken-slug" }),
      409,
      "conflict",
      "slug: taken-slug is taken by another organisation",
    );
    expectError(await ro("PATCH", "/org", { name: "x" }), 403, "forbidden");
  });
});

describe("members and invitations", () => {
  it("invites by address, replaces the earlier link on a second invitation, patches and removes", async () => {
    const inv = await h.api("POST", "/org/members", { email: " Ann@Example.COM " });
    expect(inv.status).toBe(201);
    expect(inv.body).toEqual({
      sub: expect.stringMatching(/^usr_[0-9a-f]{16}$/),
      email: "ann@example.com",
      role: "member",
      state: "active",
      accepted: false,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const sub = inv.body.sub;
    const invites1 = (await h.api("GET", "/org/invites")).body.data as any[];
    expect(invites1).toHaveLength(1);
    expect(invites1[0]).toMatchObject({ id: expect.stringMatching(/^inv_/), email: "ann@example.com", role: "member" });

    const again = await h.api("POST", "/org/members", { email: "ann@example.com", role: "admin" });
    expect(again.body).toMatchObject({ sub, role: "admin" });
    const invites2 = (await h.api("GET", "/org/invites")).body.data as any[];
    expect(invites2).toHaveLength(1);
    expect(invites2[0].id).not.toBe(invites1[0].id);
    expectError(await h.api("DELETE", `/org/invites/${invites1[0].id}`), 404, "not_found");

    const members = (await h.api("GET", "/org/members")).body;
    expect(members.data.map((m: any) => m.role)).toEqual(["owner", "admin"]);
    expect(members.paging).toEqual({ limit: 100, offset: 0, count: 2, next_offset: null });

    const s = await h.api("PATCH", `/org/members/${sub}`, { state: "suspended" });
    expect(s.body).toMatchObject({ sub, state: "suspended", role: "admin" });
    expect((await h.api("PATCH", `/org/members/${sub}`, { state: "active", role: "member" })).body).toMatchObject({
      state: "active",
      role: "member",
    });
    expectError(
      await h.api("PATCH", `/org/members/${sub}`, { state: "gone" }),
      400,
      "validation_error",
      /^state: must be one of/,
    );
    expectError(
      await h.api("PATCH", "/org/members/usr_nobody", { state: "active" }),
      404,
      "not_found",
      "member not found",
    );

    expect((await h.api("DELETE", `/org/members/${sub}`)).status).toBe(204);
    expect((await h.api("GET", "/org/invites")).body.data).toEqual([]);
    expectError(await h.api("DELETE", `/org/members/${sub}`), 404, "not_found");
  });

  it("protects the owner and validates invitations", async () => {
    const owner = ((await h.api("GET", "/org/members")).body.data as any[]).find((m) => m.role === "owner");
    expectError(await h.api("DELETE", `/org/members/${owner.sub}`), 409, "conflict", /owns the organisation/);
    expectError(await h.api("PATCH", `/org/members/${owner.sub}`, { role: "member" }), 409, "conflict");
    expectError(await h.api("POST", "/org/members", { email: "acme@example.test" }), 409, "conflict");
    expectError(
      await h.api("POST", "/org/members", { email: "not-an-address" }),
      400,
      "validation_error",
      /^email: must be an email address/,
    );
    expectError(await h.api("POST", "/org/members", { role: "admin" }), 400, "validation_error", "email: is required");
    expectError(
      await h.api("POST", "/org/members", { email: "x@example.com", role: "owner" }),
      400,
      "validation_error",
      /^role:/,
    );
    expectError(await ro("POST", "/org/members", { email: "x@example.com" }), 403, "forbidden");
    // Members are the account's own: another account does not see them.
    await h.api("POST", "/org/members", { email: "bob@example.com" });
    const theirs = (await other("GET", "/org/members")).body.data as any[];
    expect(theirs.map((m) => m.email)).toEqual(["other@example.test"]);
  });

  it("withdrawing an invitation withdraws the membership it offered", async () => {
    const m = (await h.api("POST", "/org/members", { email: "carol@example.com" })).body;
    const invite = ((await h.api("GET", "/org/invites")).body.data as any[]).find(
      (i) => i.email === "carol@example.com",
    );
    expect((await h.api("DELETE", `/org/invites/${invite.id}`)).status).toBe(204);
    expect(((await h.api("GET", "/org/members")).body.data as any[]).map((x) => x.sub)).not.toContain(m.sub);
  });
});

describe("applications and domains", () => {
  it("switches applications and shows them on the organisation", async () => {
    expect((await h.api("PATCH", "/org/apps", { chat: false, drive: false })).body).toEqual({
      mail: true,
      meet: true,
      chat: false,
      drive: false,
    });
    expect((await h.api("GET", "/org")).body.apps).toEqual({ mail: true, meet: true, chat: false, drive: false });
    expectError(await h.api("PATCH", "/org/apps", { chat: "no" }), 400, "validation_error", "chat: must be a boolean");
    expectError(await h.api("PATCH", "/org/apps", { video: true }), 400, "validation_error", "video: unknown field");
    expectError(await ro("PATCH", "/org/apps", { chat: true }), 403, "forbidden");
  });

  it("lists the account's zones as the organisation's domains", async () => {
    await createZone(h.api, "acme.example");
    const r = await h.api("GET", "/org/domains");
    expect(r.body.data).toEqual([{ name: "acme.example", zone_id: expect.any(Number), verified: false }]);
    expect((await other("GET", "/org/domains")).body.data).toEqual([]);
  });
});
