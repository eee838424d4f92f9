// The live-streaming area's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getStreamCities } from "../../functions/stream/get-stream-cities";
import { channel } from "./channel";
import { programme } from "./programme";

export const streamResources: readonly AnyResource[] = [channel, programme];
export const streamFunctions: readonly AnyFunction[] = [getStreamCities];
