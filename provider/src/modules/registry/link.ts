import { z } from "zod";
import { wireTimestamp } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { defineResource, type OperationContext } from "../../framework/definition";
import { MNTNER } from "./fields";

const TOKEN = "nsp:registry:Link";
const LINK_ID = "link";

const linkArgs = z.object({
  keyId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "must be 1 to 64 letters, digits, '.', '_' or '-'")
    .meta({ description: "Id of the registry-database API key.", create: true }),
  keySecret: z
    .string()
    .min(1, "must not be empty")
    .max(512, "must be at most 512 characters")
    .meta({
      description:
        "Secret of the API key. Sent to the API, which stores it encrypted and never shows it again, so " +
        "changes made outside this program cannot be seen.",
      create: true,
      secret: true,
      writeOnly: true,
    }),
  mntner: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.string().regex(MNTNER, "must be a maintainer name ending in -MNT, such as EXAMPLE-MNT"))
    .meta({
      description: "The maintainer the key belongs to, such as `EXAMPLE-MNT`. Stored upper-case.",
      create: true,
    }),
});

const linkState = z.object({
  verifiedAt: z.string().meta({ description: "When the key was last verified against the maintainer." }),
  syncedAt: z.string().nullable().optional().meta({
    description:
      "When the maintainer's resources were last discovered (`POST /registry/sync`); null before the first discovery.",
  }),
  createdAt: z.string().meta({ description: "When the account was first linked." }),
});

const properties = linkArgs.extend(linkState.shape);
type State = z.output<typeof properties>;
// Not the wire model's: the API answers an unlinked account with `linked: false` and every other
// field null, so each field is checked here and the state is made only for a linked account.
const linkWire = z.looseObject({
  linked: z.boolean(),
  key_id: z.string().nullable().optional(),
  mntner: z.string().nullable().optional(),
  verified_at: wireTimestamp.nullable().optional(),
  synced_at: wireTimestamp.nullable().optional(),
  created_at: wireTimestamp.nullable().optional(),
});
type LinkWire = z.output<typeof linkWire>;
const { createBody } = wireModel(linkArgs, linkState);

function toState(raw: LinkWire): Omit<State, "keySecret"> | undefined {
  if (!raw.linked || !raw.key_id || !raw.mntner) return undefined;
  return {
    keyId: raw.key_id,
    mntner: raw.mntner,
    verifiedAt: raw.verified_at ?? "",
    syncedAt: raw.synced_at ?? null,
    createdAt: raw.created_at ?? "",
  };
}

async function put(ctx: OperationContext, args: z.output<typeof linkArgs>): Promise<State> {
  const raw = await ctx.client.put("/registry/link", createBody(args), { schema: linkWire, signal: ctx.signal });
  const state = toState(raw);
  if (!state) throw new Error(`${TOKEN}: the API accepted the link but reports the account as not linked`);
  return { ...state, keySecret: args.keySecret };
}

async function readLink(ctx: OperationContext) {
  return toState(await ctx.client.get("/registry/link", { schema: linkWire, signal: ctx.signal }));
}

// No shape: the account's one registry link, written by PUT and deletable, unlike a settings object.
export const link = defineResource({
  since: "0.1.0",
  notListed: "holds a maintainer's API key the API never returns (write-only); link again with the key instead",
  token: TOKEN,
  description:
    "The account's link to the registry database: a maintainer's API key, verified against the maintainer " +
    "and stored encrypted. One per account (id `link`); it lets the platform discover the maintainer's " +
    "blocks, ASNs and domain objects and change those domain objects (`nsp:registry:Domain`). Every " +
    "change sends the key again (the API replaces the link); deleting the resource unlinks and forgets " +
    "the key.",
  args: linkArgs,
  state: linkState,
  importId: "link",

  async create(ctx, args) {
    return { id: LINK_ID, state: await put(ctx, args) };
  },

  async read(ctx, id) {
    if (id !== LINK_ID) throw new Error(`${TOKEN}: id "${id}" must be "${LINK_ID}" (one link per account)`);
    const state = await readLink(ctx);
    return state ? { id, state: state as State } : undefined;
  },

  async update(ctx, _id, news) {
    // The API has no patch: a PUT with the key replaces the link as a whole.
    return put(ctx, news);
  },

  async delete(ctx) {
    await ctx.client.delete("/registry/link", { signal: ctx.signal });
  },
});
