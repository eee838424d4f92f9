// Tunnels: landing points, tunnels with a one-time credential, and the hostnames a tunnel serves
// through the edge proxy (see ../link/sites.ts).
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { assignDefined, checkUniqueName, collection } from "../model/collection";
import { normalizeHostnames } from "../model/names";
import { paginate, pagingOnlyQuery } from "../model/paging";
import { type Env, route } from "../pipeline/route";
import { httpUrl } from "../util/url";
import { putHostnames, releaseTunnel, tunnelHostnames } from "./sites";
import { type LinkTables, type TunnelRow, allocateAddress, linkFor, newCredential, popView } from "./state";

const TUNNEL_NAME_MAX = 100;
const LOCAL_URL_MAX = 2048;
const HOSTNAMES_MAX = 100;
const MANAGED_BY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const name = z.string().trim().min(1).max(TUNNEL_NAME_MAX);
const localUrl = z.string().trim().min(1).max(LOCAL_URL_MAX);
const popId = z.int().min(1);

const createBody = z.strictObject({
  name,
  local_url: localUrl,
  pop_id: popId,
  pop_id2: popId.nullable().optional(),
});

const patchBody = z.strictObject({
  name: name.optional(),
  local_url: localUrl.optional(),
  pop_id: popId.optional(),
  pop_id2: popId.nullable().optional(),
});

const hostnamesBody = z.strictObject({
  managed_by: z.string().regex(MANAGED_BY, {
    error: "must be 1 to 64 letters, digits, '.', '_', ':' or '-', starting with a letter or digit",
  }),
  hostnames: z.array(z.string()).max(HOSTNAMES_MAX),
  adopt: z.boolean().optional(),
});

type Ctx = Env & { account: { name: string } };

/** The address of the service the tunnel exposes: an http:// or https:// URL with a host, as the connector reaches it. */
function localUrlProblem(value: string): string | null {
  const url = httpUrl(value);
  if (!url) return "must be an absolute http:// or https:// URL such as http://localhost:8080";
  if (url.hostname === "") return "must name a host";
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  if (url.hash !== "") return "must not have a fragment";
  return null;
}

function checkPop(ctx: Ctx, t: LinkTables, field: string, id: number): void {
  const pop = t.pops.get(id);
  if (!pop || pop.account !== ctx.account.name)
    throw invalid(field, `no point of presence ${id} in this account (see GET /link/pops)`);
}

function checkName(ctx: Ctx, t: LinkTables, value: string, self?: number): void {
  checkUniqueName(ctx.store.list(t.tunnels, ctx.account.name), value, "a tunnel", self);
}

function checkLocalUrl(value: string): void {
  const problem = localUrlProblem(value);
  if (problem) throw invalid("local_url", problem);
}

function tunnelView(ctx: Ctx, t: LinkTables, tn: TunnelRow) {
  return {
    id: tn.id,
    name: tn.name,
    local_url: tn.local_url,
    pop_id: tn.pop_id,
    pop_id2: tn.pop_id2,
    address: tn.address,
    hostnames: tunnelHostnames(ctx, t, tn),
    credential_issued_at: tn.credential_issued_at,
    created_at: tn.created_at,
  };
}

/** The connector's credential is shown by the create and token answers only. */
const withCredential = (tn: TunnelRow, ctx: Ctx) => ({
  ...tunnelView(ctx, linkFor(ctx), tn),
  credential: newCredential(),
});

const tunnels = collection({
  path: "/link/tunnels",
  what: "tunnel",
  table: (ctx) => linkFor(ctx).tunnels,
  view: (tn, ctx) => tunnelView(ctx, linkFor(ctx), tn),
  create: {
    body: createBody,
    answer: withCredential,
    build: (ctx) => {
      const { store, account, body } = ctx;
      checkLocalUrl(body.local_url);
      const t = linkFor(ctx);
      checkPop(ctx, t, "pop_id", body.pop_id);
      const pop2 = body.pop_id2 ?? null;
      if (pop2 !== null) {
        checkPop(ctx, t, "pop_id2", pop2);
        if (pop2 === body.pop_id) throw invalid("pop_id2", "must differ from pop_id");
      }
      checkName(ctx, t, body.name);
      const now = store.timestamp();
      return {
        id: store.nextId(),
        account: account.name,
        name: body.name,
        local_url: body.local_url,
        pop_id: body.pop_id,
        pop_id2: pop2,
        address: allocateAddress(t),
        credential_issued_at: now,
        created_at: now,
      };
    },
  },
  patch: {
    body: patchBody,
    check: ({ body }) => body.local_url === undefined || checkLocalUrl(body.local_url),
    apply: (ctx, tunnel) => {
      const { body } = ctx;
      const t = linkFor(ctx);
      if (body.pop_id !== undefined) checkPop(ctx, t, "pop_id", body.pop_id);
      if (body.pop_id2 !== undefined && body.pop_id2 !== null) checkPop(ctx, t, "pop_id2", body.pop_id2);
      const pop = body.pop_id ?? tunnel.pop_id;
      const pop2 = body.pop_id2 === undefined ? tunnel.pop_id2 : body.pop_id2;
      if (pop2 === pop)
        throw invalid(
          body.pop_id2 === undefined ? "pop_id" : "pop_id2",
          body.pop_id2 === undefined ? "must differ from the tunnel's pop_id2" : "must differ from pop_id",
        );
      if (body.name !== undefined) checkName(ctx, t, body.name, tunnel.id);
      assignDefined(tunnel, { ...body, pop_id: pop, pop_id2: pop2 }, ["name", "local_url", "pop_id", "pop_id2"]);
    },
  },
  // Removing the row is what frees the address: allocation skips only addresses in use.
  remove: (ctx, tunnel) => releaseTunnel(ctx, linkFor(ctx), tunnel),
});

export const linkRoutes = [
  route({
    method: "GET",
    path: "/link/pops",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(ctx.store.list(linkFor(ctx).pops, ctx.account.name), ctx.query, popView),
  }),

  ...tunnels.routes,

  route({
    method: "PUT",
    path: "/link/tunnels/:id/hostnames",
    scope: "write",
    body: hostnamesBody,
    handler: (ctx) => {
      const { body } = ctx;
      const normalized = normalizeHostnames(body.hostnames, "app.example.com");
      const tunnel = tunnels.own(ctx, ctx.params.id);
      return putHostnames(ctx, linkFor(ctx), tunnel, body.managed_by, normalized, body.adopt ?? false);
    },
  }),

  tunnels.member("POST", "token", (tunnel, ctx) => {
    tunnel.credential_issued_at = ctx.store.timestamp();
    return withCredential(tunnel, ctx);
  }),
];
