// The registry-link area's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getRegistryResources } from "../../functions/registry/get-registry-resources";
import { getRpkiPlan } from "../../functions/registry/get-rpki-plan";
import { domain } from "./domain";
import { link } from "./link";

export const registryResources: readonly AnyResource[] = [link, domain];
export const registryFunctions: readonly AnyFunction[] = [getRegistryResources, getRpkiPlan];
