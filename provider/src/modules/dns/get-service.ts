import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { numericId } from "../../framework/api/wire";
import { listServices, serviceOf, serviceShape, serviceWire } from "./service";

const serviceResult = z.object(serviceShape);

export const getService = defineFunction({
  since: "0.1.0",
  token: "nsp:dns:getService",
  description:
    "Looks up one service of the account by id or by name, for example the `auth_dns` service that zones belong to.",
  args: z.object({
    id: numericId("must be a numeric service id").optional().meta({ description: "Service id." }),
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .optional()
      .meta({ description: "Service name, matched exactly." }),
  }),
  result: serviceResult,
  check(args) {
    if ((args.name === undefined) === (args.id === undefined))
      return [{ property: "name", reason: "give exactly one of name or id" }];
    return [];
  },
  async invoke(ctx, args) {
    if (args.id !== undefined) {
      return serviceOf(await ctx.client.get(`/services/${args.id}`, { schema: serviceWire, signal: ctx.signal }));
    }
    const services = await listServices(ctx);
    const matches = services.filter((s) => s.name === args.name);
    if (matches.length === 0) {
      throw new Error(
        `nsp:dns:getService: no service named "${args.name}" in this account; its services are ${services.map((s) => `"${s.name}" (${s.type}, id ${s.id})`).join(", ") || "none"}`,
      );
    }
    if (matches.length > 1)
      throw new Error(
        `nsp:dns:getService: ${matches.length} services are named "${args.name}" (ids ${matches.map((s) => s.id).join(", ")}); look one up by id`,
      );
    return serviceOf(matches[0]!);
  },
});
