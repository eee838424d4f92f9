// The messaging gateway: numbers and providers, US 10DLC brands and campaigns, and senders
// (senders-routes.ts); templates, consents and broadcasts (content-routes.ts); sends, opt-outs,
// scheduled messages and verifications (messaging-routes.ts).
import type { Route } from "../pipeline/route";
import { sgateContentRoutes } from "./content-routes";
import { sgateMessagingRoutes } from "./messaging-routes";
import { sgateSenderRoutes } from "./senders-routes";

export const sgateRoutes: Route[] = [...sgateSenderRoutes, ...sgateContentRoutes, ...sgateMessagingRoutes];
