// The ix module (nsp:ix:*): internet exchange membership.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { member } from "./member";

export const resources: readonly AnyResource[] = [member];
export const functions: readonly AnyFunction[] = [];
