import { z } from "zod";
import { oneTimeSecret, rotationTrigger } from "../../framework/api/validators";
import type { CheckFailure, OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { collection, type Item, apiId, naturalKey } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:link:Tunnel";
import { ownIdOf } from "../../framework/api/ids";

/** A tunnel's id as the path wants it; a malformed import id is an error before any request. */
export function tunnelIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "tunnel", form: "<tunnelId>" });
}

function isLocalUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.hostname !== "" &&
      url.username === "" &&
      url.password === "" &&
      url.hash === ""
    );
  } catch {
    return false;
  }
}

// Every field the API takes is sent on create and on patch.
const tunnelArgs = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100).meta({
    key: true,
    description: "Name of the tunnel, unique in the account (ignoring case).",
    create: true,
    patch: true,
  }),
  localUrl: z
    .string()
    .trim()
    .refine(
      isLocalUrl,
      "must be an absolute http:// or https:// URL with a host and no credentials, such as http://localhost:8080",
    )
    .meta({
      description:
        "The local address the tunnel exposes, as the connector reaches it, such as `http://localhost:8080`.",
      create: true,
      patch: true,
    }),
  popId: idRef("Id of the landing point (point of presence) where the tunnel lands (see `nsp:link:getLinkPops`).").meta(
    { create: true, patch: true },
  ),
  popId2: idRef(
    "Id of a second landing point for redundancy; must differ from `popId`. Left to the API (none) when " +
      "unset; removing it from the program removes the second landing point.",
  )
    .nullable()
    .optional()
    .meta({ create: true, patch: true }),
  credentialRotation: rotationTrigger(
    "Any string or number; changing it (or removing it) rotates the tunnel's credential through the API's " +
      "token endpoint, and `credential` holds the new one. The API never sees this value.",
  ),
});

const tunnelState = z.object({
  address: z.string().meta({ description: "The address the tunnel holds while it exists." }),
  credential: oneTimeSecret(
    "The connector's credential. The API returns it only when the tunnel is created and when the " +
      "credential is rotated, so it is kept from the state on every refresh. Null after an import: change " +
      "`credentialRotation` to get one.",
  ),
  credentialIssuedAt: z.string().nullable().optional().meta({
    description:
      "When the current credential was issued; a change on refresh means it was rotated outside this program.",
  }),
  createdAt: z.string().meta({ description: "When the tunnel was created." }),
});

type TunnelState = z.output<typeof tunnelArgs> & z.output<typeof tunnelState>;

// Where the credential sits in the create and rotate answers is not documented; `credential` is
// the emulator's choice, `token` (the endpoint's name) is accepted too.
const tunnels = collection({
  token: TOKEN,
  path: "/link/tunnels",
  args: tunnelArgs,
  state: tunnelState,
  idOnWire: z.number().int(),
  wireExtras: { token: z.string().nullish() },
  id: apiId((id) => tunnelIdOf(TOKEN, id)),
  // Null when this answer carries none; the framework then keeps the one from the prior state.
  adjust: (state, raw) => ({
    ...state,
    credential: state.credential ?? (raw.token as string | null | undefined) ?? null,
  }),
});

async function rotate(ctx: OperationContext, id: string): Promise<TunnelState> {
  const { state } = tunnels.toState(
    await ctx.client.post(`${tunnels.itemPath(id)}/token`, undefined, { schema: tunnels.wire, signal: ctx.signal }),
  );
  if (state.credential === null)
    throw new Error(`${TOKEN}: the credential of tunnel ${id} was rotated, but the API's answer carried no credential`);
  return state;
}

export const tunnel = tunnels.resource({
  since: "0.1.0",
  description:
    "A tunnel that exposes a local address through a landing point of the service. Its credential, for " +
    "the connector, is returned once and kept as a secret output (`credential`); change " +
    "`credentialRotation` to rotate it. Serve hostnames through it with `nsp:link:TunnelHostnames`. " +
    "Deleting a tunnel frees its address, deletes the edge sites its hostname lists made and points other " +
    "sites that used it back at their own origin.",
  importId: "<tunnelId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.popId2 !== undefined && args.popId2 !== null && args.popId2 === args.popId)
      failures.push({ property: "popId2", reason: "must differ from popId (a second landing point)" });
    return failures;
  },

  async create(ctx, args) {
    // Names are unique in the account (ignoring case); the URL and landing point must match too.
    const matches = (t: Item) =>
      String(t.name).toLowerCase() === args.name.toLowerCase() &&
      t.local_url === args.localUrl &&
      String(t.pop_id) === args.popId;
    const created = await tunnels.create(ctx, `tunnel ${args.name}`, args, naturalKey(matches));
    if (created.state.credential !== null) return created;
    // Adopted after a lost answer: the credential went with it, and only a rotation shows one again.
    ctx.progress(created.id, created.state);
    return { id: created.id, state: await rotate(ctx, created.id) };
  },

  async read(ctx, id, prior) {
    const tunnelId = tunnelIdOf(TOKEN, id);
    const found = await tunnels.read(ctx, tunnelId);
    if (!found) return undefined;
    const { state } = found;
    if (
      prior.credential &&
      prior.credentialIssuedAt &&
      state.credentialIssuedAt &&
      state.credentialIssuedAt !== prior.credentialIssuedAt
    ) {
      ctx.log(
        "warning",
        `the credential of tunnel ${tunnelId} was rotated outside this program, so the one in the state no ` +
          `longer works; change credentialRotation to issue a new one`,
      );
    }
    return { id: tunnelId, state };
  },

  async update(ctx, id, news, olds, changed) {
    const tunnelId = tunnelIdOf(TOKEN, id);
    // The credential is carried over from olds unless this update rotates it. If the rotation
    // fails after the patch, the whole update fails, so the next `up` patches (idempotently)
    // and rotates again.
    const state: TunnelState = await tunnels.update(ctx, tunnelId, news, olds, changed);
    return changed.includes("credentialRotation") ? rotate(ctx, tunnelId) : state;
  },
});
