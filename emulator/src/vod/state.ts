// Video on demand: asset metadata, playback signing keys (secret shown once) and the VOD event
// endpoints (stored; delivery is not switched on). The tables hang off the Store through a
// WeakMap, like the other areas. Assets and keys have prefixed random string ids; event
// endpoints integer ids from the store's counter.
import { randomBytes } from "node:crypto";
import { areaTables, type Store } from "../model/store";
import { withoutAccount } from "../model/tables";

export const ASSET_STATES = ["uploading", "processing", "ready", "failed"] as const;
export const ASSET_VISIBILITIES = ["public", "unlisted", "private"] as const;
export const VOD_EVENTS = [
  "*",
  "asset.created",
  "asset.ready",
  "asset.failed",
  "asset.deleted",
  "upload.completed",
] as const;
export const MAX_KEYS = 10;
export const MAX_WEBHOOKS = 10;

type AssetState = (typeof ASSET_STATES)[number];

export interface AssetRow {
  id: string;
  account: string;
  title: string | null;
  description: string | null;
  tags: Record<string, string>;
  visibility: (typeof ASSET_VISIBILITIES)[number];
  state: AssetState;
  /** Transcode progress in percent while processing, else null. */
  progress: number | null;
  duration_s: number | null;
  created_at: string;
  updated_at: string;
}

interface SigningKeyRow {
  id: string;
  account: string;
  note: string | null;
  /** Never returned except in the create answer. */
  secret: string;
  created_at: string;
}

interface VodWebhookRow {
  id: number;
  account: string;
  url: string;
  events: string[];
  note: string | null;
  created_at: string;
}

export const vodTables = areaTables(
  () => ({
    assets: new Map<string, AssetRow>(),
    keys: new Map<string, SigningKeyRow>(),
    webhooks: new Map<number, VodWebhookRow>(),
  }),
  { vod_assets: "assets" },
);

export function newSigningSecret(): string {
  return randomBytes(32).toString("base64url");
}

export const assetView = (a: AssetRow) => withoutAccount(a);

export function keyView(k: SigningKeyRow) {
  return { id: k.id, note: k.note, created_at: k.created_at };
}

export function webhookView(w: VodWebhookRow) {
  return { id: w.id, url: w.url, events: w.events, note: w.note, delivery_enabled: false, created_at: w.created_at };
}

/**
 * Moves an asset along as the transcoder would (the emulator runs none). For tests; false when
 * the asset does not exist.
 */
export function setAssetState(store: Store, id: string, state: AssetState, progress: number | null = null): boolean {
  const a = vodTables(store).assets.get(id);
  if (!a) return false;
  a.state = state;
  a.progress = state === "processing" ? (progress ?? 0) : null;
  if (state === "ready" && a.duration_s === null) a.duration_s = 60;
  return true;
}
