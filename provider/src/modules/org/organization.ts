import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { singleton } from "../../framework/api/shapes/singleton";
import type { Item } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:org:Organization";
const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;

const orgArgs = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional().meta({ description: "Display name of the organisation; the API's (the account name) when unset.", patch: true }),
  slug: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit")
    .optional()
    .meta({ description: "Short name used in addresses; unique across the platform. The API's when unset.", patch: true }),
});

const orgState = z.object({
  owner: z.string().nullable().optional().meta({ description: "Email address of the account holder, who owns the organisation." }),
  apps: z
    .object({
      mail: z.boolean().meta({ description: "Mail." }),
      meet: z.boolean().meta({ description: "Meetings." }),
      chat: z.boolean().meta({ description: "Chat." }),
      drive: z.boolean().meta({ description: "Drive." }),
    })
    .meta({ typeName: "OrganizationApps", description: "Applications switched on for everybody (manage them with `nsp:org:Apps`)." }),
  createdAt: z.string().meta({ description: "When the organisation was created." }),
});

const org = singleton({ path: "/org", args: orgArgs, state: orgState, idOnWire: z.string() });
const { api } = org;

const toState = (raw: Item) => ({ id: String(raw.id), state: api.toState(raw) });

/** The account's organisation (`GET /org`, which creates it the first time). */
export async function currentOrganization(ctx: OperationContext) {
  return toState(await org.get(ctx));
}

export const organization = defineResource({
  token: TOKEN,
  description:
    "The account's organisation. Every account has exactly one, created by the API the first time it is read, so this resource adopts it and manages its name and slug; inputs left unset keep the API's values. The organisation cannot be deleted: deleting this resource only forgets it (and says so), leaving name and slug as they are. The import id is the organisation's `id` as `GET /org` shows it.",
  args: orgArgs,
  state: orgState,
  importId: "<orgId>",

  async create(ctx, args) {
    const current = await currentOrganization(ctx);
    const changed = api.patchKeys(Object.keys(args)).filter((k) => args[k] !== undefined && args[k] !== current.state[k]);
    if (changed.length === 0) return current;
    return toState(await org.patch(ctx, api.patchBody(args, changed)));
  },

  async read(ctx, id) {
    if (!ORG_ID.test(id)) throw new Error(`${TOKEN}: id "${id}" is not an organisation id (<orgId>, the id GET /org shows)`);
    const current = await currentOrganization(ctx);
    // One organisation per account: another id means the stack's organisation is not this account's.
    return current.id === id ? current : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    // The API cannot unset a name or slug; dropping one from the program leaves the last value.
    return org.update(ctx, news, olds, changedInputs);
  },

  async delete(ctx, id, olds) {
    ctx.log("info", `${TOKEN}: organisation ${id} (${olds.slug}) cannot be deleted through the API; it is left in place with its current name and slug`);
  },
});
