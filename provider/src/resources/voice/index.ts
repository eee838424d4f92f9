// Issue 8's definitions (meetings, voice numbers, chat and realtime rooms, storage destinations,
// internet exchange), listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getRtcCities } from "../../functions/rtc/get-rtc-cities";
import { getTalkCities } from "../../functions/talk/get-talk-cities";
import { member as ixMember } from "../ix/member";
import { settings as meetSettings } from "../meet/settings";
import { rtcRoom } from "../rtc/room";
import { destination as storageDestination } from "../storage/destination";
import { talkRoom } from "../talk/room";
import { number as voiceNumber } from "./number";
import { numberEndpoint as voiceNumberEndpoint } from "./number-endpoint";

export const voiceAndRoomResources: readonly AnyResource[] = [meetSettings, voiceNumber, voiceNumberEndpoint, talkRoom, rtcRoom, storageDestination, ixMember];
export const voiceAndRoomFunctions: readonly AnyFunction[] = [getTalkCities, getRtcCities];
