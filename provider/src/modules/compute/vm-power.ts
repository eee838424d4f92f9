import { z } from "zod";
import { oneTimeSecret, rotationTrigger } from "../../framework/api/validators";
import { defineResource, type OperationContext } from "../../framework/definition";
import { deepEqual } from "../../framework/engine/diff";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";

const TOKEN = "nsp:compute:VmPower";
import { ownIdOf } from "../../framework/api/ids";

const vmPowerArgs = z.object({
  // The VM is the object itself: its id is the API's `id`.
  vmId: idRef(
    "Id of the virtual machine (see `nsp:compute:getVms`). VMs come with the account; the API cannot create or delete them.",
  ).meta({ replace: true, wire: "id" }),
  // Set through the power action, not a patch.
  power: z.enum(["on", "off"]).meta({ description: "The wanted power state: `on` or `off`." }),
  reinstallTrigger: rotationTrigger(
    "Any string or number; changing it to a new value REINSTALLS the VM from its image (its disk is " +
      "wiped) and `rootPassword` holds the new root password. Setting it when the resource is created, or " +
      "removing it, reinstalls nothing. The API never sees this value.",
  ),
});

const vmPowerState = z.object({
  name: z.string().meta({ description: "Name of the VM." }),
  hostname: z.string().meta({ description: "Host name of the VM." }),
  image: z.string().meta({ description: "The image the VM was installed from, and is reinstalled from." }),
  vcpus: z.number().int().meta({ description: "Virtual CPUs." }),
  memoryMb: z.number().int().meta({ description: "Memory in MiB." }),
  diskGb: z.number().int().meta({ description: "Disk size in GiB." }),
  ip4: z.string().meta({ description: "IPv4 address of the VM." }),
  ip6: z.string().nullable().optional().meta({ description: "IPv6 address of the VM." }),
  powerChangedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When the VM was last powered on, off, restarted or reinstalled." }),
  reinstalledAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When the VM was last reinstalled; null if never." }),
  rootPassword: oneTimeSecret(
    "Root password set by the last reinstall made through `reinstallTrigger`. The API shows it only in " +
      "the reinstall answer, so it is kept from the state on every refresh; null until this resource " +
      "reinstalls the VM (and after an import).",
  ),
  createdAt: z.string().meta({ description: "When the VM was created." }),
});

const api = wireModel(vmPowerArgs, vmPowerState);
type VmWire = Record<string, unknown> & { power: string; root_password?: string | null };
const vmWire = api.wire as z.ZodType<VmWire>;
type VmState = ReturnType<typeof api.toState>;

function toState(raw: VmWire): VmState {
  // Null, not absent, where this answer has no password: the state keeps the one last shown.
  return { ...api.toState(raw), rootPassword: raw.root_password ?? null };
}

function vmIdOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "VM", form: "<vmId>" });
}

function setPower(ctx: OperationContext, vmId: string, state: "on" | "off"): Promise<VmWire> {
  return ctx.client.post(`/vms/${vmId}/power`, { state }, { schema: vmWire, signal: ctx.signal });
}

// No shape: it adopts a VM that comes with the account and drives its power actions; nothing is created.
export const vmPower = defineResource({
  since: "0.1.0",
  notListed:
    "virtual machines are made by the API (orders), not by this provider; import `<vmId>` by hand to manage power",
  token: TOKEN,
  description:
    "The power state of an existing virtual machine, and an optional reinstall trigger. VMs come with the " +
    "account (see `nsp:compute:getVms`); this resource adopts one, powers it on or off, and reinstalls it " +
    "when `reinstallTrigger` changes, keeping the new root password (shown by the API once) as a secret. " +
    "Deleting the resource leaves the VM as it is, running or not.",
  args: vmPowerArgs,
  state: vmPowerState,
  importId: "<vmId>",

  async create(ctx, args) {
    let raw = await ctx.client.get(`/vms/${args.vmId}`, { schema: vmWire, signal: ctx.signal });
    if (raw.power !== args.power) raw = await setPower(ctx, args.vmId, args.power);
    return {
      id: args.vmId,
      state: {
        ...toState(raw),
        ...(args.reinstallTrigger !== undefined ? { reinstallTrigger: args.reinstallTrigger } : {}),
      },
    };
  },

  async read(ctx, id) {
    const vmId = vmIdOf(id);
    const raw = await ctx.client.getOrUndefined(`/vms/${vmId}`, { schema: vmWire, signal: ctx.signal });
    return raw && { id: vmId, state: toState(raw) };
  },

  async update(ctx, id, news, olds, changed) {
    const vmId = vmIdOf(id);
    let state: VmState = { ...olds, ...news };
    const reinstall =
      changed.includes("reinstallTrigger") &&
      news.reinstallTrigger !== undefined &&
      !deepEqual(news.reinstallTrigger, olds.reinstallTrigger);
    if (reinstall) {
      state = {
        ...toState(await ctx.client.post(`/vms/${vmId}/reinstall`, undefined, { schema: vmWire, signal: ctx.signal })),
        reinstallTrigger: news.reinstallTrigger,
      };
      // The password exists only in that answer: record it before anything else can fail.
      ctx.progress(vmId, state);
    }
    // A reinstall boots the VM, so the wanted state is applied after it.
    if (state.power !== news.power || changed.includes("power")) {
      const powered = toState(await setPower(ctx, vmId, news.power));
      state = { ...powered, rootPassword: state.rootPassword ?? null, reinstallTrigger: news.reinstallTrigger };
    }
    return state;
  },

  async delete(ctx, id, olds) {
    ctx.log(
      "info",
      `VM ${id} (${olds.name ?? "?"}) is left as it is (power ${olds.power ?? "unknown"}): the API cannot ` +
        `delete VMs, and removing this resource only stops managing its power state`,
    );
  },
});
