// The compute area's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getVms } from "../../functions/compute/get-vms";
import { vmPower } from "./vm-power";

export const computeResources: readonly AnyResource[] = [vmPower];
export const computeFunctions: readonly AnyFunction[] = [getVms];
