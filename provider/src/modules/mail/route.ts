import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { idRef } from "../../framework/api/wire";
import { listPath } from "../../framework/api/list-facts";
import { collection, apiId } from "../../framework/api/shapes/collection";
import { localPartKey } from "./fields";
import { email, MAIL_LOCAL_PART } from "../../framework/api/validators";
import { formOf, idFormat, parseId } from "../../framework/api/ids";

const TOKEN = "nsp:mail:Route";
// The local part is matched as the API stores it, lower case.
const ROUTE_ID = idFormat(
  "mail route",
  { name: "domainId" },
  { name: "localPart", pattern: MAIL_LOCAL_PART, example: "info", canonical: (s) => s.toLowerCase() },
);

const routeArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`), which must be in mode `forward` or `both`.").meta({
    replace: true,
  }),
  localPart: localPartKey("The local part whose mail is forwarded."),
  // The PUT that creates a route also changes its destination, with the same body.
  dest: email.meta({
    description:
      "Where the mail goes: an address added as an `nsp:mail:Destination` (use `dest: destination.addr`, so " +
      "the destination is created first and deleted last).",
    create: true,
  }),
});

const routeState = z.object({
  address: z.string().meta({ description: "The forwarded address, `<localPart>@<domain>`." }),
  destConfirmed: z
    .boolean()
    .optional()
    .meta({ description: "Whether the destination has been confirmed; mail is forwarded only then." }),
  createdAt: z.string().optional().meta({ description: "When the route was created." }),
  updatedAt: z.string().optional().meta({ description: "When the route last changed." }),
});

const api = wireModel(routeArgs, routeState);

// A route has no id of its own: its domain and local part name it.
const named = <T extends { domainId: string; localPart: string }>(state: T) => ({
  id: `${state.domainId}/${state.localPart}`,
  state,
});
const toState = (raw: Record<string, unknown>) => named(api.toState(raw));

function idOf(id: string): { domainId: string; local: string } {
  const { domainId, localPart } = parseId(TOKEN, ROUTE_ID, id);
  return { domainId, local: localPart };
}

// A domain's routes, each known in its paths by its local part. There is no GET of one route: a
// read finds it in its domain's list, which a domain that is gone answers with `not_found`.
const ROUTES = "/mail/domains/{domainId}/routes";
const routesOf = (domainId: string) =>
  collection({
    token: TOKEN,
    path: listPath(ROUTES, domainId),
    args: routeArgs,
    state: routeState,
    model: api,
    underParent: true,
    id: apiId((id) => idOf(id).local),
  });

function put(ctx: OperationContext, args: z.output<typeof routeArgs>) {
  return ctx.client.put(listPath(ROUTES, args.domainId), api.createBody(args), {
    schema: api.wire,
    signal: ctx.signal,
  });
}

// Not the collection's create and update: a PUT of the domain's routes creates and updates one.
export const route = defineResource({
  since: "0.1.0",
  token: TOKEN,
  list: {
    path: ROUTES,
    parent: { token: "nsp:mail:Domain", input: "domainId" },
    key: "local_part",
    label: (r, d) => `${String(r.local_part)}@${String(d?.name)}`,
    zoneOf: (_r, d) => d?.zone_id,
  },
  description:
    "Forwards mail for one local part of a domain to a destination address. The API's PUT creates or " +
    "replaces, so creating a route for a local part that already has one takes it over.",
  args: routeArgs,
  state: routeState,
  importId: formOf(ROUTE_ID),

  async create(ctx, args) {
    return toState(await put(ctx, args));
  },

  async read(ctx, id) {
    const { domainId, local } = idOf(id);
    const found = await routesOf(domainId).readFromList(ctx, (r) => r.local_part === local);
    return found && named(found.state);
  },

  async update(ctx, id, news) {
    const { domainId, local } = idOf(id);
    return toState(await put(ctx, { ...news, domainId, localPart: local })).state;
  },

  delete: (ctx, id) => routesOf(idOf(id).domainId).delete(ctx, id),
});
