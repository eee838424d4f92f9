// The storage module (nsp:storage:*): storage destinations.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { destination } from "./destination";

export const resources: readonly AnyResource[] = [destination];
export const functions: readonly AnyFunction[] = [];
