// The verify module (nsp:verify:*): site verification.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { site } from "./site";

export const resources: readonly AnyResource[] = [site];
export const functions: readonly AnyFunction[] = [];
