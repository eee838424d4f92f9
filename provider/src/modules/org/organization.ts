import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";

const TOKEN = "nsp:org:Organization";
const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;

const orgArgs = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional().meta({ description: "Display name of the organisation; the API's (the account name) when unset." }),
  slug: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit")
    .optional()
    .meta({ description: "Short name used in addresses; unique across the platform. The API's when unset." }),
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

const properties = orgArgs.extend(orgState.shape);
type State = z.output<typeof properties>;
const orgWire = z.looseObject({ id: z.string(), name: z.string(), slug: z.string() });
type OrgWire = z.output<typeof orgWire>;

const toState = (raw: OrgWire) => ({ id: raw.id, state: fromWire(properties, raw) as State });

export const organization = defineResource({
  token: TOKEN,
  description:
    "The account's organisation. Every account has exactly one, created by the API the first time it is read, so this resource adopts it and manages its name and slug; inputs left unset keep the API's values. The organisation cannot be deleted: deleting this resource only forgets it (and says so), leaving name and slug as they are. The import id is the organisation's `id` as `GET /org` shows it.",
  args: orgArgs,
  state: orgState,
  importId: "<orgId>",

  async create(ctx, args) {
    const current = await ctx.client.get("/org", { schema: orgWire, signal: ctx.signal });
    const changed = (["name", "slug"] as const).filter((k) => args[k] !== undefined && args[k] !== current[k]);
    if (changed.length === 0) return toState(current);
    return toState(await ctx.client.patch("/org", body(orgArgs, args, changed), { schema: orgWire, signal: ctx.signal }));
  },

  async read(ctx, id) {
    if (!ORG_ID.test(id)) throw new Error(`${TOKEN}: id "${id}" is not an organisation id (<orgId>, the id GET /org shows)`);
    const current = await ctx.client.get("/org", { schema: orgWire, signal: ctx.signal });
    // One organisation per account: another id means the stack's organisation is not this account's.
    return current.id === id ? toState(current) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    // The API cannot unset a name or slug; dropping one from the program leaves the last value.
    const changed = (["name", "slug"] as const).filter((k) => changedInputs.includes(k) && news[k] !== undefined);
    if (changed.length === 0) return { ...olds, ...news };
    return toState(await ctx.client.patch("/org", body(orgArgs, news, changed), { schema: orgWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id, olds) {
    ctx.log("info", `${TOKEN}: organisation ${id} (${olds.slug}) cannot be deleted through the API; it is left in place with its current name and slug`);
  },
});
