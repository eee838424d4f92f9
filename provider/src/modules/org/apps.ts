import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";

const TOKEN = "nsp:org:Apps";
const APPS_ID = "apps";
const KEYS = ["mail", "meet", "chat", "drive"] as const;

const flag = (what: string) => z.boolean().optional().meta({ description: `Whether ${what} is switched on for everybody in the organisation; left as it is when unset.` });

const appsArgs = z.object({ mail: flag("mail"), meet: flag("meetings"), chat: flag("chat"), drive: flag("drive") });

const appsState = z.object({ orgId: z.string().meta({ description: "Id of the organisation the switches belong to." }) });

const properties = appsArgs.extend(appsState.shape);
type State = z.output<typeof properties>;
const orgWire = z.looseObject({ id: z.string(), apps: z.looseObject({ mail: z.boolean(), meet: z.boolean(), chat: z.boolean(), drive: z.boolean() }) });
const appsWire = z.looseObject({ mail: z.boolean(), meet: z.boolean(), chat: z.boolean(), drive: z.boolean() });

const toState = (orgId: string, raw: unknown): State => ({ ...(fromWire(appsArgs, raw) as z.output<typeof appsArgs>), orgId });

async function patch(ctx: OperationContext, orgId: string, args: z.output<typeof appsArgs>, keys: readonly (typeof KEYS)[number][]): Promise<State> {
  return toState(orgId, await ctx.client.patch("/org/apps", body(appsArgs, args, keys), { schema: appsWire, signal: ctx.signal }));
}

export const apps = defineResource({
  token: TOKEN,
  description:
    "The applications (mail, meetings, chat, drive) switched on for everybody in the account's organisation. One per account; switches left unset stay as they are. Deleting the resource leaves the switches as they are (and says so).",
  args: appsArgs,
  state: appsState,
  importId: "apps",

  async create(ctx, args) {
    const org = await ctx.client.get("/org", { schema: orgWire, signal: ctx.signal });
    const keys = KEYS.filter((k) => args[k] !== undefined && args[k] !== org.apps[k]);
    return { id: APPS_ID, state: keys.length === 0 ? toState(org.id, org.apps) : await patch(ctx, org.id, args, keys) };
  },

  async read(ctx, id) {
    if (id !== APPS_ID) throw new Error(`${TOKEN}: id "${id}" must be "${APPS_ID}" (one per account)`);
    const org = await ctx.client.get("/org", { schema: orgWire, signal: ctx.signal });
    return { id, state: toState(org.id, org.apps) };
  },

  async update(ctx, _id, news, olds, changedInputs) {
    const keys = KEYS.filter((k) => changedInputs.includes(k) && news[k] !== undefined);
    if (keys.length === 0) return { ...olds, ...news };
    return patch(ctx, olds.orgId, news, keys);
  },

  async delete(ctx) {
    ctx.log("info", `${TOKEN}: the organisation's application switches are left as they are`);
  },
});
