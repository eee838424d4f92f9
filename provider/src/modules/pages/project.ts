import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { createOnce } from "../../framework/create-once";

const TOKEN = "nsp:pages:Project";
import { NUMERIC_ID as NUMERIC } from "../../framework/ids";

/** A project's id as the path wants it; a malformed import id is an error before any request. */
function projectIdOf(id: string): string {
  if (!NUMERIC.test(id)) throw new Error(`${TOKEN}: "${id}" is not a static-site project id; a project is known by its numeric id (<projectId>)`);
  return id;
}

const projectArgs = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,56}[a-z0-9])?$/, "must be 1 to 58 lower-case letters, digits or '-', starting and ending with a letter or digit")
    .meta({
      key: true,
      description: "Name of the project, also its subdomain under the static-site domain; unique across the platform. The API cannot rename a project, so a change replaces it.",
      create: true,
      replace: true,
    }),
});

const projectState = z.object({
  subdomain: z.string().nullable().optional().meta({ description: "The host name the live deploy is served on." }),
  liveDeployId: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Id of the live deploy; null until a deploy is finished. Deploys are made by deploy tooling, not by this resource.", wireInteger: true }),
  createdAt: z.string().meta({ description: "When the project was created." }),
});

const api = wireModel(projectArgs, projectState, { id: z.number().int() });
const projectWire = api.wire as z.ZodType<z.output<typeof api.wire> & { id: number }>;
const toState = (raw: z.output<typeof projectWire>) => ({ id: String(raw.id), state: api.toState(raw) });

export const project = defineResource({
  token: TOKEN,
  description:
    "A static-site project. Deploys are started and finished by deploy tooling (imperative, not managed here); point an edge site at the project with `nsp:cdn:Site`'s origin. Deleting the project deletes its deploys.",
  args: projectArgs,
  state: projectState,
  importId: "<projectId>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `static-site project ${args.name}`,
      () => ctx.client.post("/pages/projects", api.createBody(args), { schema: projectWire, signal: ctx.signal }),
      async () => (await ctx.client.listAll("/pages/projects", { itemSchema: projectWire, signal: ctx.signal })).find((p) => p.name === args.name),
    );
    return toState(created);
  },

  async read(ctx, id) {
    const found = await ctx.client.getOrUndefined(`/pages/projects/${projectIdOf(id)}`, { schema: projectWire, signal: ctx.signal });
    return found && toState(found);
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/pages/projects/${projectIdOf(id)}`, { signal: ctx.signal });
  },
});
