import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";

const vm = z
  .object({
    id: z.string().meta({ description: "VM id (use it as `vmId` of `nsp:compute:VmPower`)." }),
    name: z.string().meta({ description: "Name of the VM." }),
    hostname: z.string().optional().meta({ description: "Host name of the VM." }),
    image: z.string().optional().meta({ description: "Image the VM runs." }),
    vcpus: z.number().int().optional().meta({ description: "Virtual CPUs." }),
    memoryMb: z.number().int().optional().meta({ description: "Memory in MiB." }),
    diskGb: z.number().int().optional().meta({ description: "Disk size in GiB." }),
    ip4: z.string().nullable().optional().meta({ description: "IPv4 address." }),
    ip6: z.string().nullable().optional().meta({ description: "IPv6 address." }),
    power: z.string().meta({ description: "Power state: `on` or `off`." }),
    reinstalledAt: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "When the VM was last reinstalled; null if never." }),
    createdAt: z.string().optional().meta({ description: "When the VM was created." }),
  })
  .meta({ typeName: "ComputeVm" });

const api = wireModel(z.object({}), vm, { id: z.number().int() });

const vmsResult = z.object({ vms: z.array(vm).meta({ description: "The account's VMs, in id order." }) });

export const getVms = defineFunction({
  since: "0.1.0",
  token: "nsp:compute:getVms",
  description: "Lists the account's virtual machines (the API cannot create them; they come with the account).",
  args: z.object({
    name: z.string().optional().meta({ description: "Only the VMs with this name." }),
  }),
  result: vmsResult,
  async invoke(ctx, args) {
    const all = await ctx.client.listAll("/vms", { itemSchema: api.wire, signal: ctx.signal });
    const vms = all.filter((v) => args.name === undefined || v.name === args.name).map((v) => api.toState(v));
    return { vms };
  },
});
