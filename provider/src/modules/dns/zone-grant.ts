import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { childIdOf, NUMERIC_ID } from "../../framework/api/ids";
import { EMAIL, email } from "../../framework/api/validators";

const TOKEN = "nsp:dns:ZoneGrant";
const grantArgs = z.object({
  zoneId: idRef("Id of the zone to share.").meta({ replace: true }),
  // In the path of the PUT, not in its body.
  email: email.meta({
    key: true,
    description: "Address of the person the zone is shared with. Stored lower-case.",
    replace: true,
  }),
  // The PUT creates or updates, so its body is the same for both.
  role: z
    .enum(["viewer", "operator"])
    .meta({ description: "`viewer` may read the zone; `operator` may also change its records.", create: true }),
});

const grantState = z.object({
  createdAt: z.string().meta({ description: "When the zone was first shared with this person." }),
});

// A grant as its zone lists it: the zone id is in the path, not in the object.
const api = wireModel(grantArgs.omit({ zoneId: true }), grantState);
const grantWire = api.wire as z.ZodType<Record<string, unknown> & { email: string }>;

function parseId(id: string, zoneId?: string) {
  const { parent: parentId, child } = childIdOf(TOKEN, id, "<zoneId>/<email>", NUMERIC_ID, EMAIL, zoneId);
  return { zoneId: parentId, email: child };
}

function toState(zoneId: string, raw: z.output<typeof grantWire>) {
  return { id: `${zoneId}/${raw.email}`, state: { ...api.toState(raw), zoneId } };
}

const path = (zoneId: string, address: string) => `/dns/zones/${zoneId}/grants/${encodeURIComponent(address)}`;

// No shape: a PUT at <zone>/grants/<email> creates and updates it (the key is in the path), and it is read from the zone's list.
export const zoneGrant = defineResource({
  since: "0.1.0",
  token: TOKEN,
  list: {
    path: "/dns/zones/{zoneId}/grants",
    parent: { token: "nsp:dns:Zone", input: "zoneId" },
    key: "email",
    label: (g, z) => `${String(z?.name)}-${String(g.email)}`,
    zoneOf: (_g, z) => z?.id,
  },
  description: "Shares a zone with a person, by email address, as viewer or operator. Deleting it stops sharing.",
  args: grantArgs,
  state: grantState,
  importId: "<zoneId>/<email>",

  async create(ctx, args) {
    // The PUT creates or updates, so an existing grant for the address is adopted.
    return toState(
      args.zoneId,
      await ctx.client.put(path(args.zoneId, args.email), api.createBody(args), {
        schema: grantWire,
        signal: ctx.signal,
      }),
    );
  },

  async read(ctx, id, prior) {
    const { zoneId, email: address } = parseId(id.toLowerCase(), prior.zoneId);
    // There is no GET of one grant; the zone's list is short.
    const found = (
      await ctx.client.listAllOrUndefined(`/dns/zones/${zoneId}/grants`, { itemSchema: grantWire, signal: ctx.signal })
    )?.find((g) => g.email.toLowerCase() === address);
    return found && toState(zoneId, found);
  },

  async update(ctx, id, news, olds) {
    const { zoneId, email: address } = parseId(id, olds.zoneId);
    return toState(
      zoneId,
      await ctx.client.put(path(zoneId, address), api.createBody(news), { schema: grantWire, signal: ctx.signal }),
    ).state;
  },

  async delete(ctx, id, olds) {
    const { zoneId, email: address } = parseId(id, olds.zoneId);
    await ctx.client.delete(path(zoneId, address), { signal: ctx.signal });
  },
});
