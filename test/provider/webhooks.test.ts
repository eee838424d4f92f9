// nsp:index:Webhook and nsp:index:getWebhookEvents through the built plugin binary over gRPC
// against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const WEBHOOK = "nsp:index:Webhook";
type Obj = Record<string, any>;

const provider = useProvider({ account: "hooker" });
const { control, plugin, checked, previewSendsNothing, updatesInPlace } = provider;

async function clear(): Promise<void> {
  for (const w of await control.list<Obj>("/webhooks")) await control.delete(`/webhooks/${w.id}`);
}

describe("nsp:index:Webhook", () => {
  it("creates with a one-time secret kept as a secret, updates, imports and deletes", async () => {
    await clear();
    const inputs = await checked(WEBHOOK, { url: " https://Hooks.Example.com/in ", note: "ops" });
    expect(inputs).toEqual({ url: "https://hooks.example.com/in", events: ["*"], enabled: true, note: "ops" });

    await previewSendsNothing(WEBHOOK, inputs, "secret");

    const created = await plugin.create(WEBHOOK, "w", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ ...inputs, failures: 0, lastStatus: null, lastAt: null });
    expect(isSecret(created.properties.secret)).toBe(true);
    const signing = plain(created.properties.secret) as string;
    expect(signing).toMatch(/^whsec_[0-9a-f]{48}$/);

    // The API never shows the secret again; a refresh keeps it, still secret.
    const read = await plugin.read(WEBHOOK, "w", created.id, created.properties, inputs);
    expect(isSecret(read.properties.secret)).toBe(true);
    expect(plain(read.properties.secret)).toBe(signing);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(WEBHOOK, "w", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Everything patches in place; dropping the note clears it.
    const { note: _n, ...noNote } = inputs;
    const news = await checked(WEBHOOK, {
      ...noNote,
      url: "https://hooks.example.com/v2",
      events: ["ping", "sgate.broadcast.completed"],
      enabled: false,
    });
    const updated = await updatesInPlace(WEBHOOK, "w", created.id, read.properties, news, inputs, [
      "enabled",
      "events",
      "note",
      "url",
    ]);
    expect(updated).toMatchObject({
      url: "https://hooks.example.com/v2",
      events: ["ping", "sgate.broadcast.completed"],
      enabled: false,
    });
    expect(updated.note).toBeUndefined();
    expect(plain(updated.secret)).toBe(signing);
    expect(isSecret(updated.secret)).toBe(true);
    expect(await control.get(`/webhooks/${created.id}`)).toMatchObject({
      note: null,
      enabled: false,
      url: "https://hooks.example.com/v2",
    });
    const after = await plugin.read(WEBHOOK, "w", created.id, updated, news);
    expect(plain(after.properties.secret)).toBe(signing);
    expect((await plugin.diff(WEBHOOK, "w", created.id, after.properties, news, news)).changes).toBe(false);

    // Import: only the id; the secret is gone for good (null), and the inputs check and diff clean.
    const imported = await plugin.read(WEBHOOK, "imp", created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({
      url: "https://hooks.example.com/v2",
      events: ["ping", "sgate.broadcast.completed"],
      enabled: false,
    });
    expect(plain(imported.properties.secret) ?? null).toBeNull();
    const impInputs = await checked(WEBHOOK, imported.inputs);
    expect(
      (await plugin.diff(WEBHOOK, "imp", imported.id, imported.properties, impInputs, imported.inputs)).changes,
    ).toBe(false);
    await expect(plugin.read(WEBHOOK, "imp", "hooks.example.com")).rejects.toThrow(
      /is not a webhook id; a webhook is known by its numeric id \(<webhookId>/,
    );

    await plugin.delete(WEBHOOK, "w", created.id, after.properties);
    expect(await control.list("/webhooks")).toEqual([]);
    expect((await plugin.read(WEBHOOK, "w", created.id, after.properties, news)).id).toBe("");
  });

  it("creates a disabled endpoint and keeps its secret through the extra patch", async () => {
    await clear();
    const inputs = await checked(WEBHOOK, { url: "https://off.example.com/", events: ["ping"], enabled: false });
    const created = await plugin.create(WEBHOOK, "w", inputs);
    expect(created.properties.enabled).toBe(false);
    expect(isSecret(created.properties.secret)).toBe(true);
    expect(plain(created.properties.secret)).toMatch(/^whsec_/);
    expect((await control.get(`/webhooks/${created.id}`)).enabled).toBe(false);
    await plugin.delete(WEBHOOK, "w", created.id, created.properties);
  });

  it("reports the API's limit of 10 endpoints clearly", async () => {
    await clear();
    for (let i = 0; i < 10; i++) await control.post("/webhooks", { url: `https://h${i}.example.com/` });
    await expect(
      plugin.create(WEBHOOK, "w", await checked(WEBHOOK, { url: "https://h10.example.com/" })),
    ).rejects.toThrow(/at most 10 webhook endpoints/);
    await clear();
  });
});

lifecycle(provider, [
  {
    type: WEBHOOK,
    create: { url: "https://drift.example.com/" },
    unknownOutput: "secret",
    update: { enabled: false, note: "ops" },
    skip: { replace: "every input changes in place" },
    apiPath: (_inputs, id) => `/webhooks/${id}`,
    drift: {
      body: { enabled: false, url: "https://elsewhere.example.com/" },
      inputs: { enabled: false, url: "https://elsewhere.example.com/" },
    },
    bad: [
      [{}, "url"],
      [{ url: "http://hooks.example.com/" }, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "https://localhost/x" }, "url"],
      [{ url: "https://u:p@hooks.example.com/" }, "url"],
      [{ url: "https://hooks.example.com/", events: [] }, "events"],
      [{ url: "https://hooks.example.com/", events: ["*", "ping"] }, "events"],
      [{ url: "https://hooks.example.com/", events: ["ping", "ping"] }, "events"],
      [{ url: "https://hooks.example.com/", enabled: "yes" }, "enabled"],
      [{ url: "https://hooks.example.com/", note: "x".repeat(256) }, "note"],
    ],
    nestedFailures: ["["],
  },
]);

describe("nsp:index:getWebhookEvents", () => {
  it("lists the event names", async () => {
    const { result, failures } = await plugin.invoke("nsp:index:getWebhookEvents", {});
    expect(failures).toEqual([]);
    expect(result.names).toEqual([
      "ping",
      "sgate.verification.approved",
      "sgate.verification.failed",
      "sgate.verification.expired",
      "sgate.verification.canceled",
      "sgate.broadcast.completed",
    ]);
    expect((result.events as Obj[])[0]).toEqual({ name: "ping", description: expect.any(String) });
  });
});
