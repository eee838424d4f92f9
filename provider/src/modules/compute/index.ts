// The compute module (nsp:compute:*): virtual machines.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getVms } from "./get-vms";
import { vmPower } from "./vm-power";

export const resources: readonly AnyResource[] = [vmPower];
export const functions: readonly AnyFunction[] = [getVms];
