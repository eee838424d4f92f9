import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { org as organization } from "./organization";

const TOKEN = "nsp:org:Apps";
const APPS_ID = "apps";

const flag = (what: string) =>
  z
    .boolean()
    .optional()
    .meta({
      description: `Whether ${what} is switched on for everybody in the organisation; left as it is when unset.`,
      patch: true,
    });

const appsArgs = z.object({ mail: flag("mail"), meet: flag("meetings"), chat: flag("chat"), drive: flag("drive") });

// The organisation's id, from `GET /org`; the switches' own answer does not carry it.
const appsState = z.object({
  orgId: z.string().meta({ description: "Id of the organisation the switches belong to.", local: true }),
});

const api = wireModel(appsArgs, appsState);
// The switches are optional inputs but the API always answers all four: they are checked here,
// not left to the optional wire model.
const appsWire = z.looseObject({ mail: z.boolean(), meet: z.boolean(), chat: z.boolean(), drive: z.boolean() });
type State = z.output<typeof appsArgs> & z.output<typeof appsState>;

const toState = (orgId: string, raw: Record<string, unknown>): State => ({ ...api.toState(raw), orgId });

async function patch(
  ctx: OperationContext,
  orgId: string,
  args: z.output<typeof appsArgs>,
  keys: readonly string[],
): Promise<State> {
  return toState(
    orgId,
    await ctx.client.patch("/org/apps", api.patchBody(args, keys), { schema: appsWire, signal: ctx.signal }),
  );
}

// No shape: the switches are read from the organisation (GET /org) and patched at /org/apps.
export const apps = defineResource({
  since: "0.1.0",
  notListed: "account-wide switches the API makes with the account; import id `apps` by hand if wanted",
  token: TOKEN,
  description:
    "The applications (mail, meetings, chat, drive) switched on for everybody in the account's " +
    "organisation. One per account; switches left unset stay as they are. Deleting the resource leaves " +
    "the switches as they are (and says so).",
  args: appsArgs,
  state: appsState,
  importId: "apps",

  async create(ctx, args) {
    const org = await organization.current(ctx);
    const keys = api.patchKeys(Object.keys(args)).filter((k) => args[k] !== undefined && args[k] !== org.state.apps[k]);
    return {
      id: APPS_ID,
      state: keys.length === 0 ? { ...org.state.apps, orgId: org.id } : await patch(ctx, org.id, args, keys),
    };
  },

  async read(ctx, id) {
    if (id !== APPS_ID) throw new Error(`${TOKEN}: id "${id}" must be "${APPS_ID}" (one per account)`);
    const org = await organization.current(ctx);
    return { id, state: { ...org.state.apps, orgId: org.id } };
  },

  async update(ctx, _id, news, olds, changedInputs) {
    const keys = api.patchKeys(changedInputs).filter((k) => news[k] !== undefined);
    if (keys.length === 0) return { ...olds, ...news };
    return patch(ctx, olds.orgId, news, keys);
  },

  async delete(ctx) {
    ctx.log("info", `${TOKEN}: the organisation's application switches are left as they are`);
  },
});
