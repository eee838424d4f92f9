// Hosted mail, as one area for the route list: servers, domains with their records, routes,
// rules and destinations, and mailboxes with their app passwords, aliases and groups.
import type { Route } from "../pipeline/route";
import { mailBoxRoutes } from "./boxes-routes";
import { mailDomainRoutes } from "./domains-routes";
import { mailServerRoutes } from "./servers-routes";

export const mailRoutes: Route[] = [...mailServerRoutes, ...mailDomainRoutes, ...mailBoxRoutes];
