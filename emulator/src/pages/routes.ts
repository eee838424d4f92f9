// Static sites: projects and their deploys. A deploy is started, files go into it (not part of
// this API), and finishing it makes it live; an earlier finished deploy can be made live again.
import { z } from "zod";
import { ApiError, notFound } from "../pipeline/errors";
import { collection } from "../model/collection";
import { type DeployRow, PAGES_DOMAIN, type PagesProjectRow, pagesProjects } from "./state";

/** The name is the project's subdomain under the pages domain, so it is one DNS label. */
const PROJECT_NAME = /^[a-z0-9]([a-z0-9-]{0,56}[a-z0-9])?$/;
const RECENT_DEPLOYS = 10;

const createBody = z.strictObject({
  name: z.string().regex(PROJECT_NAME, {
    error: "must be 1 to 58 lower-case letters, digits or '-', starting and ending with a letter or digit",
  }),
});

function ownDeploy(p: PagesProjectRow, id: number): DeployRow {
  const d = p.deploys.find((x) => x.id === id);
  if (!d) throw notFound("deploy");
  return d;
}

function deployView(p: PagesProjectRow, d: DeployRow) {
  return {
    id: d.id,
    project_id: p.id,
    status: d.status,
    live: p.live_deploy_id === d.id,
    created_at: d.created_at,
    finished_at: d.finished_at,
  };
}

function projectView(p: PagesProjectRow) {
  return {
    id: p.id,
    name: p.name,
    subdomain: `${p.name}.${PAGES_DOMAIN}`,
    live_deploy_id: p.live_deploy_id,
    created_at: p.created_at,
  };
}

const projects = collection({
  path: "/pages/projects",
  what: "pages project",
  table: ({ store }) => pagesProjects(store),
  view: projectView,
  create: {
    body: createBody,
    build: ({ store, account, body }) => {
      // The subdomain is shared by every account, so the name is unique across the platform.
      for (const p of pagesProjects(store).values()) {
        if (p.name === body.name) throw new ApiError("conflict", `name: the project name ${body.name} is taken`);
      }
      return {
        id: store.nextId(),
        account: account.name,
        name: body.name,
        deploys: [],
        live_deploy_id: null,
        created_at: store.timestamp(),
      };
    },
  },
  get: (p) => ({
    ...projectView(p),
    deploys: p.deploys
      .slice(-RECENT_DEPLOYS)
      .reverse()
      .map((d) => deployView(p, d)),
  }),
  remove: true,
});

export const pagesRoutes = [
  ...projects.routes,

  projects.member("POST", "deploys", (p, ctx) => {
    const d: DeployRow = {
      id: ctx.store.nextId(),
      status: "uploading",
      created_at: ctx.store.timestamp(),
      finished_at: null,
    };
    p.deploys.push(d);
    ctx.status(201);
    return deployView(p, d);
  }),

  projects.member("POST", "deploys/:deploy/finish", (p, ctx) => {
    const d = ownDeploy(p, ctx.params.deploy);
    if (d.status !== "uploading") throw new ApiError("conflict", `deploy ${d.id} is already finished`);
    d.status = "ready";
    d.finished_at = ctx.store.timestamp();
    p.live_deploy_id = d.id;
    return deployView(p, d);
  }),

  projects.member("POST", "deploys/:deploy/activate", (p, ctx) => {
    const d = ownDeploy(p, ctx.params.deploy);
    if (d.status !== "ready") throw new ApiError("conflict", `deploy ${d.id} is not finished; finish it first`);
    p.live_deploy_id = d.id;
    return deployView(p, d);
  }),
];
