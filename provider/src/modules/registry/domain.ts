import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { dsRdata, reverseDomain } from "./fields";
import { hostName } from "../../framework/api/validators";

const TOKEN = "nsp:registry:Domain";

const domainArgs = z.object({
  name: reverseDomain.meta({
    key: true,
    description:
      "The domain object, a reverse zone of one of the maintainer's address blocks (or a name under it), " +
      "such as `2.0.192.in-addr.arpa`.",
    replace: true,
  }),
  // A PUT of both sets the delegation, on create and on every change.
  nserver: z
    .array(hostName())
    .max(10, "must have at most 10 items")
    .refine((a) => new Set(a).size === a.length, "must not repeat a name server")
    .default([])
    .meta({
      description: "Name servers the domain object delegates to, such as the DNS service's two name servers.",
      create: true,
    }),
  dsRdata: z
    .array(dsRdata)
    .max(10, "must have at most 10 items")
    .refine((a) => new Set(a).size === a.length, "must not repeat a DS record")
    .default([])
    .meta({
      description:
        "DS records of the delegation, as `<key tag> <algorithm> <digest type> <hex digest>` (see `ds` of " +
        "`nsp:dns:ZoneDnssec`). Needs `nserver`.",
      create: true,
    }),
});

const domainState = z.object({
  mntner: z.string().meta({ description: "The maintainer of the domain object." }),
  updatedAt: z.string().meta({ description: "When the domain object was last changed through the platform." }),
});

const api = wireModel(domainArgs, domainState);
const path = (name: string) => `/registry/domains/${encodeURIComponent(name)}`;

function nameOf(id: string): string {
  const r = reverseDomain.safeParse(id);
  if (!r.success || r.data !== id)
    throw new Error(
      `${TOKEN}: id "${id}" is not a reverse domain name in lower case without a trailing dot (<name>, such as 2.0.192.in-addr.arpa)`,
    );
  return id;
}

async function put(ctx: OperationContext, args: z.output<typeof domainArgs>) {
  return api.toState(
    await ctx.client.put(path(args.name), api.createBody(args), { schema: api.wire, signal: ctx.signal }),
  );
}

// No shape: a PUT at the domain's name creates and updates it, and it is read from the account's list.
export const domain = defineResource({
  since: "0.1.0",
  token: TOKEN,
  list: { path: "/registry/domains", key: "name" },
  description:
    "The name servers and DS records of a domain object in the registry database, changed through the " +
    "account's registry link (`nsp:registry:Link`). The domain object belongs to the registry: creating " +
    "the resource takes it over and sets its delegation, deleting it deletes the domain object there.",
  args: domainArgs,
  state: domainState,
  importId: "<name>",

  check(args) {
    return args.dsRdata.length > 0 && args.nserver.length === 0
      ? [
          {
            property: "dsRdata",
            reason: "needs at least one nserver: a DS record without a delegation cannot be published",
          },
        ]
      : [];
  },

  async create(ctx, args) {
    const state = await put(ctx, args);
    return { id: state.name, state };
  },

  async read(ctx, id) {
    const name = nameOf(id);
    const found = (await ctx.client.listAll("/registry/domains", { itemSchema: api.wire, signal: ctx.signal })).find(
      (d) => d.name === name,
    );
    return found ? { id: name, state: api.toState(found) } : undefined;
  },

  async update(ctx, _id, news) {
    // A PUT replaces the domain object's delegation as a whole.
    return put(ctx, news);
  },

  async delete(ctx, id) {
    await ctx.client.delete(path(nameOf(id)), { signal: ctx.signal });
  },
});
