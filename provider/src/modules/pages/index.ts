// The pages module (nsp:pages:*): static pages projects.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { project } from "./project";

export const resources: readonly AnyResource[] = [project];
export const functions: readonly AnyFunction[] = [];
