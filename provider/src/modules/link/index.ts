// The link module (nsp:link:*): tunnels.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getLinkPops } from "./get-link-pops";
import { tunnel } from "./tunnel";
import { tunnelHostnames } from "./tunnel-hostnames";

export const resources: readonly AnyResource[] = [tunnel, tunnelHostnames];
export const functions: readonly AnyFunction[] = [getLinkPops];
