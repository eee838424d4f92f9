import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { isNotFound } from "../../client";
import { E164, numberOf } from "./number";

const TOKEN = "nsp:voice:NumberEndpoint";
const FORM = "<number>/<pbxId>/<extensionId>";
const OBJECT_ID = /^[^/\s]+$/;

const endpointArgs = z.object({
  number: z.string().trim().regex(E164, "must be a voice number in E.164 form, such as +31205550001").meta({ description: "The voice number (`nsp:voice:Number` id)." }),
  pbxId: z.string().regex(OBJECT_ID, "must be the id of an existing PBX").meta({ description: "Id of the PBX (`nsp:vgate:Pbx`) that holds the extension." }),
  ext: z.string().regex(OBJECT_ID, "must be the id of an existing extension").meta({ description: "Id of the extension (`nsp:vgate:Extension`) that rings for the number. An extension rings for at most one number." }),
});

type EndpointArgs = z.output<typeof endpointArgs>;

const endpointState = z.object({
  numberLabel: z.string().nullable().optional().meta({ description: "The number's label, as the API has it." }),
});

const numberWire = z.looseObject({ number: z.string(), label: z.string().nullable().optional(), endpoints: z.array(z.looseObject({ pbx_id: z.string(), ext: z.string() })).optional() });

function idOf(id: string): EndpointArgs {
  const parts = id.split("/");
  if (parts.length !== 3 || !OBJECT_ID.test(parts[1] ?? "") || !OBJECT_ID.test(parts[2] ?? "")) throw new Error(`${TOKEN}: id "${id}" must have the form ${FORM}`);
  return { number: numberOf(TOKEN, parts[0] ?? "", FORM), pbxId: parts[1] ?? "", ext: parts[2] ?? "" };
}

const path = (a: EndpointArgs) => `/voice/numbers/${encodeURIComponent(a.number)}/endpoints`;

export const numberEndpoint = defineResource({
  token: TOKEN,
  description:
    "Makes a PBX extension ring for a voice number. There is no change in place: another number, PBX or extension is a new endpoint. An extension rings for at most one number, so moving an extension to another number removes the old endpoint first.",
  args: endpointArgs,
  state: endpointState,
  replaceOnChanges: ["number", "pbxId", "ext"],
  deleteBeforeReplace: (olds, news) => olds.pbxId === news.pbxId && olds.ext === news.ext,
  importId: FORM,

  async create(ctx, args) {
    const raw = await ctx.client.post(path(args), { pbx_id: args.pbxId, ext: args.ext }, { schema: numberWire, signal: ctx.signal });
    return { id: `${args.number}/${args.pbxId}/${args.ext}`, state: { ...args, numberLabel: raw.label ?? null } };
  },

  async read(ctx, id) {
    const key = idOf(id);
    try {
      const raw = await ctx.client.get(`/voice/numbers/${encodeURIComponent(key.number)}`, { schema: numberWire, signal: ctx.signal });
      const found = raw.endpoints?.some((e) => e.pbx_id === key.pbxId && e.ext === key.ext);
      return found ? { id, state: { ...key, numberLabel: raw.label ?? null } } : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async delete(ctx, id) {
    const key = idOf(id);
    await ctx.client.delete(`${path(key)}/${encodeURIComponent(key.pbxId)}/${encodeURIComponent(key.ext)}`, { signal: ctx.signal });
  },
});
