// nsp:vod:Asset, nsp:vod:SigningKey and nsp:vod:Webhook, through the built plugin binary over
// gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { setAssetState } from "../../emulator/src/vod/state";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const ASSET = "nsp:vod:Asset";
const KEY = "nsp:vod:SigningKey";
const HOOK = "nsp:vod:Webhook";
type Obj = Record<string, any>;

const provider = useProvider({ account: "vod" });
const { emulator, control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

describe("nsp:vod:Asset", () => {
  it("creates metadata, patches and clears fields, imports, and deletes", async () => {
    const inputs = await checked(ASSET, { title: "Intro", tags: { lang: "en" } });
    expect(inputs).toEqual({ title: "Intro", tags: { lang: "en" }, visibility: "public" });
    await previewSendsNothing(ASSET, inputs, "state");

    const created = await plugin.create(ASSET, "a", inputs);
    expect(created.id).toMatch(/^vid_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...inputs, state: "uploading" });
    expect(created.properties.description).toBeUndefined();
    const read = await plugin.read(ASSET, "a", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(ASSET, "a", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(ASSET, { description: "About us", visibility: "private" });
    const updated = await updatesInPlace(ASSET, "a", created.id, read.properties, changed, inputs, [
      "description",
      "tags",
      "title",
      "visibility",
    ]);
    expect(updated).toMatchObject({ description: "About us", visibility: "private" });
    expect(updated.title).toBeUndefined();
    expect(updated.tags).toBeUndefined();
    expect(await control.get<Obj>(`/vod/assets/${created.id}`)).toMatchObject({
      title: null,
      tags: {},
      description: "About us",
    });

    setAssetState(emulator.app.store, created.id, "ready");
    const imported = await importClean(ASSET, created.id);
    expect(imported.inputs).toEqual({ description: "About us", visibility: "private" });
    expect(imported.properties.state).toBe("ready");
    await expect(plugin.read(ASSET, "imp", "vid/1")).rejects.toThrow(/not a video asset id/);

    await plugin.delete(ASSET, "a", created.id, updated);
    expect((await plugin.read(ASSET, "a", created.id, updated, changed)).id).toBe("");
  });
});

lifecycle(provider, [
  {
    type: ASSET,
    create: { title: "drift" },
    update: { title: "walked", visibility: "private" },
    skip: { replace: "every input changes in place" },
    apiPath: (_inputs, id) => `/vod/assets/${id}`,
    drift: { body: { title: "edited" }, inputs: { title: "edited" } },
    bad: [
      [{ title: "x".repeat(201) }, "title"],
      [{ visibility: "hidden" }, "visibility"],
      [{ tags: { lang: 1 } }, "tags"],
      [{ description: 5 }, "description"],
    ],
    nestedFailures: ["[", "."],
  },
  {
    type: KEY,
    create: { note: "walk" },
    unknownOutput: "secret",
    replace: { note: "other" },
    apiPath: (_inputs, id) => `/vod/keys/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/vod/keys")).some((k) => k.id === id),
    bad: [
      [{ note: "x".repeat(257) }, "note"],
      [{ note: 1 }, "note"],
    ],
    skip: { update: "every input replaces a signing key", "drift edit": "the API has no edit of a signing key" },
  },
  {
    type: HOOK,
    create: { url: "https://hooks.example.com/walk", events: ["asset.ready", "asset.failed"] },
    unknownOutput: "createdAt",
    replace: { events: ["asset.ready"] },
    apiPath: (_inputs, id) => `/vod/webhooks/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/vod/webhooks")).some((w) => String(w.id) === id),
    bad: [
      [{}, "url"],
      [{ url: "ftp://x" }, "url"],
      [{ url: "https://u:p@x" }, "url"],
      [{ url: "https://x", events: ["a", "a"] }, "events"],
      [{ url: "https://x", events: [""] }, "events"],
    ],
    nestedFailures: ["[", "."],
    skip: {
      update: "every input replaces an event endpoint",
      "drift edit": "the API has no edit of an event endpoint",
    },
  },
]);

describe("nsp:vod:SigningKey", () => {
  it("keeps the one-time secret as a secret across refreshes, replaces on a new note, imports, and deletes", async () => {
    const inputs = await checked(KEY, { note: "player" });
    await previewSendsNothing(KEY, inputs, "secret");
    const created = await plugin.create(KEY, "k", inputs);
    expect(created.id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(isSecret(created.properties.secret)).toBe(true);
    const value = plain(created.properties.secret) as string;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const read = await plugin.read(KEY, "k", created.id, created.properties, inputs);
    expect(isSecret(read.properties.secret)).toBe(true);
    expect(plain(read.properties.secret)).toBe(value);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(KEY, "k", created.id, read.properties, inputs, inputs)).changes).toBe(false);
    // And a second refresh from the refreshed state.
    const again = await plugin.read(KEY, "k", created.id, read.properties, inputs);
    expect(plain(again.properties.secret)).toBe(value);
    expect(isSecret(again.properties.secret)).toBe(true);

    expect(await plugin.diff(KEY, "k", created.id, read.properties, { note: "other" }, inputs)).toMatchObject({
      changes: true,
      replaces: ["note"],
    });

    const imported = await importClean(KEY, created.id);
    expect(imported.inputs).toEqual(inputs);
    expect(plain(imported.properties.secret)).toBeNull();
    await expect(plugin.read(KEY, "imp", "key/1")).rejects.toThrow(/not a VOD signing key id/);

    await plugin.delete(KEY, "k", created.id, read.properties);
    expect((await plugin.read(KEY, "k", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:vod:Webhook", () => {
  it("stores an endpoint, replaces on any change, imports, and deletes", async () => {
    const inputs = await checked(HOOK, { url: " https://hooks.example.com/vod ", note: "n" });
    expect(inputs).toEqual({ url: "https://hooks.example.com/vod", events: ["*"], note: "n" });
    await previewSendsNothing(HOOK, inputs, "createdAt");
    const created = await plugin.create(HOOK, "h", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ ...inputs, deliveryEnabled: false });
    const read = await plugin.read(HOOK, "h", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(HOOK, "h", created.id, read.properties, inputs, inputs)).changes).toBe(false);
    const changed = await checked(HOOK, { ...inputs, events: ["asset.ready"] });
    expect(await plugin.diff(HOOK, "h", created.id, read.properties, changed, inputs)).toMatchObject({
      changes: true,
      replaces: ["events"],
    });

    const imported = await importClean(HOOK, created.id);
    expect(imported.inputs).toEqual({ url: inputs.url, note: "n" });
    await expect(plugin.read(HOOK, "imp", "abc")).rejects.toThrow(/not a VOD event endpoint id/);

    await plugin.delete(HOOK, "h", created.id, read.properties);
    expect((await plugin.read(HOOK, "h", created.id, read.properties, inputs)).id).toBe("");
  });
});
