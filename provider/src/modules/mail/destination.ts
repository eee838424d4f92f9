import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { createOnce } from "../../framework/create-once";
import { mailModel } from "./fields";
import { email } from "../../framework/validators";

const TOKEN = "nsp:mail:Destination";

const destinationArgs = z.object({
  addr: email.meta({ key: true, description: "The address mail may be forwarded to. Stored lower-case; the API sends it a confirmation link.", create: true, replace: true }),
});

const destinationState = z.object({
  destinationId: z.string().meta({ description: "The API's id of the destination.", wire: "id" }),
  confirmed: z.boolean().meta({ description: "Whether the owner of the address has followed the confirmation link; routes forward to it only once it is confirmed." }),
  confirmedAt: z.string().nullable().optional().meta({ description: "When the address was confirmed." }),
  createdAt: z.string().meta({ description: "When the destination was added." }),
});

const api = mailModel(destinationArgs, destinationState, z.string());

// The resource is known by its address (the API's delete takes it), not by the API's id.
const toState = (raw: Record<string, unknown>) => {
  const state = api.toState(raw);
  return { id: state.addr, state };
};

function addrOf(id: string): string {
  const parsed = email.safeParse(id);
  if (!parsed.success) throw new Error(`${TOKEN}: id "${id}" must be the destination's address (<addr>), such as ops@example.net`);
  return parsed.data;
}

export const destination = defineResource({
  token: TOKEN,
  description:
    "An address mail may be forwarded to (the target of `nsp:mail:Route`). The API sends a confirmation link to it; `confirmed` shows whether it was followed. The API refuses to delete a destination that routes still use.",
  args: destinationArgs,
  state: destinationState,
  importId: "<addr>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `destination ${args.addr}`,
      () => ctx.client.post("/mail/destinations", api.createBody(args), { schema: api.wire, signal: ctx.signal }),
      // An address is one destination per account: the natural key.
      async () => (await ctx.client.listAll("/mail/destinations", { itemSchema: api.wire, signal: ctx.signal })).find((d) => d.addr === args.addr),
    );
    return toState(created);
  },

  // There is no GET of one destination: it is found in the account's list.
  async read(ctx, id) {
    const addr = addrOf(id);
    const all = await ctx.client.listAll("/mail/destinations", { itemSchema: api.wire, signal: ctx.signal });
    const found = all.find((d) => String(d.addr).toLowerCase() === addr);
    return found ? toState(found) : undefined;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/mail/destinations/${encodeURIComponent(addrOf(id))}`, { signal: ctx.signal });
  },
});
