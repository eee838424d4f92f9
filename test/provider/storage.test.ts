// nsp:storage:Destination, through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { isSecret, plain, secret } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const DEST = "nsp:storage:Destination";
type Obj = Record<string, any>;

const provider = useProvider({ account: "storage" });
const { control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

const base = { endpoint: "https://s3.example.net", bucket: "recordings", accessKey: "AKIA1" };

describe("nsp:storage:Destination", () => {
  it("binds a bucket with a write-only secret key, turns on autoMeet, rotates the key, replaces, imports, and deletes", async () => {
    const inputs = await checked(DEST, { ...base, secretKey: secret("good-1"), autoMeet: true, prefix: "meet/" });
    expect(inputs).toMatchObject({ ...base, autoMeet: true, prefix: "meet/" });
    await previewSendsNothing(DEST, inputs, "createdAt");

    const created = await plugin.create(DEST, "d", inputs);
    expect(created.id).toMatch(/^dst_[0-9a-f]{12}$/);
    expect(created.properties).toMatchObject({ ...base, name: "recordings", autoMeet: true, prefix: "meet/" });
    expect(isSecret(created.properties.secretKey)).toBe(true);
    expect(plain(created.properties.secretKey)).toBe("good-1");

    // The API never returns the key; refresh keeps it from the program, still secret.
    const read = await plugin.read(DEST, "d", created.id, created.properties, inputs);
    expect(isSecret(read.properties.secretKey)).toBe(true);
    expect(plain(read.properties.secretKey)).toBe("good-1");
    expect(read.inputs).toMatchObject({ ...base, autoMeet: true, prefix: "meet/" });
    expect((await plugin.diff(DEST, "d", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const rotated = await checked(DEST, {
      ...inputs,
      secretKey: secret("good-2"),
      name: "Recordings",
      autoMeet: false,
    });
    const updated = await updatesInPlace(DEST, "d", created.id, read.properties, rotated, inputs, [
      "autoMeet",
      "name",
      "secretKey",
    ]);
    expect(updated).toMatchObject({ name: "Recordings", autoMeet: false });
    expect(plain(updated.secretKey)).toBe("good-2");

    // A key that fails the API's test write is a clear error, and the update does not happen.
    const denied = await checked(DEST, { ...rotated, secretKey: secret("deny-3") });
    await expect(plugin.update(DEST, "d", created.id, updated, denied, false, rotated)).rejects.toThrow(
      /tested accessKey\/secretKey.*AccessDenied/,
    );

    const moved = await checked(DEST, { ...rotated, bucket: "other-bucket" });
    expect(await plugin.diff(DEST, "d", created.id, updated, moved, rotated)).toMatchObject({
      changes: true,
      replaces: ["bucket"],
    });

    const imported = await importClean(DEST, created.id);
    expect(imported.inputs).toMatchObject({ ...base, name: "Recordings", prefix: "meet/" });
    expect(imported.inputs.secretKey).toBeUndefined();
    await expect(plugin.read(DEST, "imp", "dst/1")).rejects.toThrow(/not a destination id/);

    await plugin.delete(DEST, "d", created.id, updated);
    expect((await plugin.read(DEST, "d", created.id, updated, rotated)).id).toBe("");
  });

  it("fails the create clearly when the API's key test fails, and without a secret key before any request", async () => {
    const denied = await checked(DEST, { ...base, secretKey: secret("deny-me") });
    await expect(plugin.create(DEST, "d", denied)).rejects.toThrow(
      /nsp:storage:Destination: the API tested accessKey\/secretKey .*bucket recordings.*AccessDenied/,
    );
    expect(await control.list("/storage/destinations")).toEqual([]);
    const noKey = await checked(DEST, base);
    await control.resetStats();
    await expect(plugin.create(DEST, "d", noKey)).rejects.toThrow(/secretKey is required/);
    expect((await control.stats()).total).toBe(0);
  });
});

lifecycle(provider, [
  {
    type: DEST,
    create: { ...base, secretKey: secret("good"), prefix: "a/" },
    unknownOutput: "createdAt",
    update: { name: "Recordings", autoMeet: true },
    replace: { bucket: "other-bucket" },
    writeOnly: ["secretKey"],
    apiPath: (_inputs, id) => `/storage/destinations/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/storage/destinations")).some((d) => d.id === id),
    drift: { body: { prefix: "b/", auto_meet: true }, inputs: { prefix: "b/", autoMeet: true } },
    bad: [
      [{ ...base, endpoint: "http://s3.example.net" }, "endpoint"],
      [{ ...base, endpoint: "https://user:pw@s3.example.net" }, "endpoint"],
      [{ ...base, bucket: "Bad_Bucket" }, "bucket"],
      [{ endpoint: base.endpoint, bucket: base.bucket }, "accessKey"],
      [{ ...base, secretKey: "" }, "secretKey"],
      [{ ...base, prefix: "a b" }, "prefix"],
      [{ ...base, autoMeet: "yes" }, "autoMeet"],
    ],
  },
]);
