// The chat rooms' table, and what the realtime rooms (rtc) and meetings (meet) share with it:
// the room cities and the columns every room has.
import { areaState } from "../model/store";

/** Cities of the chat and realtime room areas: which accept new rooms. Seeded, not writable through the API. */
export interface RoomCity {
  id: string;
  name: string;
  country: string;
  has_room: boolean;
}

export const ROOM_CITIES: readonly RoomCity[] = [
  { id: "fra", name: "Frankfurt", country: "DE", has_room: true },
  { id: "ams", name: "Amsterdam", country: "NL", has_room: true },
  { id: "iad", name: "Ashburn", country: "US", has_room: true },
  { id: "sin", name: "Singapore", country: "SG", has_room: false },
];

/** The columns of a chat room and a realtime room alike. */
export interface RoomRow {
  id: number;
  account: string;
  name: string;
  city: string;
  max_peers: number;
  enabled: boolean;
  public_join: boolean;
  passcode: string | null;
  created_at: string;
}

export interface TalkRoomRow extends RoomRow {
  kind: "room" | "live";
  visibility: "public" | "unlisted";
  max_kbps: number;
  retention_days: number;
}

export const talkRooms = areaState(() => new Map<number, TalkRoomRow>());
