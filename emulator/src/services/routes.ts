import { paginate, pagingOnlyQuery } from "../paging";
import { route } from "../router";
import type { ServiceRow } from "../store";
import { serviceAnalyticsRoutes } from "./analytics-routes";
import { resolverServiceRoutes } from "./resolver-routes";

export function serviceView(s: ServiceRow) {
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

export const serviceRoutes = [
  route({
    method: "GET",
    path: "/services",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ store, account, query }) => paginate(store.list(store.services, account.name), query, serviceView),
  }),

  route({
    method: "GET",
    path: "/services/:id",
    scope: "read",
    handler: ({ store, account, params }) => serviceView(store.owned(store.services, params.id, account.name, "service")),
  }),

  ...resolverServiceRoutes,
  ...serviceAnalyticsRoutes,
];
