// The meet module (nsp:meet:*): meeting settings.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { settings } from "./settings";

export const resources: readonly AnyResource[] = [settings];
export const functions: readonly AnyFunction[] = [];
