// Live streaming: channels with an ingest key (shown on create and on a new key only), the
// fallback programme of each channel, and the ingest cities. The tables hang off the Store through
// a WeakMap, like the other areas; channel ids come from the store's one counter.
import { randomBytes } from "node:crypto";
import { type Store, accountTable } from "../model/store";

export const VISIBILITIES = ["public", "unlisted"] as const;
export const PLACEMENTS = ["city", "anycast"] as const;
export const LATENCY_MODES = ["low", "standard"] as const;
export const QUALITIES = ["high", "standard"] as const;
export const WATERMARKS = ["off", "br", "tl"] as const;
export const PROGRAMME_MODES = ["loop", "relay"] as const;

export const RENDITIONS_MIN = 1;
export const RENDITIONS_MAX = 5;
export const DELAY_MAX = 300;
export const PROGRAMME_ITEMS_MAX = 100;

export interface Programme {
  enabled: boolean;
  mode: (typeof PROGRAMME_MODES)[number];
  items: Record<string, unknown>[];
  updated_at: string;
}

export interface ChannelRow {
  id: number;
  account: string;
  name: string;
  visibility: (typeof VISIBILITIES)[number];
  placement: (typeof PLACEMENTS)[number];
  city: string | null;
  renditions: number;
  record: boolean;
  latency_mode: (typeof LATENCY_MODES)[number];
  delay_s: number;
  quality: (typeof QUALITIES)[number];
  watermark: (typeof WATERMARKS)[number];
  allow_rtmp: boolean;
  realtime_play: boolean;
  recording_store: Record<string, unknown> | null;
  enabled: boolean;
  /** Never returned except on create and key rotation. */
  stream_key: string;
  key_issued_at: string;
  /** `idle`, or `live` while somebody publishes (the emulator has no ingest; see setOnAir). */
  state: "idle" | "live";
  programme: Programme;
  created_at: string;
}

export interface City {
  code: string;
  name: string;
  country: string;
  has_room: boolean;
}

/** The ingest cities; `par` is full, so a channel cannot be placed there. */
export const CITIES: readonly City[] = [
  { code: "ams", name: "Amsterdam", country: "NL", has_room: true },
  { code: "fra", name: "Frankfurt", country: "DE", has_room: true },
  { code: "par", name: "Paris", country: "FR", has_room: false },
  { code: "iad", name: "Ashburn", country: "US", has_room: true },
  { code: "sin", name: "Singapore", country: "SG", has_room: true },
];

export const streamChannels = accountTable<ChannelRow>("stream_channels");

export function newStreamKey(): string {
  return `sk_${randomBytes(20).toString("hex")}`;
}

const INGEST_HOST = "ingest.stream.nsp-emulator.test";

export function channelView(c: ChannelRow) {
  const host = c.placement === "city" && c.city ? `${c.city}.${INGEST_HOST}` : INGEST_HOST;
  return {
    id: c.id,
    name: c.name,
    visibility: c.visibility,
    placement: c.placement,
    city: c.city,
    renditions: c.renditions,
    record: c.record,
    latency_mode: c.latency_mode,
    delay_s: c.delay_s,
    quality: c.quality,
    watermark: c.watermark,
    allow_rtmp: c.allow_rtmp,
    realtime_play: c.realtime_play,
    recording_store: c.recording_store,
    enabled: c.enabled,
    state: c.state,
    ingest: { srt: `srt://${host}:9000?streamid=${c.id}`, rtmp: c.allow_rtmp ? `rtmp://${host}/live` : null },
    playback_url: `https://play.stream.nsp-emulator.test/${c.id}/index.m3u8`,
    key_issued_at: c.key_issued_at,
    created_at: c.created_at,
  };
}

/** Somebody starts (or stops) publishing to the channel; the emulator has no ingest of its own. */
export function setOnAir(store: Store, id: number, live: boolean): void {
  const c = streamChannels(store).get(id);
  if (c) c.state = live ? "live" : "idle";
}
