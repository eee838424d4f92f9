// The event names an account webhook can subscribe to.
import { route } from "../router";
import { WEBHOOK_EVENTS } from "./state";

export const webhookEventRoutes = [
  route({
    method: "GET",
    path: "/webhook-events",
    scope: "read",
    handler: () => ({ data: WEBHOOK_EVENTS.map((e) => ({ ...e })) }),
  }),
];
