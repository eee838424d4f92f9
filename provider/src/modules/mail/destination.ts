import { z } from "zod";
import { collection, keyedBy, naturalKey } from "../../framework/api/shapes/collection";
import { email } from "../../framework/api/validators";

const TOKEN = "nsp:mail:Destination";

const destinationArgs = z.object({
  addr: email.meta({
    key: true,
    description: "The address mail may be forwarded to. Stored lower-case; the API sends it a confirmation link.",
    create: true,
    replace: true,
  }),
});

const destinationState = z.object({
  destinationId: z.string().meta({ description: "The API's id of the destination.", wire: "id" }),
  confirmed: z.boolean().meta({
    description:
      "Whether the owner of the address has followed the confirmation link; routes forward to it only once it is confirmed.",
  }),
  confirmedAt: z.string().nullable().optional().meta({ description: "When the address was confirmed." }),
  createdAt: z.string().meta({ description: "When the destination was added." }),
});

function addrOf(id: string): string {
  const parsed = email.safeParse(id);
  if (!parsed.success)
    throw new Error(`${TOKEN}: id "${id}" must be the destination's address (<addr>), such as ops@example.net`);
  return parsed.data;
}

// The resource is known by its address (the API's delete takes it), not by the API's id.
const destinations = collection({
  token: TOKEN,
  path: "/mail/destinations",
  args: destinationArgs,
  state: destinationState,
  id: keyedBy("addr", addrOf),
});

export const destination = destinations.resource({
  since: "0.1.0",
  list: { key: "addr", label: (d) => String(d.addr) },
  description:
    "An address mail may be forwarded to (the target of `nsp:mail:Route`). The API sends a confirmation " +
    "link to it; `confirmed` shows whether it was followed. The API refuses to delete a destination that " +
    "routes still use.",
  importId: "<addr>",

  // An address is one destination per account: the natural key.
  create: (ctx, args) =>
    destinations.create(
      ctx,
      `destination ${args.addr}`,
      args,
      naturalKey((d) => d.addr === args.addr),
    ),
  // There is no GET of one destination: it is found in the account's list.
  read(ctx, id) {
    const addr = addrOf(id);
    return destinations.readFromList(ctx, (d) => String(d.addr).toLowerCase() === addr);
  },
});
