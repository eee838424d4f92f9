import { ownIdOf } from "../../framework/api/ids";
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { collection, type Item, apiId, naturalKey } from "../../framework/api/shapes/collection";
import { dnsName, oneTimeSecret, rotationTrigger } from "../../framework/api/validators";

const TOKEN = "nsp:verify:Site";
// Unlike HOST_NAME, the last label must start with a letter.
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A site's id as the path wants it; a malformed import id is an error before any request. */
function siteIdOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "verify site", form: "<siteId>" });
}

const both = { create: true, patch: true } as const;

const siteArgs = z.object({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100)
    .meta({ key: true, description: "Name of the site key, unique in the account (ignoring case).", ...both }),
  hostnames: z
    .array(dnsName(z.string().refine((h) => HOST.test(h), "must be a host name such as www.example.com")))
    .max(50)
    .refine((l) => new Set(l).size === l.length, "must not repeat a host name")
    .default([])
    .meta({ description: "Host names the widget may run on (lower-cased, no trailing dot).", ...both }),
  mode: z
    .enum(["managed", "invisible", "interactive"])
    .default("managed")
    .meta({ description: "How the widget challenges: `managed`, `invisible` or `interactive`.", ...both }),
  fingerprint: z
    .boolean()
    .default(false)
    .meta({ description: "Whether the widget collects a browser fingerprint.", ...both }),
  interaction: z
    .enum(["off", "soft", "strict", "present"])
    .default("off")
    .meta({
      description:
        "How much user interaction a pass requires: `off`, `soft`, `strict` or `present`. The API sets it at " +
        "creation only, so a change replaces the site (and its keys).",
      create: true,
      replace: true,
    }),
  // Sites are created enabled: `enabled` is only in the patch body.
  enabled: z.boolean().default(true).meta({ description: "Whether the site's tokens verify.", patch: true }),
  secretRotation: rotationTrigger(
    "Any string or number; changing it (or removing it) rotates the server secret through the API's " +
      "rotate endpoint (the old secret stops at once), and `secret` holds the new one. The API never sees " +
      "this value.",
  ),
});

const siteState = z.object({
  sitekey: z.string().meta({ description: "The public site key the widget embeds." }),
  secret: oneTimeSecret(
    "The server secret for server-side verification. The API returns it only when the site is created and " +
      "when the secret is rotated, so it is kept from the state on every refresh. Null after an import: " +
      "change `secretRotation` to get one.",
  ),
  secretIssuedAt: z.string().nullable().optional().meta({
    description: "When the current secret was issued; a change on refresh means it was rotated outside this program.",
  }),
  createdAt: z.string().meta({ description: "When the site was created." }),
});

// Where the secret sits in the create and rotate answers is not documented; `secret` is the
// emulator's choice (docs/api-assumptions.md).
// Null when this answer carries none; the framework then keeps the one from the prior state.
const sites = collection({
  token: TOKEN,
  path: "/verify/sites",
  args: siteArgs,
  state: siteState,
  idOnWire: z.number().int(),
  id: apiId(siteIdOf),
  adjust: (state) => ({ ...state, secret: state.secret ?? null }),
});
const toState = (raw: Item) => sites.toState(raw).state;
type SiteState = ReturnType<typeof toState>;

async function rotate(ctx: OperationContext, id: string): Promise<Item> {
  const raw = await ctx.client.post(`${sites.itemPath(id)}/rotate`, undefined, {
    schema: sites.wire,
    signal: ctx.signal,
  });
  if (typeof raw.secret !== "string")
    throw new Error(`${TOKEN}: the secret of site ${id} was rotated, but the API's answer carried no secret`);
  return raw;
}

export const site = sites.resource({
  since: "0.1.0",
  description:
    "A bot-verification site key: the public `sitekey` for the challenge widget and a server secret for " +
    "server-side verification. The secret is returned once and kept as a secret output (`secret`); change " +
    "`secretRotation` to rotate it. Deleting the site makes its tokens stop verifying at once.",
  importId: "<siteId>",

  async create(ctx, args) {
    // Names are unique in the account (ignoring case).
    const created = await sites.create(
      ctx,
      `verify site ${args.name}`,
      args,
      naturalKey((s) => String(s.name).toLowerCase() === args.name.toLowerCase()),
    );
    const id = created.id;
    let state: SiteState = created.state;
    // Sites are created enabled; `enabled` is only in the patch body.
    if (!args.enabled && state.enabled) {
      ctx.progress(id, state);
      const secret = state.secret;
      state = { ...(await sites.update(ctx, id, args, state, ["enabled"])), secret };
    }
    if (state.secret !== null) return { id, state };
    // Adopted after a lost answer: the secret went with it, and only a rotation shows one again.
    ctx.progress(id, state);
    return { id, state: toState(await rotate(ctx, id)) };
  },

  async read(ctx, id, prior) {
    const found = await sites.read(ctx, id);
    if (!found) return undefined;
    const { id: siteId, state } = found;
    if (prior.secret && prior.secretIssuedAt && state.secretIssuedAt && state.secretIssuedAt !== prior.secretIssuedAt) {
      ctx.log(
        "warning",
        `the secret of verify site ${siteId} was rotated outside this program, so the one in the state no ` +
          `longer works; change secretRotation to issue a new one`,
      );
    }
    return { id: siteId, state };
  },

  async update(ctx, id, news, olds, changed) {
    // The secret is carried over from olds unless this update rotates it. If the rotation fails
    // after the patch, the whole update fails, so the next `up` patches (idempotently) and
    // rotates again.
    const state = await sites.update(ctx, id, news, olds, changed);
    return changed.includes("secretRotation") ? toState(await rotate(ctx, id)) : state;
  },
});
