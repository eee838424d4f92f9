// Compute VMs: listed and read, powered on/off/restarted, reinstalled from their image (the new
// root password is in that one answer only). There is no create, patch or delete.
import { z } from "zod";
import { type AccountEnv, collection } from "../model/collection";
import { ApiError } from "../pipeline/errors";
import { computeFor, newRootPassword, vmView } from "./state";

const powerBody = z.strictObject({ state: z.enum(["on", "off", "restart"]) });

const vms = collection({
  path: "/vms",
  what: "vm",
  // Every request reaches the table through computeFor, which seeds the caller's machines first.
  table: (env) => computeFor(env as AccountEnv).vms,
  view: vmView,
});

export const vmRoutes = [
  ...vms.routes,

  vms.member(
    "POST",
    "power",
    (vm, ctx) => {
      const wanted = ctx.body.state;
      if (wanted === "restart") {
        if (vm.power !== "on")
          throw new ApiError("conflict", `vm ${vm.id} (${vm.name}) is off; power it on instead of restarting it`);
        vm.power_changed_at = ctx.store.timestamp();
      } else if (vm.power !== wanted) {
        vm.power = wanted;
        vm.power_changed_at = ctx.store.timestamp();
      }
      return vmView(vm);
    },
    { body: powerBody },
  ),

  vms.member("POST", "reinstall", (vm, ctx) => {
    const now = ctx.store.timestamp();
    vm.reinstalled_at = now;
    // A reinstall boots the fresh system.
    vm.power = "on";
    vm.power_changed_at = now;
    return { ...vmView(vm), root_password: newRootPassword() };
  }),
];
