// The caller's own account: who am I, usage and quotas, and the onboarding checklist.
import type { Route } from "../pipeline/route";
import { accountQuotaRoutes } from "./account-routes";
import { meRoutes } from "./me-routes";
import { onboardRoutes } from "./onboard-routes";

export const accountRoutes: Route[] = [...meRoutes, ...accountQuotaRoutes, ...onboardRoutes];
