import { z } from "zod";

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
  limits: z.record(z.string(), z.number().int()).optional().meta({ description: "Plan quotas by key; 0 means unlimited." }),
  createdAt: z.string().optional().meta({ description: "When the service was created." }),
};

export const SERVICE_TYPES = ["resolver", "auth_dns", "cdn", "vm"] as const;

export const serviceWire = z.looseObject({ id: z.number().int(), name: z.string(), type: z.string() });
