// The org module (nsp:org:*): organisations, their members and apps.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { apps } from "./apps";
import { getOrgDomains } from "./get-org-domains";
import { member } from "./member";
import { organization } from "./organization";

export const resources: readonly AnyResource[] = [organization, member, apps];
export const functions: readonly AnyFunction[] = [getOrgDomains];
