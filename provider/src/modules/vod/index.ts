// The vod module (nsp:vod:*): video on demand.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { asset } from "./asset";
import { signingKey } from "./signing-key";
import { webhook } from "./webhook";

export const resources: readonly AnyResource[] = [asset, signingKey, webhook];
export const functions: readonly AnyFunction[] = [];
