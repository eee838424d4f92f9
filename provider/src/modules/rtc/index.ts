// The rtc module (nsp:rtc:*): realtime rooms.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getRtcCities } from "./get-rtc-cities";
import { rtcRoom } from "./room";

export const resources: readonly AnyResource[] = [rtcRoom];
export const functions: readonly AnyFunction[] = [getRtcCities];
