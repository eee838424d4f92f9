import { z } from "zod";
import { listOf } from "../../framework/api/shapes/read-function";
import { defineFunction } from "../../framework/definition";

const eventWire = z.looseObject({ name: z.string(), description: z.string().nullable().optional() });

const eventsResult = z.object({
  names: z.array(z.string()).meta({ description: "The event names, for `events` of `nsp:index:Webhook`." }),
  events: listOf(
    "WebhookEvent",
    "An event a webhook endpoint can subscribe to.",
    "The events with their descriptions, in the API's order.",
    {
      name: z.string().meta({ description: "Event name, such as `ping`." }),
      description: z.string().optional().meta({ description: "What emits the event." }),
    },
  ),
});

export const getWebhookEvents = defineFunction({
  since: "0.1.0",
  token: "nsp:index:getWebhookEvents",
  description: "Lists the event names a webhook endpoint (`nsp:index:Webhook`) can subscribe to.",
  args: z.object({}),
  result: eventsResult,
  async invoke(ctx) {
    const raw = await ctx.client.get("/webhook-events", {
      schema: z.looseObject({ data: z.array(eventWire) }),
      signal: ctx.signal,
    });
    const events = raw.data.map((e) =>
      e.description ? { name: e.name, description: e.description } : { name: e.name },
    );
    return { names: events.map((e) => e.name), events };
  },
});
