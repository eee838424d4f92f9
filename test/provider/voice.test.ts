// nsp:voice:Number and nsp:voice:NumberEndpoint, through the built plugin binary over gRPC
// against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const NUMBER = "nsp:voice:Number";
const ENDPOINT = "nsp:voice:NumberEndpoint";
type Obj = Record<string, any>;

const provider = useProvider({ account: "voice" });
const { control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

async function pbxWithExtensions(n: number): Promise<{ pbx: string; exts: string[] }> {
  const pbx = (await control.post<Obj>("/vgate/pbx", { name: "office", template: "blank" })).id as string;
  const exts: string[] = [];
  for (let i = 0; i < n; i++) exts.push((await control.post<Obj>(`/vgate/pbx/${pbx}/extensions`, {})).id);
  return { pbx, exts };
}

describe("nsp:voice:Number", () => {
  it("claims a number with settings in two calls, patches, imports, and releases it", async () => {
    const inputs = await checked(NUMBER, { label: " main line ", sipIn: true, dest: "ivr:main" });
    expect(inputs).toEqual({ label: "main line", sipIn: true, dest: "ivr:main" });
    await previewSendsNothing(NUMBER, inputs, "number");

    const created = await plugin.create(NUMBER, "n", inputs);
    expect(created.id).toMatch(/^\+3120555\d{4}$/);
    expect(created.properties).toMatchObject({
      number: created.id,
      label: "main line",
      sipIn: true,
      dest: "ivr:main",
      noanswer: null,
    });

    const read = await plugin.read(NUMBER, "n", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(NUMBER, "n", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(NUMBER, { label: "support", sipIn: false, noanswer: "voicemail:100" });
    const updated = await updatesInPlace(NUMBER, "n", created.id, read.properties, changed, inputs, [
      "dest",
      "label",
      "noanswer",
      "sipIn",
    ]);
    expect(updated).toMatchObject({ label: "support", sipIn: false, dest: null, noanswer: "voicemail:100" });

    const imported = await importClean(NUMBER, created.id);
    expect(imported.inputs).toEqual({ label: "support", noanswer: "voicemail:100" });
    await expect(plugin.read(NUMBER, "imp", "0205550001")).rejects.toThrow(/not a voice number/);

    await plugin.delete(NUMBER, "n", created.id, updated);
    expect((await plugin.read(NUMBER, "n", created.id, updated, changed)).id).toBe("");
  });
});

describe("nsp:voice:NumberEndpoint", () => {
  it("rings an extension, replaces (deleting first when the extension stays), imports, and removes it", async () => {
    const { pbx, exts } = await pbxWithExtensions(2);
    const a = (await control.post<Obj>("/voice/numbers", { label: "ep-a" })).number as string;
    const b = (await control.post<Obj>("/voice/numbers", {})).number as string;
    const inputs = await checked(ENDPOINT, { number: ` ${a} `, pbxId: pbx, ext: exts[0] });
    expect(inputs).toEqual({ number: a, pbxId: pbx, ext: exts[0] });
    await previewSendsNothing(ENDPOINT, inputs, "numberLabel");

    const created = await plugin.create(ENDPOINT, "e", inputs);
    expect(created.id).toBe(`${a}/${pbx}/${exts[0]}`);
    expect(created.properties).toMatchObject({ ...inputs, numberLabel: "ep-a" });
    const read = await plugin.read(ENDPOINT, "e", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(ENDPOINT, "e", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    // Another number for the same extension: the old endpoint must go first.
    const moved = await checked(ENDPOINT, { ...inputs, number: b });
    expect(await plugin.diff(ENDPOINT, "e", created.id, read.properties, moved, inputs)).toMatchObject({
      changes: true,
      replaces: ["number"],
      deleteBeforeReplace: true,
    });
    const otherExt = await checked(ENDPOINT, { ...inputs, ext: exts[1] });
    expect(await plugin.diff(ENDPOINT, "e", created.id, read.properties, otherExt, inputs)).toMatchObject({
      changes: true,
      replaces: ["ext"],
      deleteBeforeReplace: false,
    });

    await importClean(ENDPOINT, created.id);
    await expect(plugin.read(ENDPOINT, "imp", `${a}/${pbx}`)).rejects.toThrow(/<number>\/<pbxId>\/<extensionId>/);

    // The API refuses a second number for the same extension, and says which number has it.
    await expect(plugin.create(ENDPOINT, "e2", moved)).rejects.toThrow(
      new RegExp(`conflict.*${a.replace("+", "\\+")}`),
    );

    await plugin.delete(ENDPOINT, "e", created.id, read.properties);
    expect((await plugin.read(ENDPOINT, "e", created.id, read.properties, inputs)).id).toBe("");
  });

  it("is gone with its number", async () => {
    const { pbx, exts } = await pbxWithExtensions(1);
    const n = (await control.post<Obj>("/voice/numbers", {})).number as string;
    const inputs = await checked(ENDPOINT, { number: n, pbxId: pbx, ext: exts[0] });
    const created = await plugin.create(ENDPOINT, "e", inputs);
    await control.delete(`/voice/numbers/${encodeURIComponent(n)}`);
    expect((await plugin.read(ENDPOINT, "e", created.id, created.properties, inputs)).id).toBe("");
  });
});

lifecycle(provider, [
  {
    type: NUMBER,
    create: { label: "drift" },
    update: { label: "walked" },
    skip: { replace: "every input changes in place" },
    apiPath: (_inputs, id) => `/voice/numbers/${encodeURIComponent(id)}`,
    drift: { body: { label: "edited" }, inputs: { label: "edited" } },
    bad: [
      [{ label: "x".repeat(101) }, "label"],
      [{ sipIn: "yes" }, "sipIn"],
      [{ dest: "" }, "dest"],
      [{ noanswer: "x".repeat(201) }, "noanswer"],
    ],
  },
  {
    type: ENDPOINT,
    create: async () => {
      const { pbx, exts } = await pbxWithExtensions(1);
      return { number: (await control.post<Obj>("/voice/numbers", {})).number, pbxId: pbx, ext: exts[0] };
    },
    unknownOutput: "numberLabel",
    replace: { ext: "ext_other" },
    apiPath: (inputs) => `/voice/numbers/${encodeURIComponent(inputs.number)}/endpoints/${inputs.pbxId}/${inputs.ext}`,
    exists: async (inputs) =>
      ((await control.get<Obj>(`/voice/numbers/${encodeURIComponent(inputs.number)}`)).endpoints as Obj[]).some(
        (e) => e.pbx_id === inputs.pbxId && e.ext === inputs.ext,
      ),
    bad: [
      [{ number: "0301234", pbxId: "pbx_1", ext: "ext_1" }, "number"],
      [{ number: "+31205550001", pbxId: "a/b", ext: "ext_1" }, "pbxId"],
      [{ number: "+31205550001", pbxId: "pbx_1" }, "ext"],
    ],
    skip: { update: "every input replaces an endpoint", "drift edit": "the API has no edit of an endpoint" },
  },
]);
