// The index module (nsp:index:*): the account itself (package-level tokens).
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getMe } from "./get-me";
import { getQuota } from "./get-quota";
import { getWebhookEvents } from "./get-webhook-events";
import { webhook } from "./webhook";

export const resources: readonly AnyResource[] = [webhook];
export const functions: readonly AnyFunction[] = [getMe, getQuota, getWebhookEvents];
