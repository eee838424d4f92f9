// The addresses of a mail domain besides its mailboxes: nsp:mail:Alias, nsp:mail:Group and
// nsp:mail:DomainRule, through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useMailProvider } from "../helpers/mail-parents";

const ALIAS = "nsp:mail:Alias";
const GROUP = "nsp:mail:Group";
const RULE = "nsp:mail:DomainRule";

type Obj = Record<string, any>;

const provider = useMailProvider();
const { control, plugin, checked, previewSendsNothing, importClean, expectCheckFailures, apiDomain, apiMailbox } =
  provider;

lifecycle(provider, [
  {
    type: GROUP,
    create: async () => ({ domainId: String((await apiDomain()).id), localPart: "walk-team", name: "Team" }),
    unknownOutput: "address",
    update: { name: "Renamed team", posting: "org" },
    replace: { domainId: "999999" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/groups/${id}`,
    exists: async (inputs, id) =>
      (await control.list<Obj>(`/mail/domains/${inputs.domainId}/groups`)).some((g) => g.id === id),
    drift: { body: { local_part: "walk-team", name: "Renamed" }, inputs: { name: "Renamed" } },
    bad: [
      [{ domainId: "1" }, "localPart"],
      [{ domainId: "1", localPart: "x", posting: "all" }, "posting"],
      [{ domainId: "1", localPart: "x", replyTo: "list" }, "replyTo"],
      [{ domainId: "1", localPart: "x", members: [{ address: "nope" }] }, "members"],
      [
        { domainId: "1", localPart: "x", members: [{ address: "a@example.com" }, { address: "A@example.com" }] },
        "members",
      ],
      [{ domainId: "1", localPart: "x", members: [{ address: "a@example.com", role: "admin" }] }, "members"],
      [{ domainId: "1", localPart: "x", subjectTag: "t".repeat(33) }, "subjectTag"],
    ],
    nestedFailures: ["["],
  },
  {
    type: RULE,
    create: async () => ({
      domainId: String((await apiDomain()).id),
      kind: "reject_sender",
      pattern: "*@spam.example",
    }),
    unknownOutput: "createdAt",
    update: { pattern: "*@junk.example", enabled: false },
    replace: { domainId: "999999" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/domainrules/${id}`,
    exists: async (inputs, id) =>
      (await control.list<Obj>(`/mail/domains/${inputs.domainId}/rules`)).some((r) => String(r.id) === id),
    drift: { body: { enabled: false }, inputs: { enabled: false } },
    skip: { bad: "in the test of its own below" },
  },
  {
    type: ALIAS,
    create: async () => {
      const domain = await apiDomain();
      return { domainId: String(domain.id), localPart: "info", targetMailboxId: (await apiMailbox(domain.id)).id };
    },
    unknownOutput: "address",
    replace: { localPart: "hello" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/aliases/${id}`,
    exists: async (inputs, id) =>
      (await control.list<Obj>(`/mail/domains/${inputs.domainId}/aliases`)).some((a) => String(a.id) === id),
    bad: [
      [{ localPart: "x", targetMailboxId: "mbx_1" }, "domainId"],
      [{ domainId: "1", localPart: "a b", targetMailboxId: "mbx_1" }, "localPart"],
      [{ domainId: "1", localPart: "x" }, "targetMailboxId"],
      [{ domainId: "1", localPart: "x", targetMailboxId: "mbx_1", enabled: "yes" }, "enabled"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "every change replaces an alias: the API has no edit of one",
      "drift edit": "the API has no edit of an alias",
    },
  },
]);

describe("nsp:mail:Alias", () => {
  it("creates an alias, replaces it on any change (deleting first when the address stays), imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const box = await apiMailbox(domain.id, "erin");
    const other = await apiMailbox(domain.id, "frank");
    const inputs = await checked(ALIAS, { domainId, localPart: " Info ", targetMailboxId: box.id });
    expect(inputs).toEqual({ domainId, localPart: "info", targetMailboxId: box.id, enabled: true });
    await previewSendsNothing(ALIAS, inputs, "address");

    const created = await plugin.create(ALIAS, "al", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({
      ...inputs,
      address: `info@${domain.name}`,
      targetAddress: `erin@${domain.name}`,
    });
    const read = await plugin.read(ALIAS, "al", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(ALIAS, "al", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const retarget = await plugin.diff(
      ALIAS,
      "al",
      created.id,
      read.properties,
      { ...inputs, targetMailboxId: other.id },
      inputs,
    );
    expect(retarget).toMatchObject({ changes: true, replaces: ["targetMailboxId"], deleteBeforeReplace: true });
    const renamed = await plugin.diff(
      ALIAS,
      "al",
      created.id,
      read.properties,
      { ...inputs, localPart: "hello" },
      inputs,
    );
    expect(renamed).toMatchObject({ replaces: ["localPart"], deleteBeforeReplace: false });
    expect(
      await plugin.diff(ALIAS, "al", created.id, read.properties, { ...inputs, enabled: false }, inputs),
    ).toMatchObject({ replaces: ["enabled"] });

    await importClean(ALIAS, `${domainId}/${created.id}`, created.id);
    await expect(plugin.read(ALIAS, "imp", `${domainId}/x`)).rejects.toThrow(/<domainId>\/<aliasId>/);

    await plugin.delete(ALIAS, "al", created.id, read.properties);
    expect((await plugin.read(ALIAS, "al", created.id, read.properties, inputs)).id).toBe("");
  });

  it("adopts the identical alias a killed run made, and keeps refusing an address taken by another target", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const box = await apiMailbox(domain.id as number, "grace");
    const other = await apiMailbox(domain.id as number, "heidi");
    const orphan = await control.post<{ id: number }>(`/mail/domains/${domainId}/aliases`, {
      local_part: "sales",
      target_mailbox_id: String(box.id),
    });
    const adopted = await plugin.create(
      ALIAS,
      "sales",
      await checked(ALIAS, { domainId, localPart: "sales", targetMailboxId: String(box.id) }),
    );
    expect(adopted.id).toBe(String(orphan.id));
    expect(plugin.engineLogs.join("\n")).toMatch(
      /alias sales: the API refused a duplicate of an existing object \(id \d+\); adopting it/,
    );
    // The same address for another mailbox is not this alias: the conflict stands.
    await expect(
      plugin.create(
        ALIAS,
        "sales2",
        await checked(ALIAS, { domainId, localPart: "sales", targetMailboxId: String(other.id) }),
      ),
    ).rejects.toThrow(/conflict/);
    expect(await control.list(`/mail/domains/${domainId}/aliases`)).toHaveLength(1);
  });

  it("sees an alias deleted through the API, and with its target mailbox", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const inputs = await checked(ALIAS, {
      domainId: String(domain.id),
      localPart: "sales",
      targetMailboxId: box.id,
      enabled: false,
    });
    const a = await plugin.create(ALIAS, "al", inputs);
    expect(a.properties.enabled).toBe(false);
    await control.delete(`/mail/aliases/${a.id}`);
    expect((await plugin.read(ALIAS, "al", a.id, a.properties, inputs)).id).toBe("");
    const b = await plugin.create(ALIAS, "al2", inputs);
    await control.delete(`/mail/mailboxes/${box.id}`);
    expect((await plugin.read(ALIAS, "al2", b.id, b.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:Group", () => {
  it("creates a group, patches it (rename included) in place, imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(GROUP, {
      domainId,
      localPart: "Team",
      members: [{ address: "A@Example.com" }, { address: "b@example.com", role: "owner" }],
    });
    expect(inputs).toEqual({
      domainId,
      localPart: "team",
      members: [
        { address: "a@example.com", role: "member" },
        { address: "b@example.com", role: "owner" },
      ],
      allowExternalSenders: false,
      membersCanSend: true,
      enabled: true,
      archive: false,
      posting: "members",
      replyTo: "sender",
    });
    await previewSendsNothing(GROUP, inputs, "address");

    const created = await plugin.create(GROUP, "g", inputs);
    expect(created.id).toMatch(/^grp_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({
      ...inputs,
      name: "team",
      subjectTag: null,
      address: `team@${domain.name}`,
    });
    const read = await plugin.read(GROUP, "g", created.id, created.properties, inputs);
    expect((await plugin.diff(GROUP, "g", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(GROUP, {
      ...inputs,
      localPart: "crew",
      name: "The crew",
      members: [{ address: "c@example.com", role: "manager" }],
      allowExternalSenders: true,
      membersCanSend: false,
      enabled: false,
      archive: true,
      posting: "anyone",
      replyTo: "group",
      subjectTag: "[crew]",
    });
    const d = await plugin.diff(GROUP, "g", created.id, read.properties, changed, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs).toHaveLength(10);
    const updated = await plugin.update(GROUP, "g", created.id, read.properties, changed, false, inputs);
    expect(updated).toMatchObject({ ...changed, address: `crew@${domain.name}` });
    expect((await plugin.diff(GROUP, "g", created.id, updated, changed, changed)).changes).toBe(false);
    expect(
      await plugin.diff(GROUP, "g", created.id, updated, { ...changed, domainId: "999999" }, changed),
    ).toMatchObject({ replaces: ["domainId"] });

    const imported = await importClean(GROUP, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toMatchObject({
      localPart: "crew",
      name: "The crew",
      subjectTag: "[crew]",
      posting: "anyone",
    });

    await plugin.delete(GROUP, "g", created.id, updated);
    expect((await plugin.read(GROUP, "g", created.id, updated, changed)).id).toBe("");
  });

  it("takes an alias's place with replaceAlias", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const alias = await control.post(`/mail/domains/${domain.id}/aliases`, {
      local_part: "support",
      target_mailbox_id: box.id,
    });
    const plainGroup = await checked(GROUP, { domainId: String(domain.id), localPart: "support" });
    await expect(plugin.create(GROUP, "g", plainGroup)).rejects.toThrow(/conflict.*set replace_alias/);
    const inputs = await checked(GROUP, { ...plainGroup, replaceAlias: true });
    const created = await plugin.create(GROUP, "g", inputs);
    expect(created.properties.replaceAlias).toBe(true);
    expect(await control.list(`/mail/domains/${domain.id}/aliases`)).toEqual([]);
    expect(alias.id).toEqual(expect.any(Number));
    expect((await plugin.diff(GROUP, "g", created.id, created.properties, inputs, inputs)).changes).toBe(false);
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(GROUP, { domainId: String(domain.id), localPart: "all", name: "Everyone" });
    const created = await plugin.create(GROUP, "g", inputs);
    await control.patch(`/mail/groups/${created.id}`, { local_part: "all", name: "Renamed", posting: "org" });
    const read = await plugin.read(GROUP, "g", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ name: "Renamed", posting: "org" });
    expect((await plugin.diff(GROUP, "g", created.id, read.properties, inputs, read.inputs)).diffs.sort()).toEqual([
      "name",
      "posting",
    ]);
    await control.delete(`/mail/groups/${created.id}`);
    expect((await plugin.read(GROUP, "g", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:DomainRule", () => {
  it("creates a rule, patches it in place (kind included), imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(RULE, {
      domainId,
      kind: "forward_copy",
      pattern: " CEO@* ",
      target: "Archive@Example.NET",
    });
    expect(inputs).toEqual({
      domainId,
      kind: "forward_copy",
      pattern: "ceo@*",
      target: "archive@example.net",
      enabled: true,
    });
    await previewSendsNothing(RULE, inputs, "createdAt");

    const created = await plugin.create(RULE, "r", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject(inputs);
    const read = await plugin.read(RULE, "r", created.id, created.properties, inputs);
    expect((await plugin.diff(RULE, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const disabled = await checked(RULE, { ...inputs, target: "legal@example.net", enabled: false });
    expect((await plugin.diff(RULE, "r", created.id, read.properties, disabled, inputs)).diffs.sort()).toEqual([
      "enabled",
      "target",
    ]);
    const updated = await plugin.update(RULE, "r", created.id, read.properties, disabled, false, inputs);
    expect(updated).toMatchObject({ target: "legal@example.net", enabled: false });

    // Another kind without a target: target is dropped with it.
    const reject = await checked(RULE, { domainId, kind: "reject_sender", pattern: "*@spam.example", enabled: false });
    const d = await plugin.diff(RULE, "r", created.id, updated, reject, disabled);
    expect(d).toMatchObject({ replaces: [] });
    expect(d.diffs.sort()).toEqual(["kind", "pattern", "target"]);
    const rejected = await plugin.update(RULE, "r", created.id, updated, reject, false, disabled);
    expect(rejected).toMatchObject({ kind: "reject_sender", pattern: "*@spam.example", target: null });
    expect((await plugin.diff(RULE, "r", created.id, rejected, reject, reject)).changes).toBe(false);
    expect(await plugin.diff(RULE, "r", created.id, rejected, { ...reject, domainId: "999999" }, reject)).toMatchObject(
      { replaces: ["domainId"] },
    );

    const imported = await importClean(RULE, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toEqual({ domainId, kind: "reject_sender", pattern: "*@spam.example", enabled: false });

    await plugin.delete(RULE, "r", created.id, rejected);
    expect((await plugin.read(RULE, "r", created.id, rejected, reject)).id).toBe("");
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(RULE, {
      domainId: String(domain.id),
      kind: "relay_rcpt",
      pattern: "*@legacy.example",
      target: "relay.example.net:2525",
    });
    const created = await plugin.create(RULE, "r", inputs);
    await control.patch(`/mail/domainrules/${created.id}`, { enabled: false });
    const read = await plugin.read(RULE, "r", created.id, created.properties, inputs);
    expect(read.properties.enabled).toBe(false);
    expect((await plugin.diff(RULE, "r", created.id, read.properties, inputs, read.inputs)).diffs).toEqual(["enabled"]);
    await control.delete(`/mail/domainrules/${created.id}`);
    expect((await plugin.read(RULE, "r", created.id, read.properties, inputs)).id).toBe("");
  });

  it("rejects bad input in Check", async () => {
    await expectCheckFailures(
      RULE,
      [
        [{ domainId: "1", pattern: "x" }, "kind"],
        [{ domainId: "1", kind: "drop", pattern: "x" }, "kind"],
        [{ domainId: "1", kind: "reject_sender" }, "pattern"],
        [{ domainId: "1", kind: "reject_sender", pattern: "a b" }, "pattern"],
        [{ domainId: "1", kind: "reject_sender", pattern: "x", target: "ops@example.com" }, "target"],
        [{ domainId: "1", kind: "forward_copy", pattern: "x" }, "target"],
        [{ domainId: "1", kind: "forward_copy", pattern: "x", target: "ops" }, "target"],
        [{ domainId: "1", kind: "relay_rcpt", pattern: "x" }, "target"],
        [{ domainId: "1", kind: "relay_rcpt", pattern: "x", target: "relay:99999" }, "target"],
      ],
      ["["],
    );
  });
});
