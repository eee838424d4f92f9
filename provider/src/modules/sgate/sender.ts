import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { both, messagingCollection, optText } from "./fields";
import { e164 } from "../../framework/api/validators";
import { naturalKey, fromSharedList } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:sgate:Sender";

const senderArgs = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9 ]{0,10}$/, "must be 1 to 11 letters, digits or spaces, starting with a letter")
    .meta({
      key: true,
      description: "The name recipients see. A new name goes to review again; it changes in place.",
      ...both,
    }),
  description: optText(1024, "What the sender is used for."),
  numbers: z
    .array(e164)
    .max(100, "must have at most 100 items")
    .default([])
    .meta({ description: "The account's numbers (E.164) the sender sends from.", ...both }),
});

const senderState = z.object({
  nameStatus: z.string().meta({ description: "Review state of the name (`in_review` after a create or a rename)." }),
  createdAt: z.string().meta({ description: "When the sender was created." }),
});

const senders = messagingCollection(
  TOKEN,
  "/sgate/senders",
  { what: "sender", form: "<senderId>", example: "snd_0123456789ab" },
  senderArgs,
  senderState,
  fromSharedList(),
);

export const sender = senders.resource({
  since: "0.1.0",
  description:
    "A sender: the name recipients see and the numbers it sends from. The name is reviewed after a create " +
    "and after every rename.",
  importId: "<senderId>",

  check(args) {
    const failures: CheckFailure[] = [];
    args.numbers.forEach((n, i) => {
      const first = args.numbers.indexOf(n);
      if (first !== i) failures.push({ property: "numbers", reason: `${n} is listed twice (items ${first} and ${i})` });
    });
    return failures;
  },

  create: (ctx, args) =>
    // A name is what recipients tell senders apart by: the natural key.
    senders.create(
      ctx,
      `sender ${args.name}`,
      args,
      naturalKey((s) => s.name === args.name),
    ),
});
