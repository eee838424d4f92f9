// The registry module (nsp:registry:*): links to a regional internet registry and their domains.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { domain } from "./domain";
import { getRegistryResources } from "./get-registry-resources";
import { getRpkiPlan } from "./get-rpki-plan";
import { link } from "./link";

export const resources: readonly AnyResource[] = [link, domain];
export const functions: readonly AnyFunction[] = [getRegistryResources, getRpkiPlan];
