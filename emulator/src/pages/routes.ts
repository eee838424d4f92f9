// Static sites: projects and their deploys. A deploy is started, files go into it (not part of
// this API), and finishing it makes it live; an earlier finished deploy can be made live again.
import { z } from "zod";
import { ApiError, notFound } from "../errors";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import { type DeployRow, PAGES_DOMAIN, type PagesProjectRow, pagesProjects } from "./state";

/** The name is the project's subdomain under the pages domain, so it is one DNS label. */
export const PROJECT_NAME = /^[a-z0-9]([a-z0-9-]{0,56}[a-z0-9])?$/;
const RECENT_DEPLOYS = 10;

const createBody = z.strictObject({
  name: z.string().regex(PROJECT_NAME, { error: "must be 1 to 58 lower-case letters, digits or '-', starting and ending with a letter or digit" }),
});

type Ctx = Env & { account: { name: string } };

function own(ctx: Ctx, id: number): PagesProjectRow {
  return ctx.store.owned(pagesProjects(ctx.store), id, ctx.account.name, "pages project");
}

function ownDeploy(p: PagesProjectRow, id: number): DeployRow {
  const d = p.deploys.find((x) => x.id === id);
  if (!d) throw notFound("deploy");
  return d;
}

function deployView(p: PagesProjectRow, d: DeployRow) {
  return { id: d.id, project_id: p.id, status: d.status, live: p.live_deploy_id === d.id, created_at: d.created_at, finished_at: d.finished_at };
}

function projectView(p: PagesProjectRow) {
  return { id: p.id, name: p.name, subdomain: `${p.name}.${PAGES_DOMAIN}`, live_deploy_id: p.live_deploy_id, created_at: p.created_at };
}

export const pagesRoutes = [
  route({
    method: "GET",
    path: "/pages/projects",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => paginate(ctx.store.list(pagesProjects(ctx.store), ctx.account.name), ctx.query, projectView),
  }),

  route({
    method: "POST",
    path: "/pages/projects",
    scope: "write",
    body: createBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      // The subdomain is shared by every account, so the name is unique across the platform.
      for (const p of pagesProjects(store).values()) {
        if (p.name === body.name) throw new ApiError("conflict", `name: the project name ${body.name} is taken`);
      }
      const row: PagesProjectRow = { id: store.nextId(), account: account.name, name: body.name, deploys: [], live_deploy_id: null, created_at: store.timestamp() };
      pagesProjects(store).set(row.id, row);
      ctx.status(201);
      return projectView(row);
    },
  }),

  route({
    method: "GET",
    path: "/pages/projects/:id",
    scope: "read",
    handler: (ctx) => {
      const p = own(ctx, ctx.params.id);
      return { ...projectView(p), deploys: p.deploys.slice(-RECENT_DEPLOYS).reverse().map((d) => deployView(p, d)) };
    },
  }),

  route({
    method: "DELETE",
    path: "/pages/projects/:id",
    scope: "write",
    handler: (ctx) => {
      const p = own(ctx, ctx.params.id);
      pagesProjects(ctx.store).delete(p.id);
      return undefined;
    },
  }),

  route({
    method: "POST",
    path: "/pages/projects/:id/deploys",
    scope: "write",
    handler: (ctx) => {
      const p = own(ctx, ctx.params.id);
      const d: DeployRow = { id: ctx.store.nextId(), status: "uploading", created_at: ctx.store.timestamp(), finished_at: null };
      p.deploys.push(d);
      ctx.status(201);
      return deployView(p, d);
    },
  }),

  route({
    method: "POST",
    path: "/pages/projects/:id/deploys/:deploy/finish",
    scope: "write",
    handler: (ctx) => {
      const p = own(ctx, ctx.params.id);
      const d = ownDeploy(p, ctx.params.deploy);
      if (d.status !== "uploading") throw new ApiError("conflict", `deploy ${d.id} is already finished`);
      d.status = "ready";
      d.finished_at = ctx.store.timestamp();
      p.live_deploy_id = d.id;
      return deployView(p, d);
    },
  }),

  route({
    method: "POST",
    path: "/pages/projects/:id/deploys/:deploy/activate",
    scope: "write",
    handler: (ctx) => {
      const p = own(ctx, ctx.params.id);
      const d = ownDeploy(p, ctx.params.deploy);
      if (d.status !== "ready") throw new ApiError("conflict", `deploy ${d.id} is not finished; finish it first`);
      p.live_deploy_id = d.id;
      return deployView(p, d);
    },
  }),
];
