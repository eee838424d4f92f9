// The caller: who the token belongs to.
import { route } from "../pipeline/route";

export const meRoutes = [
  route({
    method: "GET",
    path: "/me",
    scope: "read",
    handler: ({ account }) => ({
      email: account.email,
      name: account.name,
      role: "admin",
      auth: "token",
      api_enabled: true,
    }),
  }),
];
