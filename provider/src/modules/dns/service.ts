import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";

/** A service as the functions return it: the API's fields in camelCase, the id as a string. */
export const serviceShape = {
  id: z.string().meta({ description: "Service id, for `serviceId` inputs." }),
  name: z.string().meta({ description: "Service name." }),
  type: z.string().meta({ description: "`resolver`, `auth_dns`, `cdn` or `vm`." }),
  plan: z.string().meta({ description: "Plan key." }),
  planLabel: z.string().nullable().optional().meta({ description: "Display name of the plan." }),
  enabled: z.boolean().meta({ description: "Whether the service is switched on." }),
  filterLevel: z.string().nullable().optional().meta({ description: "Resolver filter level." }),
  note: z.string().nullable().optional().meta({ description: "Free-form note." }),
  limits: z
    .record(z.string(), z.number().int())
    .optional()
    .meta({ description: "Plan quotas by key; 0 means unlimited." }),
  createdAt: z.string().optional().meta({ description: "When the service was created." }),
};

export const SERVICE_TYPES = ["resolver", "auth_dns", "cdn", "vm"] as const;

const api = wireModel(z.object({}), z.object(serviceShape), { id: z.number().int() });
/** A service as the API returns it: every field of serviceShape, with its integer id. */
export const serviceWire = api.wire as z.ZodType<Record<string, unknown> & { id: number; name: string; type: string }>;
/** A service as the functions return it. */
export const serviceOf = (raw: z.output<typeof serviceWire>) => api.toState(raw);
/** Every service of the account, as the API returns them. */
export const listServices = (ctx: OperationContext) =>
  ctx.client.listAll("/services", { itemSchema: serviceWire, signal: ctx.signal });
