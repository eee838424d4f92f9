// The talk module (nsp:talk:*): chat rooms.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getTalkCities } from "./get-talk-cities";
import { talkRoom } from "./room";

export const resources: readonly AnyResource[] = [talkRoom];
export const functions: readonly AnyFunction[] = [getTalkCities];
