import { z } from "zod";
import { collection, keyedBy, naturalKey, postOnce } from "../../framework/api/shapes/collection";
import { E164 } from "../../framework/api/validators";

const TOKEN = "nsp:voice:Number";

/** A number's id is the number itself; a malformed one is an error before any request. */
export function numberOf(token: string, id: string, form = "<number>"): string {
  if (!E164.test(id))
    throw new Error(
      `${token}: "${id}" is not a voice number; use ${form} with the number in E.164 form, such as +31205550001`,
    );
  return id;
}

// Not in the documented create body: a value is set by a patch after the create.
const destinationText = (what: string) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .nullable()
    .optional()
    .meta({ description: what, patch: true });

const numberArgs = z.object({
  label: z.string().trim().max(100, "must be at most 100 characters").optional().meta({
    key: true,
    description: "What the number is for. Left to the API (none) when unset.",
    create: true,
    patch: true,
    clearedAs: null,
  }),
  sipIn: z.boolean().default(false).meta({ description: "Whether calls may also arrive over SIP.", patch: true }),
  dest: destinationText(
    "Where calls go besides the extensions that ring (see `nsp:voice:NumberEndpoint`): an IVR, queue, " +
      "ring group, time condition or voicemail box of the caller's PBXs, as the API lists them at GET " +
      "/voice/destinations. Unset (or null) for none.",
  ),
  noanswer: destinationText("Where unanswered calls go, in the same form as `dest`. Unset (or null) for none."),
});

const numberState = z.object({
  number: z.string().meta({ description: "The number, in E.164 form; also the resource's id." }),
  createdAt: z.string().meta({ description: "When the number was claimed." }),
});

function adjust<T extends { label?: string | null }>(state: T): T {
  if (state.label === null) delete state.label;
  return state;
}
const numbers = collection({
  token: TOKEN,
  path: "/voice/numbers",
  args: numberArgs,
  state: numberState,
  id: keyedBy("number", (id) => numberOf(TOKEN, id)),
  adjust,
});
const { api } = numbers;

export const number = numbers.resource({
  since: "0.1.0",
  list: { key: "number", label: (n) => String(n.label || n.number) },
  description:
    "A voice number claimed for the account (how many may be held is set by the packs). Make it ring PBX " +
    "extensions with `nsp:voice:NumberEndpoint`. Deleting it releases the number; a new one is a " +
    "different number. Setting `sipIn`, `dest` or `noanswer` at create takes a second call; if it fails " +
    "the number stays in the stack and the next `pulumi up` finishes it.",
  importId: "<number>",

  async create(ctx, args) {
    // The API picks the number; only a label can find a claim whose answer was lost.
    const label = args.label;
    const made = await numbers.create(
      ctx,
      `voice number "${label}"`,
      args,
      label === undefined || label === "" ? postOnce : naturalKey((n) => n.label === label),
    );
    const rest = api
      .patchKeys(Object.keys(numberArgs.shape))
      .filter((k) => k !== "label" && args[k] !== undefined && args[k] !== null && args[k] !== false);
    if (rest.length === 0) return made;
    ctx.progress(made.id, made.state);
    return numbers.toState(
      await ctx.client.patch(numbers.itemPath(made.id), api.patchBody(args, rest), {
        schema: numbers.wire,
        signal: ctx.signal,
      }),
    );
  },
});
