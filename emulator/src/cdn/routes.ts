// The edge proxy: sites with their origins, certificates and settings, and their traffic views.
import type { Route } from "../pipeline/route";
import { cdnSiteRoutes } from "./sites-routes";
import { cdnTrafficRoutes } from "./traffic-routes";

export const cdnRoutes: Route[] = [...cdnSiteRoutes, ...cdnTrafficRoutes];
