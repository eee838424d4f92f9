// The realtime rooms' table: rooms as talk keeps them, plus their video and verification settings.
import { areaState } from "../model/store";
import type { RoomRow } from "../talk/state";

export interface RtcRoomRow extends RoomRow {
  max_video: number;
  require_verify: boolean;
  cascade: boolean;
  record: boolean;
  verify_level: "standard" | "strict" | "maximum";
}

export const rtcRooms = areaState(() => new Map<number, RtcRoomRow>());
