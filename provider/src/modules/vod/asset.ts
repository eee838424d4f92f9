import { z } from "zod";
import { collection, apiId, postOnce } from "../../framework/api/shapes/collection";
import { ownIdOf } from "../../framework/api/ids";
import { dropNone, VOD_STRING_ID } from "./ids";

const TOKEN = "nsp:vod:Asset";

const assetArgs = z.object({
  title: z
    .string()
    .max(200, "must be at most 200 characters")
    .optional()
    .meta({ key: true, description: "Title of the video.", create: true, patch: true, clearedAs: null }),
  description: z
    .string()
    .max(5000, "must be at most 5000 characters")
    .optional()
    .meta({ description: "Description of the video.", create: true, patch: true, clearedAs: null }),
  tags: z
    .record(
      z.string().min(1, "tag names must not be empty").max(64, "tag names must be at most 64 characters"),
      z.string().max(256, "must be at most 256 characters"),
    )
    .refine((t) => Object.keys(t).length <= 50, "must have at most 50 tags")
    .optional()
    .meta({ description: "Tags (name to value), at most 50.", create: true, patch: true, clearedAs: {} }),
  visibility: z.enum(["public", "unlisted", "private"]).default("public").meta({
    description: "`public`, `unlisted` or `private` (playback addresses are then signed and expire).",
    create: true,
    patch: true,
  }),
});

const assetState = z.object({
  state: z.string().meta({ description: "`uploading` (no original yet), `processing`, `ready` or `failed`." }),
  progress: z.number().nullable().optional().meta({ description: "Transcode progress in percent while processing." }),
  durationS: z.number().nullable().optional().meta({ description: "Duration in seconds, once known." }),
  createdAt: z.string().meta({ description: "When the asset was created." }),
});

// "None" on the wire (null, no tags) is an unset input in the program.
const assetIdOf = (id: string) =>
  ownIdOf(TOKEN, id, { what: "video asset", form: "<assetId>", pattern: VOD_STRING_ID, example: "vid_0123456789ab" });
const assets = collection({
  token: TOKEN,
  path: "/vod/assets",
  args: assetArgs,
  state: assetState,
  idOnWire: z.string(),
  id: apiId(assetIdOf),
  adjust: (state) => dropNone(state, ["title", "description", "tags"]),
});

export const asset = assets.resource({
  since: "0.1.0",
  list: { label: (a) => String(a.title || a.id) },
  description:
    "A video-on-demand asset: its metadata (title, description, tags, visibility). The original is " +
    "uploaded afterwards, outside Pulumi (the API's resumable upload); `state` shows where the asset is. " +
    "Deleting it deletes everything stored for the video.",
  importId: "<assetId>",

  // No natural key (titles need not be unique), so a lost answer is not looked up: the client never repeats a POST blindly.
  create: (ctx, args) => assets.create(ctx, "video asset", args, postOnce),
});
