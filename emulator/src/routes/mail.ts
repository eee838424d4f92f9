// Hosted mail, as one area for the route list: servers, domains with their records, routes,
// rules and destinations, and mailboxes with their app passwords, aliases and groups.
import type { Route } from "../router";
import { mailBoxRoutes } from "./mail-boxes";
import { mailDomainRoutes } from "./mail-domains";
import { mailServerRoutes } from "./mail-servers";

export const mailRoutes: Route[] = [...mailServerRoutes, ...mailDomainRoutes, ...mailBoxRoutes];
