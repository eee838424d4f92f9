// The partner module (nsp:partner:*): partner subjects.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { subject } from "./subject";

export const resources: readonly AnyResource[] = [subject];
export const functions: readonly AnyFunction[] = [];
