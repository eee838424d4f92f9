// Per-store tables of an area, hung off the Store through a WeakMap like the other areas.
import { randomBytes } from "node:crypto";
import type { Store } from "../store";

export function tablesOf<T>(map: WeakMap<Store, T>, store: Store, make: () => T): T {
  let t = map.get(store);
  if (!t) {
    t = make();
    map.set(store, t);
  }
  return t;
}

/** `<prefix>_` + 12 hex characters; the areas whose ids are strings (destinations, IX members). */
export function stringId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** A short-lived join token for one participant of a chat or realtime room. */
export function joinToken(): string {
  return `jt_${randomBytes(16).toString("hex")}`;
}

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
