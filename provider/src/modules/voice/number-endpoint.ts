import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { E164, e164, STRING_ID } from "../../framework/api/validators";
import { formOf, idFormat, parseId } from "../../framework/api/ids";

const TOKEN = "nsp:voice:NumberEndpoint";
const ENDPOINT_ID = idFormat(
  "number endpoint",
  { name: "number", pattern: E164, example: "+31205550001" },
  { name: "pbxId", pattern: STRING_ID },
  { name: "extensionId", pattern: STRING_ID },
);

const endpointArgs = z.object({
  number: e164.meta({ description: "The voice number (`nsp:voice:Number` id).", replace: true }),
  pbxId: z
    .string()
    .regex(STRING_ID, "must be the id of an existing PBX")
    .meta({ description: "Id of the PBX (`nsp:vgate:Pbx`) that holds the extension.", create: true, replace: true }),
  ext: z.string().regex(STRING_ID, "must be the id of an existing extension").meta({
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
  const { number, pbxId, extensionId } = parseId(TOKEN, ENDPOINT_ID, id);
  return { number, pbxId, ext: extensionId };
}

const path = (a: EndpointArgs) => `/voice/numbers/${encodeURIComponent(a.number)}/endpoints`;

// No shape: the API answers with the number, not the endpoint, so the state is built from the inputs and the id.
export const numberEndpoint = defineResource({
  since: "0.1.0",
  notListed: "a link between a number and an extension, with no list in the API",
  token: TOKEN,
  description:
    "Makes a PBX extension ring for a voice number. There is no change in place: another number, PBX or " +
    "extension is a new endpoint. An extension rings for at most one number, so moving an extension to " +
    "another number removes the old endpoint first.",
  args: endpointArgs,
  state: endpointState,
  deleteBeforeReplace: (olds, news) => olds.pbxId === news.pbxId && olds.ext === news.ext,
  importId: formOf(ENDPOINT_ID),

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
