// nsp:mail:Mailbox and nsp:mail:AppPassword, through the built plugin binary over gRPC against a
// live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useMailProvider } from "../helpers/mail-parents";

const MAILBOX = "nsp:mail:Mailbox";
const APP = "nsp:mail:AppPassword";

type Obj = Record<string, any>;

const provider = useMailProvider();
const { control, plugin, anotherPlugin, checked, previewSendsNothing, importClean, apiDomain, apiMailbox } = provider;

/** The domain the AppPassword row made, for its `exists`. */
let appDomain = "";

lifecycle(provider, [
  {
    type: MAILBOX,
    create: async () => ({ domainId: String((await apiDomain()).id), local: "walk", display: "Walk" }),
    unknownOutput: "address",
    update: { display: "Walked", state: "disabled" },
    replace: { local: "walk-other" },
    importId: (inputs, id) => `${inputs.domainId}/${id}`,
    apiPath: (_inputs, id) => `/mail/mailboxes/${id}`,
    exists: async (inputs, id) =>
      (await control.list<Obj>(`/mail/domains/${inputs.domainId}/mailboxes`)).some((b) => b.id === id),
    drift: { body: { display: "Someone else" }, inputs: { display: "Someone else" } },
    bad: [
      [{ local: "x" }, "domainId"],
      [{ domainId: "abc", local: "x" }, "domainId"],
      [{ domainId: "1" }, "local"],
      [{ domainId: "1", local: ".x" }, "local"],
      [{ domainId: "1", local: "a..b" }, "local"],
      [{ domainId: "1", local: "x", quotaBytes: 10 }, "quotaBytes"],
      [{ domainId: "1", local: "x", state: "frozen" }, "state"],
      [{ domainId: "1", local: "x", userEmail: "nobody" }, "userEmail"],
      [{ domainId: "1", local: "x", sendLimitHour: -1 }, "sendLimitHour"],
      [{ domainId: "1", local: "x", sharedWith: ["a@example.com", "A@example.com"] }, "sharedWith"],
      [{ domainId: "1", local: "x", display: "d".repeat(129) }, "display"],
    ],
    nestedFailures: ["["],
  },
  {
    type: APP,
    create: async () => {
      appDomain = String((await apiDomain()).id);
      return { mailboxId: (await apiMailbox(Number(appDomain))).id, label: "phone" };
    },
    unknownOutput: "password",
    replace: { label: "laptop" },
    importId: (inputs, id) => `${inputs.mailboxId}/${id}`,
    apiPath: (_inputs, id) => `/mail/apppasswords/${id}`,
    exists: async (_inputs, id) =>
      (await control.list<Obj>(`/mail/domains/${appDomain}/mailboxes`)).some((b) =>
        b.app_passwords.some((a: Obj) => a.id === id),
      ),
    bad: [
      [{}, "mailboxId"],
      [{ mailboxId: "mbx/1" }, "mailboxId"],
      [{ mailboxId: "" }, "mailboxId"],
      [{ mailboxId: "mbx_1", label: "l".repeat(65) }, "label"],
      [{ mailboxId: "mbx_1", password: "x" }, "password"],
    ],
    nestedFailures: ["["],
    skip: {
      update: "every input replaces it: the API issues an app password once and has no edit of it",
      "drift edit": "the API has no edit of an app password",
    },
  },
]);

describe("nsp:mail:Mailbox", () => {
  it("creates, patches every setting, replaces on a new local part, imports, and deletes", async () => {
    const domain = await apiDomain();
    const domainId = String(domain.id);
    const inputs = await checked(MAILBOX, { domainId, local: " Alice ", display: "Alice" });
    expect(inputs).toEqual({
      domainId,
      local: "alice",
      display: "Alice",
      state: "active",
      sharedWith: [],
      collab: false,
    });
    await previewSendsNothing(MAILBOX, inputs, "address");

    const created = await plugin.create(MAILBOX, "m", inputs);
    expect(created.id).toMatch(/^mbx_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({
      ...inputs,
      address: `alice@${domain.name}`,
      quotaBytes: 5 * 1024 ** 3,
      sendLimitHour: 200,
      userEmail: null,
      usedBytes: 0,
    });
    const read = await plugin.read(MAILBOX, "m", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect((await plugin.diff(MAILBOX, "m", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const settings = await checked(MAILBOX, {
      ...inputs,
      display: "Alice Smith",
      quotaBytes: 1024 ** 3,
      state: "disabled",
      userEmail: "Alice@Corp.Example",
      sendLimitHour: 50,
      sharedWith: ["bob@corp.example"],
      collab: true,
    });
    const d = await plugin.diff(MAILBOX, "m", created.id, read.properties, settings, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.diffs.sort()).toEqual([
      "collab",
      "display",
      "quotaBytes",
      "sendLimitHour",
      "sharedWith",
      "state",
      "userEmail",
    ]);
    const updated = await plugin.update(MAILBOX, "m", created.id, read.properties, settings, false, inputs);
    expect(updated).toMatchObject({
      display: "Alice Smith",
      quotaBytes: 1024 ** 3,
      state: "disabled",
      userEmail: "alice@corp.example",
      sendLimitHour: 50,
      sharedWith: ["bob@corp.example"],
      collab: true,
    });
    const apiBox = (await control.list<Obj>(`/mail/domains/${domainId}/mailboxes`))[0]!;
    expect(apiBox).toMatchObject({ state: "disabled", send_limit_hour: 50, collab: true });

    // Back to active, display and userEmail dropped (cleared).
    const { display: _d, userEmail: _u, ...lean } = settings;
    const back = await plugin.update(MAILBOX, "m", created.id, updated, { ...lean, state: "active" }, false, settings);
    expect(back).toMatchObject({ display: null, userEmail: null, state: "active" });

    const replaced = await plugin.diff(MAILBOX, "m", created.id, back, { ...lean, local: "alicia" }, lean);
    expect(replaced).toMatchObject({ changes: true, replaces: ["local"] });

    const imported = await importClean(MAILBOX, `${domainId}/${created.id}`, created.id);
    expect(imported.inputs).toMatchObject({
      domainId,
      local: "alice",
      quotaBytes: 1024 ** 3,
      sendLimitHour: 50,
      sharedWith: ["bob@corp.example"],
      collab: true,
    });
    // The id `pulumi stack --show-ids` shows imports too: the one domain holding it is found.
    expect((await importClean(MAILBOX, created.id, created.id)).inputs).toEqual(imported.inputs);
    expect((await plugin.read(MAILBOX, "imp", "mbx_000000000000")).id).toBe("");

    await plugin.delete(MAILBOX, "m", created.id, back);
    expect((await plugin.read(MAILBOX, "m", created.id, back, lean)).id).toBe("");
  });

  it("creates a mailbox with non-default settings", async () => {
    const domain = await apiDomain();
    const inputs = await checked(MAILBOX, {
      domainId: String(domain.id),
      local: "bob",
      state: "disabled",
      collab: true,
      sharedWith: ["x@example.com"],
      sendLimitHour: 10,
    });
    const created = await plugin.create(MAILBOX, "m", inputs);
    expect(created.properties).toMatchObject({
      state: "disabled",
      collab: true,
      sharedWith: ["x@example.com"],
      sendLimitHour: 10,
    });
    expect((await plugin.diff(MAILBOX, "m", created.id, created.properties, inputs, inputs)).changes).toBe(false);
  });

  it("sees changes and deletes made through the API", async () => {
    const domain = await apiDomain();
    const inputs = await checked(MAILBOX, { domainId: String(domain.id), local: "carol", display: "Carol" });
    const created = await plugin.create(MAILBOX, "m", inputs);
    await control.patch(`/mail/mailboxes/${created.id}`, { display: "Someone else", state: "disabled" });
    const read = await plugin.read(MAILBOX, "m", created.id, created.properties, inputs);
    expect(read.properties).toMatchObject({ display: "Someone else", state: "disabled" });
    expect((await plugin.diff(MAILBOX, "m", created.id, read.properties, inputs, read.inputs)).diffs.sort()).toEqual([
      "display",
      "state",
    ]);
    await control.delete(`/mail/mailboxes/${created.id}`);
    expect((await plugin.read(MAILBOX, "m", created.id, read.properties, inputs)).id).toBe("");

    const again = await plugin.create(MAILBOX, "m2", inputs);
    await control.delete(`/mail/domains/${domain.id}`);
    expect((await plugin.read(MAILBOX, "m2", again.id, again.properties, inputs)).id).toBe("");
  });
});

describe("nsp:mail:AppPassword", () => {
  it("keeps the one-time password as a secret through refreshes, replaces on a new label, imports, and deletes", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id, "dave");
    const inputs = await checked(APP, { mailboxId: box.id, label: "phone" });
    expect(inputs).toEqual({ mailboxId: box.id, label: "phone" });
    await previewSendsNothing(APP, inputs, "password");

    const created = await plugin.create(APP, "a", inputs);
    expect(created.id).toMatch(/^app_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, domainId: String(domain.id) });
    expect(isSecret(created.properties.password)).toBe(true);
    const password = plain(created.properties.password) as string;
    expect(password).toMatch(/^[a-z]{4}(-[a-z]{4}){4}$/);

    const read = await plugin.read(APP, "a", created.id, created.properties, inputs);
    expect(isSecret(read.properties.password)).toBe(true);
    expect(plain(read.properties.password)).toBe(password);
    expect(read.inputs).toEqual(inputs);
    const again = await plugin.read(APP, "a", created.id, read.properties, read.inputs);
    expect(plain(again.properties.password)).toBe(password);
    expect((await plugin.diff(APP, "a", created.id, again.properties, inputs, inputs)).changes).toBe(false);

    expect(
      await plugin.diff(APP, "a", created.id, again.properties, { ...inputs, label: "laptop" }, inputs),
    ).toMatchObject({ changes: true, replaces: ["label"] });
    expect(
      await plugin.diff(
        APP,
        "a",
        created.id,
        again.properties,
        { mailboxId: "mbx_000000000000", label: "phone" },
        inputs,
      ),
    ).toMatchObject({ replaces: ["mailboxId"] });

    const imported = await importClean(APP, `${box.id}/${created.id}`, created.id);
    expect(imported.inputs).toEqual(inputs);
    expect(plain(imported.properties.password)).toBeNull();
    expect(imported.properties.domainId).toBe(String(domain.id));
    await expect(plugin.read(APP, "imp", created.id)).rejects.toThrow(
      /is known by its id \(<mailboxId>\/<appPasswordId>/,
    );

    await plugin.delete(APP, "a", created.id, again.properties);
    expect((await control.list<Obj>(`/mail/domains/${domain.id}/mailboxes`))[0]!.app_passwords).toEqual([]);
    expect((await plugin.read(APP, "a", created.id, again.properties, inputs)).id).toBe("");
  });

  it("sees the password deleted through the API, and with its mailbox", async () => {
    const domain = await apiDomain();
    const box = await apiMailbox(domain.id);
    const inputs = await checked(APP, { mailboxId: box.id });
    const a = await plugin.create(APP, "a", inputs);
    expect(a.properties).not.toHaveProperty("label");
    await control.delete(`/mail/apppasswords/${a.id}`);
    expect((await plugin.read(APP, "a", a.id, a.properties, inputs)).id).toBe("");
    const b = await plugin.create(APP, "b", inputs);
    await control.delete(`/mail/mailboxes/${box.id}`);
    expect((await plugin.read(APP, "b", b.id, b.properties, inputs)).id).toBe("");
  });
});

describe("batched reads", () => {
  it("refreshes the mailboxes of a domain from one list", async () => {
    const domain = await apiDomain();
    const boxes: { inputs: Obj; id: string; properties: Obj }[] = [];
    for (let i = 0; i < 12; i++) {
      const inputs = await checked(MAILBOX, { domainId: String(domain.id), local: `batch${i}` });
      boxes.push({ inputs, ...(await plugin.create(MAILBOX, `b${i}`, inputs)) });
    }
    const batched = await anotherPlugin();
    await control.resetStats();
    const reads = await Promise.all(boxes.map((b, i) => batched.read(MAILBOX, `b${i}`, b.id, b.properties, b.inputs)));
    reads.forEach((r, i) => {
      expect(r.id).toBe(boxes[i]!.id);
    });
    expect((await control.stats()).total).toBe(1);
  });
});
