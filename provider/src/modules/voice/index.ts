// The voice module (nsp:voice:*): voice numbers.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { number } from "./number";
import { numberEndpoint } from "./number-endpoint";

export const resources: readonly AnyResource[] = [number, numberEndpoint];
export const functions: readonly AnyFunction[] = [];
