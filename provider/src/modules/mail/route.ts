import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { fromWire, idRef } from "../../framework/wire";
import { isNotFound } from "../../client";
import { email, localPart } from "./fields";

const TOKEN = "nsp:mail:Route";
const LOCAL = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

const routeArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`), which must be in mode `forward` or `both`."),
  localPart: localPart.meta({ description: "The local part whose mail is forwarded. Stored lower-case; unique in the domain among mailboxes, aliases, groups and routes." }),
  dest: email.meta({ description: "Where the mail goes: an address added as an `nsp:mail:Destination` (use `dest: destination.addr`, so the destination is created first and deleted last)." }),
});

const routeState = z.object({
  address: z.string().meta({ description: "The forwarded address, `<localPart>@<domain>`." }),
  destConfirmed: z.boolean().optional().meta({ description: "Whether the destination has been confirmed; mail is forwarded only then." }),
  createdAt: z.string().optional().meta({ description: "When the route was created." }),
  updatedAt: z.string().optional().meta({ description: "When the route last changed." }),
});

const routeProperties = routeArgs.extend(routeState.shape);
type RouteState = z.output<typeof routeProperties>;

const routeWire = z.looseObject({ domain_id: z.number().int(), local_part: z.string(), dest: z.string() });
type RouteWire = z.output<typeof routeWire>;

const toState = (raw: RouteWire) => ({ id: `${raw.domain_id}/${raw.local_part}`, state: fromWire(routeProperties, raw) as RouteState });

function idOf(id: string): { domainId: string; local: string } {
  const m = /^([1-9][0-9]{0,15})\/(.+)$/.exec(id);
  const local = m?.[2]?.toLowerCase();
  if (!m || !local || !LOCAL.test(local)) throw new Error(`${TOKEN}: id "${id}" must have the form <domainId>/<localPart>`);
  return { domainId: m[1] as string, local };
}

function put(ctx: OperationContext, domainId: string, localPart: string, dest: string) {
  return ctx.client.put(`/mail/domains/${domainId}/routes`, { local_part: localPart, dest }, { schema: routeWire, signal: ctx.signal });
}

export const route = defineResource({
  token: TOKEN,
  description:
    "Forwards mail for one local part of a domain to a destination address. The API's PUT creates or replaces, so creating a route for a local part that already has one takes it over.",
  args: routeArgs,
  state: routeState,
  replaceOnChanges: ["domainId", "localPart"],
  importId: "<domainId>/<localPart>",

  async create(ctx, args) {
    return toState(await put(ctx, args.domainId, args.localPart, args.dest));
  },

  // There is no GET of one route: it is found in its domain's list.
  async read(ctx, id) {
    const { domainId, local } = idOf(id);
    try {
      const routes = await ctx.client.listAll(`/mail/domains/${domainId}/routes`, { itemSchema: routeWire, signal: ctx.signal });
      const found = routes.find((r) => r.local_part === local);
      return found ? toState(found) : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news) {
    const { domainId, local } = idOf(id);
    return toState(await put(ctx, domainId, local, news.dest)).state;
  },

  async delete(ctx, id) {
    const { domainId, local } = idOf(id);
    await ctx.client.delete(`/mail/domains/${domainId}/routes/${encodeURIComponent(local)}`, { signal: ctx.signal });
  },
});
