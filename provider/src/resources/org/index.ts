// The organisation area's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getOrgDomains } from "../../functions/org/get-org-domains";
import { apps } from "./apps";
import { member } from "./member";
import { organization } from "./organization";

export const orgResources: readonly AnyResource[] = [organization, member, apps];
export const orgFunctions: readonly AnyFunction[] = [getOrgDomains];
