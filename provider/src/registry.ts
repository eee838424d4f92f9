import type { AnyFunction, AnyResource } from "./framework/definition";
import { record } from "./resources/dns/record";
import { zone } from "./resources/dns/zone";
import { getZone } from "./functions/dns/get-zone";

/** Every resource and function the provider serves, by type token. Add new definitions here. */
export const resources: readonly AnyResource[] = [zone, record];
export const functions: readonly AnyFunction[] = [getZone];

export const resourcesByToken = new Map(resources.map((r) => [r.token, r]));
export const functionsByToken = new Map(functions.map((f) => [f.token, f]));
