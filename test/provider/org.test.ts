// The organisation, its members and application switches, driven through the built plugin binary
// over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ORG = "nsp:org:Organization";
const MEMBER = "nsp:org:Member";
const APPS = "nsp:org:Apps";
const DOMAINS = "nsp:org:getOrgDomains";

type Obj = Record<string, unknown>;

const provider = useProvider({ account: "orgtest" });
const { control, plugin, checked, createWithLostAnswer } = provider;

async function routes(): Promise<Record<string, number>> {
  return (await control.stats()).byRoute;
}

const SINGLETON = "the API cannot delete it: the delete leaves it in place (checked below)";
lifecycle(provider, [
  {
    type: ORG,
    create: { name: " Org Test Ltd ", slug: "org-test" },
    unknownOutput: "createdAt",
    update: { name: "Org Test GmbH" },
    apiPath: () => "/org",
    drift: { body: { name: "Renamed" }, inputs: { name: "Renamed" } },
    bad: [
      [{ slug: "Bad Slug" }, "slug"],
      [{ slug: "ab" }, "slug"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
    ],
    skip: { replace: "every input changes in place", delete: SINGLETON, "drift delete": SINGLETON },
  },
  {
    type: MEMBER,
    create: { email: " Walk@Example.COM " },
    unknownOutput: "sub",
    update: { role: "admin", state: "suspended" },
    replace: { email: "walk@other.example" },
    apiPath: (_inputs, id) => `/org/members/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/org/members")).some((m) => m.sub === id),
    drift: { body: { role: "admin" }, inputs: { role: "admin" } },
    bad: [
      [{}, "email"],
      [{ email: "nope" }, "email"],
      [{ email: "a@example.com", role: "owner" }, "role"],
      [{ email: "a@example.com", state: "gone" }, "state"],
    ],
  },
  {
    type: APPS,
    create: { chat: false, meet: true },
    unknownOutput: "orgId",
    update: { drive: false },
    apiPath: () => "/org/apps",
    importId: () => "apps",
    drift: { body: { meet: false }, inputs: { meet: false } },
    bad: [
      [{ chat: "no" }, "chat"],
      [{ drive: 1 }, "drive"],
    ],
    skip: { replace: "every switch changes in place", delete: SINGLETON, "drift delete": SINGLETON },
  },
]);

describe("nsp:org:Organization over gRPC", () => {
  it("adopts the account's organisation with one read and one patch, and forgets it on delete", async () => {
    const inputs = await checked(ORG, { name: " Org Test Ltd ", slug: "org-test" });
    await control.resetStats();
    const created = await plugin.create(ORG, "o", inputs);
    expect(await routes()).toEqual({ "GET /org": 1, "PATCH /org": 1 });
    expect(created.id).toMatch(/^org_/);
    expect(created.properties).toMatchObject({ ...inputs, owner: "orgtest@example.test" });
    await expect(plugin.read(ORG, "imp", "not/an id")).rejects.toThrow(/not an organisation id/);
    expect((await plugin.read(ORG, "d", "org_0000000000000000", created.properties, inputs)).id).toBe("");

    // The organisation cannot be deleted: the resource forgets it and says so.
    const logs = plugin.engineLogs.length;
    await control.resetStats();
    await plugin.delete(ORG, "o", created.id, created.properties);
    expect((await control.stats()).mutating).toBe(0);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/cannot be deleted through the API; it is left in place/);
    expect((await control.get("/org")).slug).toBe("org-test");
  });
});

describe("nsp:org:Member over gRPC", () => {
  it("invites with one request, and refuses to import an unknown or the owning member", async () => {
    const inputs = await checked(MEMBER, { email: " Dana@Example.COM ", role: "admin" });
    expect(inputs).toEqual({ email: "dana@example.com", role: "admin", state: "active" });
    await control.resetStats();
    const created = await plugin.create(MEMBER, "m", inputs);
    expect(await routes()).toEqual({ "POST /org/members": 1 });
    expect(created.id).toMatch(/^usr_/);
    expect(created.properties).toMatchObject({ ...inputs, sub: created.id, accepted: false });
    await expect(plugin.read(MEMBER, "imp", "a b")).rejects.toThrow(/not a member subject/);
    const owner = (await control.list<Obj>("/org/members")).find((m) => m.role === "owner")!;
    await expect(plugin.read(MEMBER, "imp", owner.sub as string)).rejects.toThrow(/owns the organisation/);
    await plugin.delete(MEMBER, "m", created.id, created.properties);
    // A second delete of a member already gone is no error.
    await plugin.delete(MEMBER, "m", created.id, created.properties);
  });

  it("adopts a member whose invitation answer was lost, instead of inviting twice", async () => {
    const inputs = await checked(MEMBER, { email: "lost@example.com" });
    const m = await createWithLostAnswer(MEMBER, "lost", inputs, "/org/members");
    expect(m.byRoute).toMatchObject({ "POST /org/members": 1, "GET /org/members": 1 });
    expect(m.properties).toMatchObject({ email: "lost@example.com", role: "member" });
    expect((await control.list<Obj>("/org/invites")).filter((i) => i.email === "lost@example.com")).toHaveLength(1);
    await plugin.delete(MEMBER, "lost", m.id, m.properties);
  });

  it("creates a suspended member with a second call", async () => {
    const inputs = await checked(MEMBER, { email: "eve@example.com", state: "suspended" });
    await control.resetStats();
    const m = await plugin.create(MEMBER, "s", inputs);
    expect(await routes()).toEqual({ "POST /org/members": 1, "PATCH /org/members/{sub}": 1 });
    expect(m.properties).toMatchObject({ role: "member", state: "suspended" });
    await plugin.delete(MEMBER, "s", m.id, m.properties);
  });
});

describe("nsp:org:Apps over gRPC", () => {
  it("switches only the applications the program sets, and leaves them on delete", async () => {
    // Switch chat and drive away from wherever the lifecycle rows above left them.
    const before = (await control.get<{ apps: Record<string, boolean> }>("/org")).apps;
    const wanted = { chat: !before.chat, drive: !before.drive };
    const inputs = await checked(APPS, wanted);

    await control.resetStats();
    const created = await plugin.create(APPS, "a", inputs);
    expect(await routes()).toEqual({ "GET /org": 1, "PATCH /org/apps": 1 });
    expect(created.id).toBe("apps");
    expect(created.properties).toMatchObject({ ...wanted, orgId: expect.stringMatching(/^org_/) });
    await expect(plugin.read(APPS, "imp", "org")).rejects.toThrow(/must be "apps"/);

    const logs = plugin.engineLogs.length;
    await control.resetStats();
    await plugin.delete(APPS, "a", "apps", created.properties);
    expect((await control.stats()).mutating).toBe(0);
    expect(plugin.engineLogs.slice(logs).join("\n")).toMatch(/left as they are/);
    expect((await control.get<{ apps: Obj }>("/org")).apps).toMatchObject(wanted);
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
