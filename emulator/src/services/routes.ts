import { collection } from "../model/collection";
import type { ServiceRow } from "../model/store";
import { serviceAnalyticsRoutes } from "./analytics-routes";
import { resolverServiceRoutes } from "./resolver-routes";

function serviceView(s: ServiceRow) {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    plan: s.plan,
    plan_label: s.plan_label,
    enabled: s.enabled,
    filter_level: s.filter_level,
    note: s.note,
    limits: { ...s.limits },
    created_at: s.created_at,
  };
}

// The services themselves are listed and read only; their resolver and analytics routes follow.
export const serviceRoutes = [
  ...collection({ path: "/services", what: "service", table: (ctx) => ctx.store.services, view: serviceView }).routes,
  ...resolverServiceRoutes,
  ...serviceAnalyticsRoutes,
];
