import { z } from "zod";
import { oneTimeSecret, rotationTrigger } from "../../framework/api/validators";
import { defineResource } from "../../framework/definition";
import { deepEqual } from "../../framework/engine/diff";
import { idRef, wireTimestamp } from "../../framework/api/wire";
import { clientIdOf, findClient } from "./client";

const TOKEN = "nsp:services:ClientDdnsToken";

const ddnsArgs = z.object({
  serviceId: idRef("Id of the resolver service.").meta({ replace: true }),
  clientGroupId: idRef("Id of the client group (`nsp:services:Client`).").meta({ replace: true }),
  rotation: rotationTrigger(
    "Any string or number; changing it issues a new token, and the old one stops working. The API never sees it.",
  ),
});

const ddnsState = z.object({
  token: oneTimeSecret(
    "The token a router or script presents to update the group's address. The API shows it only when it " +
      "is issued, so it is kept from the state on every refresh; null after an import (change `rotation` to " +
      "get one).",
  ),
  issuedAt: z.string().nullable().optional().meta({ description: "When the current token was issued." }),
});

// The answer to an issue is the token alone; a read finds the group's `ddns` in its client group.
const issuedWire = z.looseObject({ token: z.string(), issued_at: wireTimestamp });

const path = (serviceId: string, clientGroupId: string) => `/services/${serviceId}/clients/${clientGroupId}/ddns-token`;

// No shape: a token issued and revoked by POSTs to one path, not an object with its own id.
export const clientDdnsToken = defineResource({
  since: "0.1.0",
  notListed: "a one-time secret the API never shows again; rotate it instead",
  token: TOKEN,
  description:
    "The dynamic-address update token of a resolver client group. Creating it issues a token (a secret " +
    "shown by the API once); changing `rotation` issues a new one; deleting it revokes the token. The id " +
    "is `<serviceId>/<clientGroupId>`.",
  args: ddnsArgs,
  state: ddnsState,
  importId: "<serviceId>/<clientGroupId>",

  async create(ctx, args) {
    const issued = await ctx.client.post(
      path(args.serviceId, args.clientGroupId),
      {},
      { schema: issuedWire, signal: ctx.signal },
    );
    return {
      id: `${args.serviceId}/${args.clientGroupId}`,
      state: { ...args, token: issued.token, issuedAt: issued.issued_at },
    };
  },

  async read(ctx, id) {
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id);
    const found = await findClient(ctx, serviceId, clientGroupId);
    // A revoked token is gone even though its client group remains.
    if (!found?.ddns.configured) return undefined;
    return {
      id: `${serviceId}/${clientGroupId}`,
      state: { serviceId, clientGroupId, token: null, issuedAt: found.ddns.issued_at },
    };
  },

  async update(ctx, id, news, olds, changed) {
    if (!changed.includes("rotation") || deepEqual(news.rotation, olds.rotation)) return { ...olds, ...news };
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id);
    const issued = await ctx.client.post(
      path(serviceId, clientGroupId),
      {},
      { schema: issuedWire, signal: ctx.signal },
    );
    return { ...olds, ...news, token: issued.token, issuedAt: issued.issued_at };
  },

  async delete(ctx, id) {
    const { serviceId, clientGroupId } = clientIdOf(TOKEN, id);
    await ctx.client.post(path(serviceId, clientGroupId), { revoke: true }, { signal: ctx.signal });
  },
});
