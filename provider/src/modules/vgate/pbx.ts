import { z } from "zod";
import { isApiError } from "../../client";
import type { OperationContext } from "../../framework/definition";
import { collection, apiId, postOnce } from "../../framework/api/shapes/collection";
import type { HeldKind, Holds } from "../../framework/definition/holds";
import { apiObject, name, timezone } from "./fields";
import { pbxIdOf, pbxPath } from "./ids";
import { extension } from "./extension";
import { inboundRoute } from "./inbound-route";
import { ivr } from "./ivr";
import { number } from "./number";
import { outboundRoute } from "./outbound-route";
import { queue } from "./queue";
import { ringGroup } from "./ring-group";
import { timeCondition } from "./time-condition";
import { trunk } from "./trunk";

const TOKEN = "nsp:vgate:Pbx";
export const TEMPLATES = [
  "small-office",
  "reception",
  "after-hours",
  "contact-centre",
  "conference",
  "personal",
  "blank",
] as const;

const pbxArgs = z.object({
  name: name.meta({ key: true, description: "Display name of the PBX.", create: true, patch: true }),
  city: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        "Where the PBX runs (an id from `nsp:vgate:getCities`); the API picks one when unset. A change moves " +
        "the PBX, which the gateway refuses while a call is up.",
      create: true,
    }),
  timezone: timezone.optional().meta({
    description: "IANA time zone of the PBX's clock (schedules, business hours); the API uses the city's when unset.",
    create: true,
    patch: true,
  }),
  template: z
    .enum(TEMPLATES)
    .optional()
    .meta({
      description:
        "What the PBX starts with (see `nsp:vgate:getTemplates`); the API's default when unset. Only used at " +
        "creation, so a change replaces the PBX.",
      create: true,
      replace: true,
    }),
  language: z
    .enum(["en", "zh"])
    .optional()
    .meta({ description: "Language of the PBX's prompts.", create: true, patch: true }),
  // Not in the documented create body: set by a patch after the create.
  settings: apiObject("PBX-wide settings, replaced whole on change.").optional().meta({ patch: true }),
});

const pbxState = z.object({
  sipPasswords: z
    .record(z.string(), z.string())
    .optional()
    .meta({
      description:
        "SIP passwords of the extensions the template made, by extension number. The API shows them once, at " +
        "creation; they are kept from the state on every refresh (empty after an import).",
      secret: true,
      oneTime: true,
      // Worked out from the answer's `extensions`, not a field of its own.
      local: true,
    }),
  status: z.string().optional().meta({ description: "`active`, or `paused` while outbound calls are paused." }),
  callsUp: z.number().int().optional().meta({ description: "Calls up when the PBX was last read." }),
  sipDomain: z.string().optional().meta({ description: "SIP domain that phones register at." }),
  reloadedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When the configuration was last applied by a reload." }),
  createdAt: z.string().optional().meta({ description: "When the PBX was created." }),
  updatedAt: z.string().optional().meta({ description: "When the PBX was last changed." }),
});

// The create answer lists the extensions the template made, with their SIP passwords.
const pbxs = collection({
  token: TOKEN,
  path: "/vgate/pbx",
  args: pbxArgs,
  state: pbxState,
  idOnWire: z.string(),
  id: apiId((id) => pbxIdOf(TOKEN, id)),
  wireExtras: { extensions: z.array(z.looseObject({ number: z.string(), sip_password: z.string() })).optional() },
  adjust(state, raw) {
    const extensions = raw.extensions as { number: string; sip_password: string }[] | undefined;
    if (extensions) state.sipPasswords = Object.fromEntries(extensions.map((e) => [e.number, e.sip_password]));
    return state;
  },
});
type PbxState = ReturnType<typeof pbxs.toState>["state"];

async function move(ctx: OperationContext, id: string, city: string): Promise<PbxState> {
  try {
    return pbxs.toState(await ctx.client.post(pbxPath(id, "move"), { city }, { schema: pbxs.wire, signal: ctx.signal }))
      .state;
  } catch (e) {
    if (isApiError(e) && e.code === "conflict")
      throw new Error(`${TOKEN}: the gateway refused to move PBX ${id} to ${city}: ${e.serverMessage || e.message}`, {
        cause: e,
      });
    throw e;
  }
}

type TemplateContents = Partial<
  Record<"extensions" | "groups" | "queues" | "ivrs" | "timeconds", { number?: unknown; name?: unknown }[]>
>;

/** One kind of object under a PBX; `template` says how a template's object of the kind is recognised. */
function pbxKind(
  of: HeldKind["of"],
  names: readonly [string, string],
  template?: { key: keyof TemplateContents; by: "number" | "name" },
): HeldKind & { template?: typeof template } {
  return {
    of,
    names,
    nameOf: (o) =>
      [o.number ?? o.e164, o.name]
        .filter((v) => v !== undefined && v !== null && v !== "")
        .map(String)
        .join(" ") || String(o.id),
    template,
  };
}

const pbxKinds = [
  pbxKind(number, ["number", "numbers"]),
  pbxKind(extension, ["extension", "extensions"], { key: "extensions", by: "number" }),
  pbxKind(trunk, ["trunk", "trunks"]),
  pbxKind(inboundRoute, ["inbound route", "inbound routes"]),
  pbxKind(outboundRoute, ["outbound route", "outbound routes"]),
  pbxKind(ivr, ["IVR", "IVRs"], { key: "ivrs", by: "name" }),
  pbxKind(ringGroup, ["ring group", "ring groups"], { key: "groups", by: "number" }),
  pbxKind(queue, ["queue", "queues"], { key: "queues", by: "number" }),
  pbxKind(timeCondition, ["time condition", "time conditions"], { key: "timeconds", by: "name" }),
];

// What the PBX's template made is what the program asked for with `template`, not an object it
// left unmanaged; the API lists each template's contents (by extension number, IVR name...).
const pbxHolds: Holds = {
  what: "PBX",
  kinds: pbxKinds,
  ownCost: "one list of the templates, for the objects the PBX's template made",
  async own(ctx, _id, pbx) {
    if (!pbx.template || pbx.template === "blank") return () => false;
    const templates = await ctx.client.listAll<TemplateContents & { id?: unknown }>("/vgate/templates", {
      signal: ctx.signal,
    });
    const contents = templates.find((t) => t.id === pbx.template) ?? {};
    return (kind, item) => {
      const from = (kind as (typeof pbxKinds)[number]).template;
      return (
        from !== undefined &&
        (contents[from.key] ?? []).some(
          (made) => made[from.by] !== undefined && String(made[from.by]) === String(item[from.by]),
        )
      );
    };
  },
};

export const pbx = pbxs.resource({
  since: "0.1.0",
  description:
    "A cloud PBX. A template gives it a starting set of extensions, whose SIP passwords come back once, " +
    "as the secret `sipPasswords`. A new `city` moves the PBX in place (refused while a call is up). " +
    "Deleting the PBX removes everything in it and releases its platform numbers: see Deleting.",
  holds: pbxHolds,
  importId: "<pbx>",

  async create(ctx, args) {
    // Posted once: a PBX has no natural key to find it by after a lost answer.
    const { id, state } = await pbxs.create(ctx, `PBX ${args.name}`, args, postOnce);
    // The passwords are in this answer only; the engine must have them even if the patch fails.
    ctx.progress(id, state);
    if (args.settings === undefined) return { id, state };
    return {
      id,
      state: { ...(await pbxs.update(ctx, id, args, state, ["settings"])), sipPasswords: state.sipPasswords },
    };
  },

  async read(ctx, id) {
    const pbxId = pbxIdOf(TOKEN, id);
    const found = await pbxs.read(ctx, pbxId);
    return found && { id: pbxId, state: found.state };
  },

  async update(ctx, id, news, olds, changedInputs) {
    const pbxId = pbxIdOf(TOKEN, id);
    let state: PbxState = { ...olds, ...news };
    if (changedInputs.includes("city") && news.city !== undefined) {
      state = { ...(await move(ctx, pbxId, news.city)), sipPasswords: olds.sipPasswords };
      ctx.progress(pbxId, state);
    }
    // Dropping settings from the program clears them; a dropped time zone or language stays as it is.
    const patchable = pbxs.api.patchKeys(changedInputs).filter((k) => news[k] !== undefined || k === "settings");
    if (patchable.length)
      state = {
        ...(await pbxs.update(ctx, pbxId, { ...news, settings: news.settings ?? {} }, olds, patchable)),
        sipPasswords: olds.sipPasswords,
      };
    return state;
  },
});
