// nsp:compute:VmPower and nsp:compute:getVms, through the built plugin binary over gRPC against
// a live emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { removeVm } from "../../emulator/src/compute/state";
import { isSecret, plain } from "../helpers/plugin";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const VM = "nsp:compute:VmPower";
type Obj = Record<string, any>;

const provider = useProvider({ account: "compute" });
const { emulator, control, plugin, checked } = provider;
let vms: Obj[];

beforeAll(async () => {
  vms = await control.list("/vms");
});

lifecycle(provider, [
  {
    type: VM,
    create: async () => ({ vmId: String(vms[1]!.id), power: "on" }),
    unknownOutput: "hostname",
    update: { power: "off" },
    replace: { vmId: "999999" },
    apiPath: (_inputs, id) => `/vms/${id}`,
    bad: [
      [{ power: "on" }, "vmId"],
      [{ vmId: "abc", power: "on" }, "vmId"],
      [{ vmId: "1" }, "power"],
      [{ vmId: "1", power: "restart" }, "power"],
      [{ vmId: "1", power: "on", reinstallTrigger: true }, "reinstallTrigger"],
    ],
    skip: {
      drift:
        "the power is changed through POST /vms/{id}/power and a VM goes only through the emulator's store: " +
        "in the test of its own below",
      delete: "the VM is made by the API and stays; the resource manages only its power",
    },
  },
]);

describe("nsp:compute:VmPower", () => {
  it("reinstalls on its trigger with a one-time root password kept as a secret, and leaves the VM on delete", async () => {
    const web = vms[0]!;
    const on = await checked(VM, { vmId: String(web.id), power: "on" });
    const inputs = await checked(VM, { vmId: String(web.id), power: "off" });
    const created = await plugin.create(VM, "v", on);
    const poweredOn = created.properties;
    expect(plain(poweredOn.rootPassword)).toBeNull();

    // The trigger reinstalls; the new root password is a secret, and the wanted power state is applied after it.
    const reinstall = await checked(VM, { ...inputs, reinstallTrigger: "r1" });
    expect(await plugin.diff(VM, "v", created.id, poweredOn, reinstall, on)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const reinstalled = await plugin.update(VM, "v", created.id, poweredOn, reinstall, false, on);
    expect(isSecret(reinstalled.rootPassword)).toBe(true);
    const password = plain(reinstalled.rootPassword) as string;
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(reinstalled).toMatchObject({ power: "off", reinstallTrigger: "r1" });
    expect(reinstalled.reinstalledAt).toEqual(expect.any(String));
    expect((await control.get<Obj>(`/vms/${web.id}`)).power).toBe("off");

    // A refresh keeps the password, still a secret; the API never shows it again.
    const refreshed = await plugin.read(VM, "v", created.id, reinstalled, reinstall);
    expect(isSecret(refreshed.properties.rootPassword)).toBe(true);
    expect(plain(refreshed.properties.rootPassword)).toBe(password);
    expect(refreshed.inputs).toEqual(reinstall);
    expect((await plugin.diff(VM, "v", created.id, refreshed.properties, reinstall, reinstall)).changes).toBe(false);
    // Another change of the trigger: another password.
    const again = await plugin.update(
      VM,
      "v",
      created.id,
      refreshed.properties,
      { ...reinstall, reinstallTrigger: 2 },
      false,
      reinstall,
    );
    expect(plain(again.rootPassword)).not.toBe(password);

    const imported = await plugin.read(VM, "imp", String(web.id));
    expect(plain(imported.properties.rootPassword)).toBeNull();
    await expect(plugin.read(VM, "imp", "web-1")).rejects.toThrow(/not a VM id/);

    // Delete: nothing is sent, the VM stays as it is.
    await control.resetStats();
    await plugin.delete(VM, "v", created.id, again);
    expect((await control.stats()).total).toBe(0);
    expect((await control.get<Obj>(`/vms/${web.id}`)).power).toBe("off");
    expect(plugin.engineLogs.some((l) => /left as it is/.test(l))).toBe(true);
  });

  it("sees a power change made through the API, and a VM that is gone", async () => {
    const db = vms[1]!;
    const inputs = await checked(VM, { vmId: String(db.id), power: "on" });
    const created = await plugin.create(VM, "d", inputs);
    await control.post(`/vms/${db.id}/power`, { state: "off" });
    const read = await plugin.read(VM, "d", created.id, created.properties, inputs);
    expect(read.properties.power).toBe("off");
    expect(read.inputs.power).toBe("off");
    expect(await plugin.diff(VM, "d", created.id, read.properties, inputs, read.inputs)).toMatchObject({
      changes: true,
      diffs: ["power"],
    });
    removeVm(emulator.app.store, db.id);
    expect((await plugin.read(VM, "d", created.id, read.properties, inputs)).id).toBe("");
  });
});

describe("nsp:compute:getVms", () => {
  it("lists the account's VMs, optionally by name", async () => {
    const { result, failures } = await plugin.invoke("nsp:compute:getVms", {});
    expect(failures).toEqual([]);
    expect((result.vms as Obj[]).map((v) => v.name)).toContain("web-1");
    expect((result.vms as Obj[])[0]).toMatchObject({
      id: String(vms[0]!.id),
      memoryMb: 2048,
      power: expect.any(String),
    });
    const one = await plugin.invoke("nsp:compute:getVms", { name: "web-1" });
    expect((one.result.vms as Obj[]).map((v) => v.name)).toEqual(["web-1"]);
  });
});
