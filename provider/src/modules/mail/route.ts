import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { idRef } from "../../framework/api/wire";
import { findInList, localPartKey } from "./fields";
import { email } from "../../framework/api/validators";

const TOKEN = "nsp:mail:Route";
const LOCAL = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

const routeArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`), which must be in mode `forward` or `both`.").meta({ replace: true }),
  localPart: localPartKey("The local part whose mail is forwarded."),
  // The PUT that creates a route also changes its destination, with the same body.
  dest: email.meta({
    description: "Where the mail goes: an address added as an `nsp:mail:Destination` (use `dest: destination.addr`, so the destination is created first and deleted last).",
    create: true,
  }),
});

const routeState = z.object({
  address: z.string().meta({ description: "The forwarded address, `<localPart>@<domain>`." }),
  destConfirmed: z.boolean().optional().meta({ description: "Whether the destination has been confirmed; mail is forwarded only then." }),
  createdAt: z.string().optional().meta({ description: "When the route was created." }),
  updatedAt: z.string().optional().meta({ description: "When the route last changed." }),
});

const api = wireModel(routeArgs, routeState);

// A route has no id of its own: its domain and local part name it.
const toState = (raw: Record<string, unknown>) => {
  const state = api.toState(raw);
  return { id: `${state.domainId}/${state.localPart}`, state };
};

function idOf(id: string): { domainId: string; local: string } {
  const m = /^([1-9][0-9]{0,15})\/(.+)$/.exec(id);
  const local = m?.[2]?.toLowerCase();
  if (!m || !local || !LOCAL.test(local)) throw new Error(`${TOKEN}: id "${id}" must have the form <domainId>/<localPart>`);
  return { domainId: m[1] as string, local };
}

function put(ctx: OperationContext, args: z.output<typeof routeArgs>) {
  return ctx.client.put(`/mail/domains/${args.domainId}/routes`, api.createBody(args), { schema: api.wire, signal: ctx.signal });
}

// No shape: a PUT of the domain's routes creates and updates it, and its delete is per local part.
export const route = defineResource({
  token: TOKEN,
  list: { path: "/mail/domains/{domainId}/routes", parent: { token: "nsp:mail:Domain", input: "domainId" }, key: "local_part", label: (r, d) => `${String(r.local_part)}@${String(d?.name)}`, zoneOf: (_r, d) => d?.zone_id },
  description:
    "Forwards mail for one local part of a domain to a destination address. The API's PUT creates or replaces, so creating a route for a local part that already has one takes it over.",
  args: routeArgs,
  state: routeState,
  importId: "<domainId>/<localPart>",

  async create(ctx, args) {
    return toState(await put(ctx, args));
  },

  // There is no GET of one route: it is found in its domain's list.
  async read(ctx, id) {
    const { domainId, local } = idOf(id);
    const found = await findInList(ctx, `/mail/domains/${domainId}/routes`, api.wire, (r) => r.local_part === local);
    return found && toState(found);
  },

  async update(ctx, id, news) {
    const { domainId, local } = idOf(id);
    return toState(await put(ctx, { ...news, domainId, localPart: local })).state;
  },

  async delete(ctx, id) {
    const { domainId, local } = idOf(id);
    await ctx.client.delete(`/mail/domains/${domainId}/routes/${encodeURIComponent(local)}`, { signal: ctx.signal });
  },
});
