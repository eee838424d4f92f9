import { ownIdOf } from "../../framework/api/ids";
import { z } from "zod";
import { collection, apiId, naturalKey } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:pages:Project";

/** A project's id as the path wants it; a malformed import id is an error before any request. */
function projectIdOf(id: string): string {
  return ownIdOf(TOKEN, id, { what: "static-site project", form: "<projectId>" });
}

const projectArgs = z.object({
  name: z
    .string()
    .regex(
      /^[a-z0-9]([a-z0-9-]{0,56}[a-z0-9])?$/,
      "must be 1 to 58 lower-case letters, digits or '-', starting and ending with a letter or digit",
    )
    .meta({
      key: true,
      description:
        "Name of the project, also its subdomain under the static-site domain; unique across the platform. " +
        "The API cannot rename a project, so a change replaces it.",
      create: true,
      replace: true,
    }),
});

const projectState = z.object({
  subdomain: z.string().nullable().optional().meta({ description: "The host name the live deploy is served on." }),
  liveDeployId: z.string().nullable().optional().meta({
    description:
      "Id of the live deploy; null until a deploy is finished. Deploys are made by deploy tooling, not by this resource.",
    wireInteger: true,
  }),
  createdAt: z.string().meta({ description: "When the project was created." }),
});

const projects = collection({
  token: TOKEN,
  path: "/pages/projects",
  args: projectArgs,
  state: projectState,
  idOnWire: z.number().int(),
  id: apiId(projectIdOf),
});

export const project = projects.resource({
  since: "0.1.0",
  description:
    "A static-site project. Deploys are started and finished by deploy tooling (imperative, not managed " +
    "here); point an edge site at the project with `nsp:cdn:Site`'s origin. Deleting the project deletes " +
    "its deploys.",
  importId: "<projectId>",

  create: (ctx, args) =>
    projects.create(
      ctx,
      `static-site project ${args.name}`,
      args,
      naturalKey((p) => p.name === args.name),
    ),
});
