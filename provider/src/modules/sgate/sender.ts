import { z } from "zod";
import { defineResource, type CheckFailure } from "../../framework/definition";
import { body, fromWire } from "../../framework/wire";
import { createOnce } from "../../framework/create-once";
import { e164, findInList, idOf, optText, patchValues } from "./fields";

const TOKEN = "nsp:sgate:Sender";
const ID_FORM = "a sender id such as snd_0123456789ab";

const senderArgs = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9 ]{0,10}$/, "must be 1 to 11 letters, digits or spaces, starting with a letter")
    .meta({ description: "The name recipients see. A new name goes to review again; it changes in place." }),
  description: optText(1024, "What the sender is used for."),
  numbers: z.array(e164).max(100, "must have at most 100 items").default([]).meta({ description: "The account's numbers (E.164) the sender sends from." }),
});

const senderState = z.object({
  nameStatus: z.string().meta({ description: "Review state of the name (`in_review` after a create or a rename)." }),
  createdAt: z.string().meta({ description: "When the sender was created." }),
});

const senderProperties = senderArgs.extend(senderState.shape);
type SenderState = z.output<typeof senderProperties>;

const senderWire = z.looseObject({ id: z.string(), name: z.string() });
type SenderWire = z.output<typeof senderWire>;

const FIELDS = ["name", "description", "numbers"] as const;

const toState = (raw: SenderWire) => ({ id: raw.id, state: fromWire(senderProperties, raw) as SenderState });
const senderPath = (id: string) => `/sgate/senders/${encodeURIComponent(idOf(TOKEN, id, ID_FORM))}`;

export const sender = defineResource({
  token: TOKEN,
  description: "A sender: the name recipients see and the numbers it sends from. The name is reviewed after a create and after every rename.",
  args: senderArgs,
  state: senderState,
  importId: "<senderId>",

  check(args) {
    const failures: CheckFailure[] = [];
    args.numbers.forEach((n, i) => {
      const first = args.numbers.indexOf(n);
      if (first !== i) failures.push({ property: "numbers", reason: `${n} is listed twice (items ${first} and ${i})` });
    });
    return failures;
  },

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `sender ${args.name}`,
      () => ctx.client.post("/sgate/senders", body(senderArgs, args, FIELDS), { schema: senderWire, signal: ctx.signal }),
      // A name is what recipients tell senders apart by: the natural key.
      async () => (await ctx.client.listAll("/sgate/senders", { itemSchema: senderWire, signal: ctx.signal })).find((s) => s.name === args.name),
    );
    return toState(created);
  },

  async read(ctx, id) {
    const found = await findInList(ctx, "/sgate/senders", idOf(TOKEN, id, ID_FORM), senderWire);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    const changed = FIELDS.filter((k) => changedInputs.includes(k));
    if (changed.length === 0) return { ...olds, ...news };
    return toState(await ctx.client.patch(senderPath(id), body(senderArgs, patchValues(news, ["description"]), changed), { schema: senderWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(senderPath(id), { signal: ctx.signal });
  },
});
