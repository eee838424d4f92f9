import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { numberOf } from "./number";
import { e164 } from "../../framework/api/validators";

const TOKEN = "nsp:voice:NumberEndpoint";
const FORM = "<number>/<pbxId>/<extensionId>";
const OBJECT_ID = /^[^/\s]+$/;

const endpointArgs = z.object({
  number: e164.meta({ description: "The voice number (`nsp:voice:Number` id).", replace: true }),
  pbxId: z
    .string()
    .regex(OBJECT_ID, "must be the id of an existing PBX")
    .meta({ description: "Id of the PBX (`nsp:vgate:Pbx`) that holds the extension.", create: true, replace: true }),
  ext: z.string().regex(OBJECT_ID, "must be the id of an existing extension").meta({
    description:
      "Id of the extension (`nsp:vgate:Extension`) that rings for the number. An extension rings for at most one number.",
    create: true,
    replace: true,
  }),
});

type EndpointArgs = z.output<typeof endpointArgs>;

const endpointState = z.object({
  numberLabel: z.string().nullable().optional().meta({ description: "The number's label, as the API has it." }),
});

const api = wireModel(endpointArgs, endpointState);

// The API answers with the number, not the endpoint: its label and the endpoints that ring for it.
const numberWire = z.looseObject({
  number: z.string(),
  label: z.string().nullable().optional(),
  endpoints: z.array(z.looseObject({ pbx_id: z.string(), ext: z.string() })).optional(),
});

function idOf(id: string): EndpointArgs {
  const parts = id.split("/");
  if (parts.length !== 3 || !OBJECT_ID.test(parts[1] ?? "") || !OBJECT_ID.test(parts[2] ?? ""))
    throw new Error(`${TOKEN}: id "${id}" must have the form ${FORM}`);
  return { number: numberOf(TOKEN, parts[0] ?? "", FORM), pbxId: parts[1] ?? "", ext: parts[2] ?? "" };
}

const path = (a: EndpointArgs) => `/voice/numbers/${encodeURIComponent(a.number)}/endpoints`;

// No shape: the API answers with the number, not the endpoint, so the state is built from the inputs and the id.
export const numberEndpoint = defineResource({
  token: TOKEN,
  description:
    "Makes a PBX extension ring for a voice number. There is no change in place: another number, PBX or extension is a new endpoint. An extension rings for at most one number, so moving an extension to another number removes the old endpoint first.",
  args: endpointArgs,
  state: endpointState,
  deleteBeforeReplace: (olds, news) => olds.pbxId === news.pbxId && olds.ext === news.ext,
  importId: FORM,

  async create(ctx, args) {
    const raw = await ctx.client.post(path(args), api.createBody(args), { schema: numberWire, signal: ctx.signal });
    return { id: `${args.number}/${args.pbxId}/${args.ext}`, state: { ...args, numberLabel: raw.label ?? null } };
  },

  async read(ctx, id) {
    const key = idOf(id);
    const raw = await ctx.client.getOrUndefined(`/voice/numbers/${encodeURIComponent(key.number)}`, {
      schema: numberWire,
      signal: ctx.signal,
    });
    const found = raw?.endpoints?.some((e) => e.pbx_id === key.pbxId && e.ext === key.ext);
    return raw && found ? { id, state: { ...key, numberLabel: raw.label ?? null } } : undefined;
  },

  async delete(ctx, id) {
    const key = idOf(id);
    await ctx.client.delete(`${path(key)}/${encodeURIComponent(key.pbxId)}/${encodeURIComponent(key.ext)}`, {
      signal: ctx.signal,
    });
  },
});
