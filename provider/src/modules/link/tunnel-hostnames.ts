import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { hostName, MANAGED_BY } from "../../framework/api/validators";
import { formOf, idFormat, parseId } from "../../framework/api/ids";

const TOKEN = "nsp:link:TunnelHostnames";
const HOSTNAMES_ID = idFormat(
  "tunnel hostname list",
  { name: "tunnelId" },
  { name: "managedBy", pattern: MANAGED_BY, example: "pulumi" },
);
export const HOSTNAMES_MAX = 100;

const hostnameList = z
  .array(hostName())
  .max(HOSTNAMES_MAX, `must have at most ${HOSTNAMES_MAX} items`)
  .superRefine((list, ctx) => {
    list.forEach((h, i) => {
      const first = list.indexOf(h);
      if (first !== i)
        ctx.addIssue({ code: "custom", path: [i], message: `${h} is listed twice (also at hostnames[${first}])` });
    });
  })
  // A set in meaning: sorted, so that the order a program lists them in is never a change.
  .transform((list) => [...list].sort());

const hostnamesArgs = z.object({
  tunnelId: idRef("Id of the tunnel that serves the hostnames.").meta({ replace: true }),
  managedBy: z
    .string()
    .regex(
      MANAGED_BY,
      "must be 1 to 64 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit (no `/`)",
    )
    .default("pulumi")
    .meta({
      key: true,
      description:
        "Name of this hostname list on the tunnel. The API keeps one list per tunnel and name, and touches " +
        "only the sites of that list, so several programs (or stacks) can each manage their own hostnames on " +
        "one tunnel under different names.",
      create: true,
      replace: true,
    }),
  hostnames: hostnameList.meta({
    description:
      `The hostnames served through the tunnel, at most ${HOSTNAMES_MAX}; each becomes an edge site ` +
      `pointed at the tunnel. A hostname dropped from the list has its site removed.`,
    create: true,
  }),
  adopt: z
    .boolean()
    .default(false)
    .meta({
      description:
        "Take over hostnames that are already edge sites of the account (made by hand, or by another list), " +
        "pointing them at the tunnel instead of failing. An adopted site that was not made by a list is let " +
        "go (pointed back at its own origin), not deleted, when it leaves the list. Also lets a replacement " +
        "(new `tunnelId` or `managedBy`) take the sites over, keeping their targets, instead of deleting them " +
        "first.",
      create: true,
    }),
});

const hostnamesState = z.object({
  sites: z
    .array(
      z
        .object({
          hostname: z.string().meta({ description: "The hostname." }),
          siteId: z
            .string()
            .meta({ description: "Id of its edge site (see `nsp:cdn:SiteSettings` and `nsp:security:Rule`)." }),
          target: z
            .string()
            .nullable()
            .optional()
            .meta({ description: "The name the hostname's DNS must point a CNAME at." }),
        })
        .meta({ typeName: "TunnelHostnameSite", description: "An edge site serving one hostname through the tunnel." }),
    )
    .meta({ description: "The edge sites of the hostnames, in hostname order." }),
});

const hostnamesProperties = hostnamesArgs.extend(hostnamesState.shape);
type HostnamesArgs = z.output<typeof hostnamesArgs>;
type HostnamesState = z.output<typeof hostnamesProperties>;

// Not the wire model's: the state is the entries of one list among the tunnel's, sorted, so the
// entries are checked field by field here. Every PUT sends the whole list (the create body).
const { createBody } = wireModel(hostnamesArgs, z.object({}));
const entryWire = z.looseObject({
  hostname: z.string(),
  managed_by: z.string().optional(),
  site_id: z.number().int(),
  target: z.string().nullable().optional(),
});
type EntryWire = z.output<typeof entryWire>;
const listWire = z.looseObject({ hostnames: z.array(entryWire) });
const tunnelWire = z.looseObject({ id: z.number().int(), hostnames: z.array(entryWire).optional() });

function idOf(id: string): { tunnelId: string; managedBy: string } {
  return parseId(TOKEN, HOSTNAMES_ID, id);
}

function toState(tunnelId: string, managedBy: string, adopt: boolean, entries: readonly EntryWire[]): HostnamesState {
  const sorted = [...entries].sort((a, b) => (a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0));
  return {
    tunnelId,
    managedBy,
    adopt,
    hostnames: sorted.map((e) => e.hostname),
    sites: sorted.map((e) => ({ hostname: e.hostname, siteId: String(e.site_id), target: e.target ?? null })),
  };
}

async function put(ctx: OperationContext, args: HostnamesArgs): Promise<HostnamesState> {
  const raw = await ctx.client.put(`/link/tunnels/${args.tunnelId}/hostnames`, createBody(args), {
    schema: listWire,
    signal: ctx.signal,
  });
  // The answer lists the sites of this list; an entry of another list would be the API's mistake.
  return toState(
    args.tunnelId,
    args.managedBy,
    args.adopt,
    raw.hostnames.filter((e) => e.managed_by === undefined || e.managed_by === args.managedBy),
  );
}

// No shape: one program's share of a tunnel's hostname list, written by PUT with the others' entries kept and read from the tunnel.
export const tunnelHostnames = defineResource({
  since: "0.1.0",
  token: TOKEN,
  list: {
    path: "/link/tunnels",
    parent: { token: "nsp:link:Tunnel", input: "tunnelId" },
    key: "managed_by",
    // One list per `managedBy` the tunnel's hostnames carry.
    fromParent: (t) => {
      const names = new Set(
        ((t.hostnames ?? []) as Record<string, unknown>[])
          .map((h) => h.managed_by)
          .filter((m): m is string => typeof m === "string"),
      );
      return [...names].sort().map((managed_by) => ({ managed_by }));
    },
    label: (h, t) => `${String(t?.name)}-${String(h.managed_by)}`,
  },
  description:
    "The hostnames one tunnel serves through the edge proxy, as one named list (`managedBy`). Every apply " +
    "sends the whole list to the API's idempotent hostnames endpoint, which creates an edge site for each " +
    "new hostname, points sites of the list back at the tunnel when they were pointed elsewhere, and " +
    "removes the sites of hostnames that left the list. Hostnames on the tunnel from other lists, and " +
    "other sites of the account, are never touched. Deleting this resource removes exactly its own " +
    "hostnames.\n\nRefresh reads the list from the tunnel: a hostname added to the list outside this " +
    "program appears and the next `up` removes it; a site deleted or repointed outside it is missing and " +
    "the next `up` restores it. Import id: `<tunnelId>/<managedBy>`.",
  args: hostnamesArgs,
  state: hostnamesState,
  // Until the old list lets its sites go, the new one cannot have them, unless it adopts them.
  deleteBeforeReplace: (olds, news) => !news.adopt && olds.hostnames.some((h) => news.hostnames.includes(h)),
  importId: formOf(HOSTNAMES_ID),

  async create(ctx, args) {
    const state = await put(ctx, args);
    return { id: `${args.tunnelId}/${args.managedBy}`, state };
  },

  async read(ctx, id, prior) {
    const { tunnelId, managedBy } = idOf(id);
    const raw = await ctx.client.getOrUndefined(`/link/tunnels/${tunnelId}`, {
      schema: tunnelWire,
      signal: ctx.signal,
    });
    if (!raw) return undefined;
    const importing = Object.keys(prior).length === 0;
    if (raw.hostnames === undefined) {
      if (importing)
        throw new Error(
          `${TOKEN}: the API did not list the hostnames of tunnel ${tunnelId}, so they cannot be imported`,
        );
      ctx.log(
        "warning",
        `the API did not list the hostnames of tunnel ${tunnelId}; changes made outside this program cannot be seen`,
      );
      return { id, state: { ...(prior as HostnamesState), tunnelId, managedBy } };
    }
    const entries = raw.hostnames.filter((e) => e.managed_by === managedBy);
    // Nothing under that name on the tunnel: there is no list to import.
    if (importing && entries.length === 0) return undefined;
    return { id: `${tunnelId}/${managedBy}`, state: toState(tunnelId, managedBy, prior.adopt ?? false, entries) };
  },

  async update(ctx, _id, news) {
    return put(ctx, news);
  },

  async delete(ctx, id) {
    const { tunnelId, managedBy } = idOf(id);
    await put(ctx, { tunnelId, managedBy, adopt: false, hostnames: [] });
  },
});
