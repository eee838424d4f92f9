// The security module (nsp:security:*): security rules.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { rule } from "./rule";

export const resources: readonly AnyResource[] = [rule];
export const functions: readonly AnyFunction[] = [];
