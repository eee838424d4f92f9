// The sgate module (nsp:sgate:*): the messaging gateway.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { brand } from "./brand";
import { broadcast } from "./broadcast";
import { campaign } from "./campaign";
import { consent } from "./consent";
import { getNumbers } from "./get-numbers";
import { numberSettings } from "./number-settings";
import { sender } from "./sender";
import { template } from "./template";

export const resources: readonly AnyResource[] = [
  numberSettings,
  brand,
  campaign,
  sender,
  template,
  consent,
  broadcast,
];
export const functions: readonly AnyFunction[] = [getNumbers];
