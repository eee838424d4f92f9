// The stream module (nsp:stream:*): live streaming.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { channel } from "./channel";
import { getStreamCities } from "./get-stream-cities";
import { programme } from "./programme";

export const resources: readonly AnyResource[] = [channel, programme];
export const functions: readonly AnyFunction[] = [getStreamCities];
