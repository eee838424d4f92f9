import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { dropNone, stringIdOf } from "./ids";

const TOKEN = "nsp:vod:Asset";

const assetArgs = z.object({
  title: z.string().max(200, "must be at most 200 characters").optional().meta({ key: true, description: "Title of the video.", create: true, patch: true }),
  description: z.string().max(5000, "must be at most 5000 characters").optional().meta({ description: "Description of the video.", create: true, patch: true }),
  tags: z
    .record(z.string().min(1, "tag names must not be empty").max(64, "tag names must be at most 64 characters"), z.string().max(256, "must be at most 256 characters"))
    .refine((t) => Object.keys(t).length <= 50, "must have at most 50 tags")
    .optional()
    .meta({ description: "Tags (name to value), at most 50.", create: true, patch: true }),
  visibility: z.enum(["public", "unlisted", "private"]).default("public").meta({ description: "`public`, `unlisted` or `private` (playback addresses are then signed and expire).", create: true, patch: true }),
});

const assetState = z.object({
  state: z.string().meta({ description: "`uploading` (no original yet), `processing`, `ready` or `failed`." }),
  progress: z.number().nullable().optional().meta({ description: "Transcode progress in percent while processing." }),
  durationS: z.number().nullable().optional().meta({ description: "Duration in seconds, once known." }),
  createdAt: z.string().meta({ description: "When the asset was created." }),
});

const api = wireModel(assetArgs, assetState, { id: z.string() });
const assetWire = api.wire as z.ZodType<Record<string, unknown> & { id: string }>;

// "None" on the wire (null, no tags) is an unset input in the program.
const toState = (raw: z.output<typeof assetWire>) => dropNone(api.toState(raw), ["title", "description", "tags"]);

const path = (id: string) => `/vod/assets/${encodeURIComponent(stringIdOf(TOKEN, id, "a video asset id", "vid_0123456789ab"))}`;

export const asset = defineResource({
  token: TOKEN,
  description:
    "A video-on-demand asset: its metadata (title, description, tags, visibility). The original is uploaded afterwards, outside Pulumi (the API's resumable upload); `state` shows where the asset is. Deleting it deletes everything stored for the video.",
  args: assetArgs,
  state: assetState,
  importId: "<assetId>",

  // No natural key (titles need not be unique), so a lost answer is not looked up: the client never repeats a POST blindly.
  async create(ctx, args) {
    const raw = await ctx.client.post("/vod/assets", api.createBody(args), { schema: assetWire, signal: ctx.signal });
    return { id: raw.id, state: toState(raw) };
  },

  async read(ctx, id) {
    const raw = await ctx.client.getOrUndefined(path(id), { schema: assetWire, signal: ctx.signal });
    return raw && { id: raw.id, state: toState(raw) };
  },

  async update(ctx, id, news, olds, changed) {
    const keys = api.patchKeys(changed);
    if (keys.length === 0) return { ...olds, ...news };
    const patch = api.patchBody(news, keys);
    // Dropped from the program: cleared.
    if (keys.includes("title") && news.title === undefined) patch.title = null;
    if (keys.includes("description") && news.description === undefined) patch.description = null;
    if (keys.includes("tags") && news.tags === undefined) patch.tags = {};
    return toState(await ctx.client.patch(path(id), patch, { schema: assetWire, signal: ctx.signal }));
  },

  async delete(ctx, id) {
    await ctx.client.delete(path(id), { signal: ctx.signal });
  },
});
