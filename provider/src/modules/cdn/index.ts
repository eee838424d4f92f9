// The cdn module (nsp:cdn:*): the edge proxy's sites.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { site } from "./site";
import { siteSettings } from "./site-settings";
import { siteVerification } from "./site-verification";

export const resources: readonly AnyResource[] = [site, siteSettings, siteVerification];
export const functions: readonly AnyFunction[] = [];
