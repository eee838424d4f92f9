// Issue 8's areas in one list for routes/index.ts: meetings, voice numbers, chat and realtime
// rooms, storage destinations and the internet exchange.
import { ixRoutes } from "./ix";
import { meetRoutes } from "./meet";
import { rtcRoutes } from "./rtc";
import { storageRoutes } from "./storage";
import { talkRoutes } from "./talk";
import { voiceRoutes } from "./voice";

export const voiceAndRoomRoutes = [...meetRoutes, ...voiceRoutes, ...talkRoutes, ...rtcRoutes, ...storageRoutes, ...ixRoutes];
