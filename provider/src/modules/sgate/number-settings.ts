import { z } from "zod";
import type { ApiClient } from "../../client";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/api/fields";
import { optText } from "./fields";
import { E164, e164, stringRef } from "../../framework/api/validators";

const TOKEN = "nsp:sgate:NumberSettings";

const numberArgs = z.object({
  number: e164.meta({
    description:
      "The account's number in E.164 form (such as `+12025550101`), which is also the import id. A " +
      "different number is a different resource.",
    replace: true,
  }),
  enabled: z
    .boolean()
    .optional()
    .meta({ description: "Whether the number sends and receives messages; left as it is when unset.", patch: true }),
  provider: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]+$/, "must be a provider name such as primary (see GET /sgate/providers)")
    .optional()
    .meta({ description: "Provider the number sends through; left as it is when unset.", patch: true }),
  campaignId: stringRef(
    "Id of the campaign (`nsp:sgate:Campaign`) the number sends under; dropping it detaches the number.",
  )
    .nullable()
    .optional()
    .meta({ patch: true }),
  helpText: optText(160, "Reply sent when a recipient texts HELP."),
});

const numberState = z.object({
  sends: z.boolean().meta({ description: "Whether the number sends." }),
  receives: z.boolean().meta({ description: "Whether the number receives." }),
});

// The settings are all the API has of a number: a create and an update are both patches.
const api = wireModel(numberArgs, numberState);
const numberWire = api.wire as z.ZodType<Record<string, unknown> & { number: string }>;
type NumberWire = z.output<typeof numberWire>;

const toState = (raw: NumberWire) => ({ id: raw.number, state: api.toState(raw) });
const numberPath = (number: string) => `/sgate/numbers/${encodeURIComponent(number)}`;

// No shape: it adopts a number the account holds (found in the list) and patches its settings; nothing is created or deleted.
export const numberSettings = defineResource({
  since: "0.1.0",
  notListed: "messaging settings of numbers the API assigns; import `<number>` by hand to manage them",
  token: TOKEN,
  description:
    "The messaging settings of one of the account's numbers (the API has no create or delete of numbers). " +
    "Create and update patch the settings the program sets; deleting the resource leaves the number's " +
    "settings as they are and only stops managing them.",
  args: numberArgs,
  state: numberState,
  importId: "<number>",

  async create(ctx, args) {
    const keys = api.patchKeys(Object.keys(numberArgs.shape)).filter((k) => args[k] !== undefined && args[k] !== null);
    // Nothing to set: the resource only adopts the number, which must exist.
    if (keys.length === 0) {
      const found = await findNumber(ctx.client, args.number, ctx.signal);
      if (!found) throw new Error(`${TOKEN}: ${args.number} is not a number of this account`);
      return toState(found);
    }
    return toState(
      await ctx.client.patch(numberPath(args.number), api.patchBody(args, keys), {
        schema: numberWire,
        signal: ctx.signal,
      }),
    );
  },

  async read(ctx, id) {
    if (!E164.test(id)) throw new Error(`${TOKEN}: id "${id}" must be a number in E.164 form such as +12025550101`);
    const found = await findNumber(ctx.client, id, ctx.signal);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    // A dropped `enabled` or `provider` leaves the last value: the API cannot unset them.
    const changed = api
      .patchKeys(changedInputs)
      .filter((k) => !((k === "enabled" || k === "provider") && news[k] === undefined));
    if (changed.length === 0) return { ...olds, ...news };
    return toState(
      await ctx.client.patch(numberPath(id), api.patchBody(news, changed), { schema: numberWire, signal: ctx.signal }),
    ).state;
  },
});

async function findNumber(client: ApiClient, number: string, signal: AbortSignal): Promise<NumberWire | undefined> {
  return (await client.listAll("/sgate/numbers", { itemSchema: numberWire, signal })).find((n) => n.number === number);
}
