// nsp:meet:Settings, through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const SETTINGS = "nsp:meet:Settings";
type Obj = Record<string, any>;

const provider = useProvider({ account: "meet" });
const { control, plugin, checked, previewSendsNothing, importClean, updatesInPlace } = provider;

describe("nsp:meet:Settings", () => {
  it("patches the settings the program sets, leaves the others, imports, and leaves them on delete", async () => {
    const inputs = await checked(SETTINGS, {
      waitingRoom: true,
      sharePolicy: "host_only",
      city: "AMS",
      retention: { days: 14 },
    });
    expect(inputs).toEqual({ waitingRoom: true, sharePolicy: "host_only", city: "ams", retention: { days: 14 } });
    await previewSendsNothing(SETTINGS, inputs, "cities");

    const created = await plugin.create(SETTINGS, "s", inputs);
    expect(created.id).toBe("meet-settings");
    expect(created.properties).toMatchObject({ ...inputs, chat: true, recordPolicy: "host" });
    expect((created.properties.cities as Obj[]).map((c) => c.id)).toEqual(["fra", "ams", "iad"]);

    const read = await plugin.read(SETTINGS, "s", created.id, created.properties, inputs);
    expect(read.inputs).toEqual(inputs);
    expect((await plugin.diff(SETTINGS, "s", created.id, read.properties, inputs, inputs)).changes).toBe(false);

    const changed = await checked(SETTINGS, { ...inputs, chat: false, retention: { days: 60 } });
    const updated = await updatesInPlace(SETTINGS, "s", created.id, read.properties, changed, inputs, [
      "chat",
      "retention",
    ]);
    expect(updated).toMatchObject({ chat: false, retention: { days: 60 }, waitingRoom: true });

    const imported = await importClean(SETTINGS, "meet-settings");
    expect(imported.inputs).toMatchObject({ chat: false, waitingRoom: true, sharePolicy: "host_only", city: "ams" });
    await expect(plugin.read(SETTINGS, "imp", "settings/1")).rejects.toThrow(
      /is not a meeting settings object id; .* is known by its id \(meet-settings\)/,
    );

    // No delete endpoint: the settings stay, and the engine is told so.
    await control.resetStats();
    const logsBefore = plugin.engineLogs.length;
    await plugin.delete(SETTINGS, "s", created.id, updated);
    expect((await control.stats()).mutating).toBe(0);
    expect(plugin.engineLogs.slice(logsBefore).join("\n")).toMatch(/cannot be deleted/);
    expect((await control.get<Obj>("/meet/settings")).chat).toBe(false);
  });
});

// After the walk: the row changes what the walk leaves.
lifecycle(provider, [
  {
    type: SETTINGS,
    create: { waitingRoom: true, sharePolicy: "host_only", city: "AMS", retention: { days: 14 }, muteOnEntry: true },
    unknownOutput: "cities",
    update: { chat: true, retention: { days: 60 } },
    apiPath: () => "/meet/settings",
    importId: () => "meet-settings",
    drift: { body: { mute_on_entry: false, reactions: false }, inputs: { muteOnEntry: false } },
    bad: [
      [{ sharePolicy: "all" }, "sharePolicy"],
      [{ recordPolicy: "always" }, "recordPolicy"],
      [{ phoneLang: "de" }, "phoneLang"],
      [{ city: "frankfurt" }, "city"],
      [{ retention: { days: 0 } }, "retention.days"],
      [{ waitingRoom: false, waitingRoomAll: true }, "waitingRoomAll"],
      [{ chat: "on" }, "chat"],
    ],
    skip: {
      replace: "every setting changes in place",
      delete: "the API cannot delete the settings: the delete leaves them (checked below)",
      "drift delete": "the API cannot delete the settings",
    },
  },
]);
