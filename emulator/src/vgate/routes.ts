// PBX gateway (/vgate): cities, templates, PBXs and the call-path simulator (pbx-routes.ts), the
// PBX's objects (objects-routes.ts) and its other operations (actions-routes.ts).
import type { Route } from "../pipeline/route";
import { vgateActionRoutes } from "./actions-routes";
import { vgateObjectRoutes } from "./objects-routes";
import { vgatePbxRoutes } from "./pbx-routes";

export const vgateRoutes: Route[] = [...vgatePbxRoutes, ...vgateObjectRoutes, ...vgateActionRoutes];
