import { ownIdOf, STRING_ID } from "../../framework/api/ids";
import { displayName } from "../../framework/api/validators";
import { z } from "zod";
import { collection, naturalKey, fromList, apiId } from "../../framework/api/shapes/collection";
import { isApiError } from "../../client";

const TOKEN = "nsp:storage:Destination";

function isHttpsUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (
      u.protocol === "https:" &&
      u.hostname !== "" &&
      u.username === "" &&
      u.password === "" &&
      u.search === "" &&
      u.hash === ""
    );
  } catch {
    return false;
  }
}

const destinationArgs = z.object({
  endpoint: z
    .string()
    .trim()
    .refine(
      isHttpsUrl,
      "must be an https:// URL without credentials, query or fragment, such as https://s3.eu-central-1.example.net",
    )
    .meta({
      description: "The bucket service's address (S3-compatible), such as `https://s3.eu-central-1.example.net`.",
      create: true,
      replace: true,
    }),
  bucket: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be 3 to 63 lower-case letters, digits, '.' or '-', starting and ending with a letter or digit",
    )
    .meta({ key: true, description: "The bucket that receives the copies.", create: true, replace: true }),
  region: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .optional()
    .meta({ description: "The bucket's region, where the service needs one.", create: true, replace: true }),
  name: displayName
    .optional()
    .meta({ description: "Display name; the API uses the bucket's name when unset.", create: true, patch: true }),
  prefix: z
    .string()
    .max(200, "must be at most 200 characters")
    .regex(/^\S*$/, "must not contain spaces")
    .optional()
    .meta({
      key: true,
      description: "Key prefix of the copies, such as `recordings/`; none when unset.",
      create: true,
      patch: true,
    }),
  accessKey: z
    .string()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .meta({ description: "Access key id of the credential the service writes with.", create: true, patch: true }),
  secretKey: z
    .string()
    .min(1, "must not be empty")
    .max(256, "must be at most 256 characters")
    .optional()
    .meta({
      description:
        "Secret key of the credential. Secret and write-only: the API never returns it. Required to create a " +
        "destination (the API tests it with one small write and delete, and a failed test fails the create); " +
        "after an import it may stay unset until it is to be changed.",
      create: true,
      patch: true,
      secret: true,
      writeOnly: true,
    }),
  // Not in the create body: turning it on takes a patch.
  autoMeet: z
    .boolean()
    .default(false)
    .meta({ description: "Whether meeting recordings are copied here automatically.", patch: true }),
});

const destinationState = z.object({
  lastTestAt: z.string().nullable().optional().meta({ description: "When the credential was last tested." }),
  createdAt: z.string().meta({ description: "When the destination was bound." }),
});

function idOf(id: string): string {
  return ownIdOf(TOKEN, id, {
    what: "destination",
    form: "<destinationId>",
    pattern: STRING_ID,
    example: "dst_0123456789ab",
  });
}

const destinations = collection({
  token: TOKEN,
  path: "/storage/destinations",
  args: destinationArgs,
  state: destinationState,
  idOnWire: z.string(),
  id: apiId(idOf),
  // There is no GET of one destination: it is found in the account's list.
  read: fromList(),
  adjust(state) {
    // No prefix and an empty one are the same to the API; the program writes no prefix as unset.
    if (state.prefix === "") delete state.prefix;
    return state;
  },
  // A name left to the API keeps the last one; a dropped prefix becomes none; a dropped secret key keeps the API's.
  patchBody(patch, news, changed) {
    if (changed.includes("prefix") && news.prefix === undefined) patch.prefix = "";
    // The API tests a new key only with both halves; send the access key along with a new secret key.
    if (patch.secret_key !== undefined) patch.access_key = news.accessKey;
    return patch;
  },
});

/** A failed key test is a validation error on the key; say what was tested and what to fix. */
function explainTest(e: unknown): never {
  if (isApiError(e) && e.code === "validation_error" && /test write/.test(e.serverMessage)) {
    throw new Error(
      `${TOKEN}: the API tested accessKey/secretKey with a small write and delete in the bucket, and it ` +
        `failed (${e.code}): ${e.serverMessage}. Check the keys and the bucket's permissions.`,
    );
  }
  throw e;
}

export const destination = destinations.resource({
  since: "0.1.0",
  list: { label: (d) => `${String(d.bucket)}-${d.prefix == null ? "" : String(d.prefix)}` },
  description:
    "A customer bucket (S3-compatible) that receives copies of recordings. The API tests the credential " +
    "with one small write and delete when the destination is created and when the keys change; a failed " +
    "test is an error. Objects already copied stay in the bucket when the destination is deleted. Turning " +
    "on `autoMeet` at create takes a second call; if it fails the destination stays in the stack and the " +
    "next `pulumi up` finishes it.",
  importId: "<destinationId>",

  async create(ctx, args) {
    if (args.secretKey === undefined)
      throw new Error(
        `${TOKEN}: secretKey is required to create a destination (the API tests the key before binding the bucket)`,
      );
    const made = await destinations
      .create(
        ctx,
        `storage destination ${args.bucket}`,
        args,
        naturalKey(
          // The same bucket at the same address, prefix and key is the same destination.
          (d) =>
            d.endpoint === args.endpoint &&
            d.bucket === args.bucket &&
            (d.prefix ?? "") === (args.prefix ?? "") &&
            d.access_key === args.accessKey,
        ),
      )
      .catch(explainTest);
    if (!args.autoMeet) return made;
    ctx.progress(made.id, made.state);
    return { id: made.id, state: await destinations.update(ctx, made.id, args, made.state, ["autoMeet"]) };
  },

  update: (ctx, id, news, olds, changed) => destinations.update(ctx, id, news, olds, changed).catch(explainTest),
});
