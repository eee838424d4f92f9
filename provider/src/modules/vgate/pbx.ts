import { z } from "zod";
import { isApiError, isNotFound } from "../../client";
import { defineResource, type OperationContext } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { apiObject, name, timezone } from "./fields";
import { pbxIdOf, pbxPath } from "./ids";

const TOKEN = "nsp:vgate:Pbx";
export const TEMPLATES = ["small-office", "reception", "after-hours", "contact-centre", "conference", "personal", "blank"] as const;

const pbxArgs = z.object({
  name: name.meta({ description: "Display name of the PBX." }),
  city: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "Where the PBX runs (an id from `nsp:vgate:getCities`); the API picks one when unset. A change moves the PBX, which the gateway refuses while a call is up." }),
  timezone: timezone.optional().meta({ description: "IANA time zone of the PBX's clock (schedules, business hours); the API uses the city's when unset." }),
  template: z.enum(TEMPLATES).optional().meta({ description: "What the PBX starts with (see `nsp:vgate:getTemplates`); the API's default when unset. Only used at creation, so a change replaces the PBX." }),
  language: z.enum(["en", "zh"]).optional().meta({ description: "Language of the PBX's prompts." }),
  settings: apiObject("PBX-wide settings, replaced whole on change.").optional(),
});

const pbxState = z.object({
  sipPasswords: z
    .record(z.string(), z.string())
    .optional()
    .meta({
      description:
        "SIP passwords of the extensions the template made, by extension number. The API shows them once, at creation; they are kept from the state on every refresh (empty after an import).",
    }),
  status: z.string().optional().meta({ description: "`active`, or `paused` while outbound calls are paused." }),
  callsUp: z.number().int().optional().meta({ description: "Calls up when the PBX was last read." }),
  sipDomain: z.string().optional().meta({ description: "SIP domain that phones register at." }),
  reloadedAt: z.string().nullable().optional().meta({ description: "When the configuration was last applied by a reload." }),
  createdAt: z.string().optional().meta({ description: "When the PBX was created." }),
  updatedAt: z.string().optional().meta({ description: "When the PBX was last changed." }),
});

const pbxProperties = pbxArgs.extend(pbxState.shape);
type PbxState = z.output<typeof pbxProperties>;

const pbxWire = z.looseObject({
  id: z.string(),
  name: z.string(),
  extensions: z.array(z.looseObject({ number: z.string(), sip_password: z.string() })).optional(),
});
type PbxWire = z.output<typeof pbxWire>;

function toState(raw: PbxWire): PbxState {
  const { extensions, ...rest } = raw;
  const state = fromWire(pbxProperties, rest) as PbxState;
  if (extensions) state.sipPasswords = Object.fromEntries(extensions.map((e) => [e.number, e.sip_password]));
  return state;
}

async function move(ctx: OperationContext, id: string, city: string): Promise<PbxWire> {
  try {
    return await ctx.client.post(pbxPath(id, "move"), { city }, { schema: pbxWire, signal: ctx.signal });
  } catch (e) {
    if (isApiError(e) && e.code === "conflict") throw new Error(`${TOKEN}: the gateway refused to move PBX ${id} to ${city}: ${e.serverMessage || e.message}`, { cause: e });
    throw e;
  }
}

export const pbx = defineResource({
  token: TOKEN,
  description:
    "A cloud PBX. A template gives it a starting set of extensions, whose SIP passwords come back once, as the secret `sipPasswords`. A new `city` moves the PBX in place (refused while a call is up). Deleting the PBX removes everything in it and releases its platform numbers.",
  args: pbxArgs,
  state: pbxState,
  replaceOnChanges: ["template"],
  secrets: ["sipPasswords"],
  oneTime: ["sipPasswords"],
  importId: "<pbx>",

  async create(ctx, args) {
    const created = await ctx.client.post("/vgate/pbx", body(pbxArgs, args, ["name", "city", "timezone", "template", "language"]), { schema: pbxWire, signal: ctx.signal });
    const state = toState(created);
    // The passwords are in this answer only; the engine must have them even if the patch fails.
    ctx.progress(created.id, state);
    if (args.settings === undefined) return { id: created.id, state };
    const patched = await ctx.client.patch(pbxPath(created.id), body(pbxArgs, args, ["settings"]), { schema: pbxWire, signal: ctx.signal });
    return { id: created.id, state: { ...toState(patched), sipPasswords: state.sipPasswords } };
  },

  async read(ctx, id) {
    const pbxId = pbxIdOf(TOKEN, id);
    try {
      return { id: pbxId, state: toState(await ctx.client.get(pbxPath(pbxId), { schema: pbxWire, signal: ctx.signal })) };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds, changedInputs) {
    const pbxId = pbxIdOf(TOKEN, id);
    let state: PbxState = { ...olds, ...news };
    if (changedInputs.includes("city") && news.city !== undefined) {
      state = { ...toState(await move(ctx, pbxId, news.city)), sipPasswords: olds.sipPasswords };
      ctx.progress(pbxId, state);
    }
    // Dropping settings from the program clears them; a dropped time zone or language stays as it is.
    const patchable = (["name", "timezone", "language", "settings"] as const).filter((k) => changedInputs.includes(k) && (news[k] !== undefined || k === "settings"));
    if (patchable.length) {
      const patch = body(pbxArgs, { ...news, settings: news.settings ?? {} }, patchable);
      state = { ...toState(await ctx.client.patch(pbxPath(pbxId), patch, { schema: pbxWire, signal: ctx.signal })), sipPasswords: olds.sipPasswords };
    }
    return state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(pbxPath(pbxIdOf(TOKEN, id)), { signal: ctx.signal });
  },
});
