// Meetings' one table: each account's default policy for new meetings, made from the defaults on
// first read.
import { entryOf } from "../model/tables";
import { areaState, type Store } from "../model/store";

export interface MeetSettings {
  waiting_room: boolean;
  waiting_room_all: boolean;
  guests_allowed: boolean;
  mute_on_entry: boolean;
  cam_off_on_entry: boolean;
  chat: boolean;
  reactions: boolean;
  host_must_join_first: boolean;
  locked_default: boolean;
  share_policy: "anyone" | "host_only" | "host_approve";
  record_policy: "off" | "host" | "auto";
  city: string;
  phone_lang: "en" | "zh";
  retention: { days: number };
}

const MEET_DEFAULTS: MeetSettings = {
  waiting_room: false,
  waiting_room_all: false,
  guests_allowed: true,
  mute_on_entry: false,
  cam_off_on_entry: false,
  chat: true,
  reactions: true,
  host_must_join_first: false,
  locked_default: false,
  share_policy: "anyone",
  record_policy: "host",
  city: "fra",
  phone_lang: "en",
  retention: { days: 30 },
};

const meetSettings = areaState(() => new Map<string, MeetSettings>());

export function settingsOf(store: Store, account: string): MeetSettings {
  return entryOf(meetSettings(store), account, () => ({ ...MEET_DEFAULTS, retention: { ...MEET_DEFAULTS.retention } }));
}
