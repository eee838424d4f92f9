import { z } from "zod";
import { defineReadFunction } from "../../framework/api/shapes/read-function";
import { wireModel } from "../../framework/api/fields";

const meResult = z.object({
  email: z.string().meta({ description: "Email address of the account the token belongs to." }),
  name: z.string().meta({ description: "Account name." }),
  role: z.string().meta({ description: "`user` or `admin`." }),
  auth: z.string().meta({ description: "How the request was authenticated: `token` or `session`." }),
  apiEnabled: z.boolean().meta({ description: "Whether API access is switched on for the account." }),
});

const api = wireModel(z.object({}), meResult);

export const getMe = defineReadFunction({
  since: "0.1.0",
  token: "nsp:index:getMe",
  description: "Describes the account that the provider's API token belongs to.",
  result: meResult,
  read: (ctx) => ctx.client.get("/me", { schema: api.wire, signal: ctx.signal }),
});
