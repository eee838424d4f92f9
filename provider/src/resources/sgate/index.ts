// The messaging gateway's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getNumbers } from "../../functions/sgate/get-numbers";
import { brand } from "./brand";
import { broadcast } from "./broadcast";
import { campaign } from "./campaign";
import { consent } from "./consent";
import { numberSettings } from "./number-settings";
import { sender } from "./sender";
import { template } from "./template";

export const sgateResources: readonly AnyResource[] = [numberSettings, brand, campaign, sender, template, consent, broadcast];
export const sgateFunctions: readonly AnyFunction[] = [getNumbers];
