// The organisation, its members and application switches, driven through the built plugin binary
// over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";

const ORG = "nsp:org:Organization";
const MEMBER = "nsp:org:Member";
const APPS = "nsp:org:Apps";
const DOMAINS = "nsp:org:getOrgDomains";

type Obj = Record<string, unknown>;

const token = `svc_${"0a9e".repeat(8)}`;
const { control, plugin, checked, previewSendsNothing, expectCheckFailures } = useProvider({ emulator: { accounts: [{ name: "orgtest", token }] } });

async function routes(): Promise<Record<string, number>> {
  return (await control.stats()).byRoute;
}

describe("nsp:org:Organization over gRPC", () => {
  it("adopts the account's organisation, patches name and slug, forgets it on delete", async () => {
    const inputs = await checked(ORG, { name: " Org Test Ltd ", slug: "org-test" });
    expect(inputs).toEqual({ name: "Org Test Ltd", slug: "org-test" });
    await previewSendsNothing(ORG, inputs, "createdAt");

    await control.resetStats();
    const created = await plugin.create(ORG, "o", inputs);
    expect(await routes()).toEqual({ "GET /org": 1, "PATCH /org": 1 });
    expect(created.id).toMatch(/^org_/);
    expect(created.properties).toMatchObject({ ...inputs, owner: "orgtest@example.test", apps: { mail: true, meet: true, chat: true, drive: true } });

    const read = await plugin.read(ORG, "o", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect(await plugin.diff(ORG, "o", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false, replaces: [] });

    const renamed = await checked(ORG, { name: "Org Test GmbH", slug: "org-test" });
    const d = await plugin.diff(ORG, "o", created.id, read.properties, renamed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [], diffs: ["name"] });
    await control.resetStats();
    const updated = await plugin.update(ORG, "o", created.id, read.properties, renamed, false, inputs);
    expect(await routes()).toEqual({ "PATCH /org": 1 });
    expect(updated.name).toBe("Org Test GmbH");
    expect((await control.get("/org")).name).toBe("Org Test GmbH");

    // Import through Read with only the id.
    const imported = await plugin.read(ORG, "imp", created.id);
    expect(imported.inputs).toEqual({ name: "Org Test GmbH", slug: "org-test" });
    const importChecked = await checked(ORG, imported.inputs);
    expect((await plugin.diff(ORG, "imp", created.id, imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(ORG, "imp", "not/an id")).rejects.toThrow(/not an organisation id/);

    // The organisation cannot be deleted: the resource forgets it and says so.
    const logs = plugin.engineLogs.length;
    await control.resetStats();
    await plugin.delete(ORG, "o", created.id, updated);
    expect((await control.stats()).mutating).toBe(0);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/cannot be deleted through the API; it is left in place/);
    expect((await control.get("/org")).slug).toBe("org-test");
  });

  it("sees a rename through the API, and reads another organisation's id as gone", async () => {
    const inputs = await checked(ORG, { name: "Drift Org" });
    const o = await plugin.create(ORG, "d", inputs);
    await control.patch("/org", { name: "Renamed" });
    const read = await plugin.read(ORG, "d", o.id, o.properties, inputs);
    expect(read.inputs).toEqual({ name: "Renamed" });
    expect((await plugin.diff(ORG, "d", o.id, read.properties, inputs, read.inputs)).diffs).toEqual(["name"]);
    expect((await plugin.read(ORG, "d", "org_0000000000000000", o.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await expectCheckFailures(ORG, [
      [{ slug: "Bad Slug" }, "slug"],
      [{ slug: "ab" }, "slug"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
    ]);
  });
});

describe("nsp:org:Member over gRPC", () => {
  it("invites, changes role and state in place, replaces on a new address, removes", async () => {
    const inputs = await checked(MEMBER, { email: " Dana@Example.COM ", role: "admin" });
    expect(inputs).toEqual({ email: "dana@example.com", role: "admin", state: "active" });
    await previewSendsNothing(MEMBER, inputs, "sub");

    await control.resetStats();
    const created = await plugin.create(MEMBER, "m", inputs);
    expect(await routes()).toEqual({ "POST /org/members": 1 });
    expect(created.id).toMatch(/^usr_/);
    expect(created.properties).toMatchObject({ ...inputs, sub: created.id, accepted: false });

    const read = await plugin.read(MEMBER, "m", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(await plugin.diff(MEMBER, "m", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false });

    const suspended = await checked(MEMBER, { email: "dana@example.com", role: "admin", state: "suspended" });
    expect((await plugin.diff(MEMBER, "m", created.id, read.properties, suspended, inputs)).diffs).toEqual(["state"]);
    await control.resetStats();
    const updated = await plugin.update(MEMBER, "m", created.id, read.properties, suspended, false, inputs);
    expect(await routes()).toEqual({ "PATCH /org/members/{sub}": 1 });
    expect(updated.state).toBe("suspended");
    const row = (await control.list<Obj>("/org/members")).find((m) => m.sub === created.id);
    expect(row).toMatchObject({ state: "suspended", role: "admin" });

    const moved = await checked(MEMBER, { ...suspended, email: "dana@other.example" });
    const rd = await plugin.diff(MEMBER, "m", created.id, updated, moved, suspended);
    expect(rd).toMatchObject({ changes: true, replaces: ["email"], deleteBeforeReplace: false });

    // Import with only the sub: defaults are left out of the inputs.
    const imported = await plugin.read(MEMBER, "imp", created.id);
    expect(imported.inputs).toEqual({ email: "dana@example.com", role: "admin", state: "suspended" });
    const importChecked = await checked(MEMBER, imported.inputs);
    expect((await plugin.diff(MEMBER, "imp", created.id, imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(MEMBER, "imp", "a b")).rejects.toThrow(/not a member subject/);
    const owner = (await control.list<Obj>("/org/members")).find((m) => m.role === "owner")!;
    await expect(plugin.read(MEMBER, "imp", owner.sub as string)).rejects.toThrow(/owns the organisation/);

    await plugin.delete(MEMBER, "m", created.id, updated);
    expect((await plugin.read(MEMBER, "m", created.id, updated, suspended)).id).toBe("");
    await plugin.delete(MEMBER, "m", created.id, updated);
  });

  it("adopts a member whose invitation answer was lost, instead of inviting twice", async () => {
    const inputs = await checked(MEMBER, { email: "lost@example.com" });
    await control.resetStats();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/org/members$", count: 1 });
    try {
      const m = await plugin.create(MEMBER, "lost", inputs);
      expect((await control.stats()).byRoute).toMatchObject({ "POST /org/members": 1, "GET /org/members": 1 });
      expect(m.properties).toMatchObject({ email: "lost@example.com", role: "member" });
      expect((await control.list<Obj>("/org/invites")).filter((i) => i.email === "lost@example.com")).toHaveLength(1);
      await plugin.delete(MEMBER, "lost", m.id, m.properties);
    } finally {
      await control.clearFaults();
    }
  });

  it("creates a suspended member with a second call", async () => {
    const inputs = await checked(MEMBER, { email: "eve@example.com", state: "suspended" });
    await control.resetStats();
    const m = await plugin.create(MEMBER, "s", inputs);
    expect(await routes()).toEqual({ "POST /org/members": 1, "PATCH /org/members/{sub}": 1 });
    expect(m.properties).toMatchObject({ role: "member", state: "suspended" });
    await plugin.delete(MEMBER, "s", m.id, m.properties);
  });

  it("sees changes made through the API, and the member removed", async () => {
    const inputs = await checked(MEMBER, { email: "frank@example.com" });
    const m = await plugin.create(MEMBER, "d", inputs);
    await control.patch(`/org/members/${m.id}`, { role: "admin" });
    const read = await plugin.read(MEMBER, "d", m.id, m.properties, inputs);
    expect(read.properties.role).toBe("admin");
    expect(read.inputs).toMatchObject({ role: "admin" });
    expect((await plugin.diff(MEMBER, "d", m.id, read.properties, inputs, read.inputs)).diffs).toEqual(["role"]);
    await control.delete(`/org/members/${m.id}`);
    expect((await plugin.read(MEMBER, "d", m.id, read.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await expectCheckFailures(MEMBER, [
      [{}, "email"],
      [{ email: "nope" }, "email"],
      [{ email: "a@example.com", role: "owner" }, "role"],
      [{ email: "a@example.com", state: "gone" }, "state"],
    ]);
  });
});

describe("nsp:org:Apps over gRPC", () => {
  it("switches only the applications the program sets, and leaves them on delete", async () => {
    const inputs = await checked(APPS, { chat: false });
    expect(inputs).toEqual({ chat: false });
    await previewSendsNothing(APPS, inputs, "orgId");

    await control.resetStats();
    const created = await plugin.create(APPS, "a", inputs);
    expect(await routes()).toEqual({ "GET /org": 1, "PATCH /org/apps": 1 });
    expect(created.id).toBe("apps");
    expect(created.properties).toMatchObject({ mail: true, meet: true, chat: false, drive: true, orgId: expect.stringMatching(/^org_/) });

    const read = await plugin.read(APPS, "a", "apps", created.properties, inputs);
    expect(read.inputs).toEqual({ chat: false });
    expect(await plugin.diff(APPS, "a", "apps", read.properties, inputs, inputs)).toMatchObject({ changes: false });

    const more = await checked(APPS, { chat: false, drive: false });
    expect((await plugin.diff(APPS, "a", "apps", read.properties, more, inputs)).diffs).toEqual(["drive"]);
    await control.resetStats();
    const updated = await plugin.update(APPS, "a", "apps", read.properties, more, false, inputs);
    expect(await routes()).toEqual({ "PATCH /org/apps": 1 });
    expect(updated).toMatchObject({ chat: false, drive: false, mail: true });

    const imported = await plugin.read(APPS, "imp", "apps");
    expect(imported.inputs).toEqual({ mail: true, meet: true, chat: false, drive: false });
    const importChecked = await checked(APPS, imported.inputs);
    expect((await plugin.diff(APPS, "imp", "apps", imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(APPS, "imp", "org")).rejects.toThrow(/must be "apps"/);

    const logs = plugin.engineLogs.length;
    await control.resetStats();
    await plugin.delete(APPS, "a", "apps", updated);
    expect((await control.stats()).mutating).toBe(0);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/left as they are/);
    expect((await control.get<{ apps: Obj }>("/org")).apps).toEqual({ mail: true, meet: true, chat: false, drive: false });
  });

  it("sees a switch changed through the API", async () => {
    const inputs = await checked(APPS, { meet: true });
    const a = await plugin.create(APPS, "d", inputs);
    await control.patch("/org/apps", { meet: false });
    const read = await plugin.read(APPS, "d", "apps", a.properties, inputs);
    expect(read.inputs).toEqual({ meet: false });
    expect((await plugin.diff(APPS, "d", "apps", read.properties, inputs, read.inputs)).diffs).toEqual(["meet"]);
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await expectCheckFailures(APPS, [
      [{ chat: "no" }, "chat"],
      [{ drive: 1 }, "drive"],
    ]);
  });
});

describe("nsp:org:getOrgDomains over gRPC", () => {
  it("lists the organisation's domains", async () => {
    const svc = (await control.services()).find((s) => s.type === "auth_dns")!;
    await control.post("/dns/zones", { service_id: svc.id, name: "orgtest.example" });
    const { result, failures } = await plugin.invoke(DOMAINS, {});
    expect(failures).toEqual([]);
    expect(result).toEqual({ domains: [{ name: "orgtest.example", verified: false }] });
  });
});
