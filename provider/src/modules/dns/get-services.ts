import { z } from "zod";
import { defineFunction } from "../../framework/definition";
import { listServices, SERVICE_TYPES, serviceOf, serviceShape } from "./service";

const servicesResult = z.object({
  services: z
    .array(z.object(serviceShape).meta({ typeName: "ServiceInfo", description: "A service of the account." }))
    .meta({ description: "The services, in the API's order." }),
});

export const getServices = defineFunction({
  since: "0.1.0",
  token: "nsp:dns:getServices",
  description:
    "Lists the account's services, optionally of one type. Zones need the id of an `auth_dns` service: " +
    '`getServices({type: "auth_dns"})` finds it.',
  args: z.object({
    type: z.enum(SERVICE_TYPES).optional().meta({ description: "Only services of this type." }),
  }),
  result: servicesResult,
  async invoke(ctx, args) {
    const services = await listServices(ctx);
    const picked = args.type === undefined ? services : services.filter((s) => s.type === args.type);
    return { services: picked.map(serviceOf) };
  },
});
