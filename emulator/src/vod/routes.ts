// Video on demand: asset metadata (the transcoder is not emulated: see setAssetState), renditions
// and playback addresses, playback signing keys (secret in the create answer only) and the VOD
// event endpoints (stored, never delivered to). The resumable upload needs raw-byte bodies,
// which the emulator's pipeline does not take, so its three routes are not emulated.
import { createHmac } from "node:crypto";
import { z } from "zod";
import { collection } from "../model/collection";
import { uniqueId } from "../model/tables";
import { ApiError, invalid } from "../pipeline/errors";
import { pagingQuery } from "../model/paging";
import {
  ASSET_STATES,
  ASSET_VISIBILITIES,
  type AssetRow,
  MAX_KEYS,
  MAX_WEBHOOKS,
  VOD_EVENTS,
  assetView,
  keyView,
  newSigningSecret,
  vodTables,
  webhookView,
} from "./state";
import { intBetween, optText } from "../pipeline/validation";

const tags = z
  .record(z.string().min(1).max(64), z.string().max(256))
  .refine((t) => Object.keys(t).length <= 50, { error: "must have at most 50 keys" });

const assetBody = z.strictObject({
  title: optText(200),
  description: optText(5000),
  tags: tags.optional(),
  visibility: z.enum(ASSET_VISIBILITIES).optional(),
});

const listAssetsQuery = z.strictObject({ ...pagingQuery, state: z.enum(ASSET_STATES).optional() });
const playbackBody = z.strictObject({ expires_in: intBetween(60, 604800).optional() });
const keyBody = z.strictObject({ note: optText(256) });
const webhookBody = z.strictObject({
  url: z.string().trim().min(1).max(2048),
  events: z.array(z.enum(VOD_EVENTS)).max(VOD_EVENTS.length).optional(),
  note: optText(256),
});

function urlProblem(value: string): string | null {
  try {
    const u = new URL(value);
    if (u.protocol !== "https:" && u.protocol !== "http:") return "must be an http:// or https:// URL";
    if (u.username || u.password) return "must not carry credentials";
    return null;
  } catch {
    return "must be an absolute http:// or https:// URL";
  }
}

const RENDITION_LADDER = [
  { name: "1080p", width: 1920, height: 1080, bitrate_kbps: 5000 },
  { name: "720p", width: 1280, height: 720, bitrate_kbps: 2800 },
  { name: "480p", width: 854, height: 480, bitrate_kbps: 1400 },
];

const assets = collection({
  path: "/vod/assets",
  item: "/vod/assets/{id}",
  what: "asset",
  table: ({ store }) => vodTables(store).assets,
  view: assetView,
  list: {
    query: listAssetsQuery,
    rows: (ctx) =>
      ctx.store
        .list(vodTables(ctx.store).assets, ctx.account.name)
        .filter((a) => ctx.query.state === undefined || a.state === ctx.query.state),
  },
  create: {
    body: assetBody,
    build: (ctx): AssetRow => {
      const now = ctx.store.timestamp();
      return {
        id: uniqueId("vid", vodTables(ctx.store).assets),
        account: ctx.account.name,
        title: ctx.body.title ?? null,
        description: ctx.body.description ?? null,
        tags: ctx.body.tags ?? {},
        visibility: ctx.body.visibility ?? "public",
        state: "uploading",
        progress: null,
        duration_s: null,
        created_at: now,
        updated_at: now,
      };
    },
  },
  patch: {
    body: assetBody,
    apply: (ctx, a) => {
      const { body } = ctx;
      if (body.title !== undefined) a.title = body.title || null;
      if (body.description !== undefined) a.description = body.description || null;
      if (body.tags !== undefined) a.tags = body.tags;
      if (body.visibility !== undefined) a.visibility = body.visibility;
      a.updated_at = ctx.store.timestamp();
    },
  },
  remove: true,
});

const signingKeys = collection({
  path: "/vod/keys",
  item: "/vod/keys/{key_id}",
  what: "signing key",
  table: ({ store }) => vodTables(store).keys,
  view: keyView,
  create: {
    body: keyBody,
    build: (ctx) => {
      const t = vodTables(ctx.store);
      return {
        id: uniqueId("key", t.keys),
        account: ctx.account.name,
        note: ctx.body.note || null,
        secret: newSigningSecret(),
        created_at: ctx.store.timestamp(),
      };
    },
    limit: { max: MAX_KEYS, what: "signing keys" },
    // The secret is in the create answer only.
    answer: (k) => ({ ...keyView(k), secret: k.secret }),
  },
  get: false,
  remove: true,
});

const eventEndpoints = collection({
  path: "/vod/webhooks",
  item: "/vod/webhooks/:hook_id",
  what: "VOD event endpoint",
  table: ({ store }) => vodTables(store).webhooks,
  view: webhookView,
  create: {
    body: webhookBody,
    build: (ctx) => {
      const { body, store } = ctx;
      const problem = urlProblem(body.url);
      if (problem) throw invalid("url", problem);
      const events = body.events ?? ["*"];
      const dup = events.findIndex((e, i) => events.indexOf(e) !== i);
      if (dup >= 0) throw invalid(`events[${dup}]`, `duplicate of events[${events.indexOf(events[dup]!)}]`);
      return {
        id: store.nextId(),
        account: ctx.account.name,
        url: body.url,
        events,
        note: body.note || null,
        created_at: store.timestamp(),
      };
    },
    limit: { max: MAX_WEBHOOKS, what: "VOD event endpoints" },
  },
  get: false,
  remove: true,
});

export const vodRoutes = [
  ...assets.routes,

  assets.member("POST", "reprocess", (a, ctx) => {
    if (a.state === "uploading") throw new ApiError("conflict", `asset ${a.id} has no original yet; upload it first`);
    if (a.state === "processing") throw new ApiError("conflict", `asset ${a.id} is being encoded already`);
    a.state = "processing";
    a.progress = 0;
    a.updated_at = ctx.store.timestamp();
    return assetView(a);
  }),

  assets.member("GET", "renditions", (a) => ({ asset_id: a.id, data: a.state === "ready" ? RENDITION_LADDER : [] })),

  assets.member(
    "POST",
    "playback",
    (a, ctx) => {
      if (a.state !== "ready")
        throw new ApiError("conflict", `asset ${a.id} is ${a.state}; playback needs a ready asset`);
      const base = `https://vod.nsp-emulator.test/${a.id}/index.m3u8`;
      if (a.visibility !== "private") return { asset_id: a.id, url: base, expires_at: null };
      const exp = Math.floor(ctx.now() / 1000) + (ctx.body.expires_in ?? 3600);
      const sig = createHmac("sha256", "nsp-emulator").update(`${a.id}:${exp}`).digest("hex").slice(0, 32);
      return { asset_id: a.id, url: `${base}?exp=${exp}&sig=${sig}`, expires_at: new Date(exp * 1000).toISOString() };
    },
    { body: playbackBody },
  ),

  ...signingKeys.routes,
  ...eventEndpoints.routes,
];
