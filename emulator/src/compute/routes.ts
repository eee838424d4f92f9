// Compute VMs: listed and read, powered on/off/restarted, reinstalled from their image (the new
// root password is in that one answer only). There is no create, patch or delete.
import { z } from "zod";
import { ApiError } from "../errors";
import { computeFor, newRootPassword, vmView } from "./state";
import { paginate, pagingOnlyQuery } from "../paging";
import { route } from "../router";

const powerBody = z.strictObject({ state: z.enum(["on", "off", "restart"]) });

export const vmRoutes = [
  route({
    method: "GET",
    path: "/vms",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(ctx.store.list(computeFor(ctx).vms, ctx.account.name), ctx.query, vmView),
  }),

  route({
    method: "GET",
    path: "/vms/:id",
    scope: "read",
    handler: (ctx) => vmView(ctx.store.owned(computeFor(ctx).vms, ctx.params.id, ctx.account.name, "vm")),
  }),

  route({
    method: "POST",
    path: "/vms/:id/power",
    scope: "write",
    body: powerBody,
    handler: (ctx) => {
      const vm = ctx.store.owned(computeFor(ctx).vms, ctx.params.id, ctx.account.name, "vm");
      const wanted = ctx.body.state;
      if (wanted === "restart") {
        if (vm.power !== "on") throw new ApiError("conflict", `vm ${vm.id} (${vm.name}) is off; power it on instead of restarting it`);
        vm.power_changed_at = ctx.store.timestamp();
      } else if (vm.power !== wanted) {
        vm.power = wanted;
        vm.power_changed_at = ctx.store.timestamp();
      }
      return vmView(vm);
    },
  }),

  route({
    method: "POST",
    path: "/vms/:id/reinstall",
    scope: "write",
    handler: (ctx) => {
      const vm = ctx.store.owned(computeFor(ctx).vms, ctx.params.id, ctx.account.name, "vm");
      const now = ctx.store.timestamp();
      vm.reinstalled_at = now;
      // A reinstall boots the fresh system.
      vm.power = "on";
      vm.power_changed_at = now;
      return { ...vmView(vm), root_password: newRootPassword() };
    },
  }),
];
