import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { wireModel } from "../../framework/fields";
import { createOnce } from "../../framework/create-once";

const TOKEN = "nsp:org:Member";
const SUB = /^[^/\s]{1,128}$/;
const EMAIL = /^[^\s@/]+@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

const memberArgs = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.string().max(254, "must be at most 254 characters").regex(EMAIL, "must be an email address such as ops@example.com"))
    .meta({ key: true, description: "Address the invitation goes to. Stored lower-case.", create: true, replace: true }),
  role: z.enum(["admin", "member"]).default("member").meta({ description: "`admin` or `member`.", create: true, patch: true }),
  state: z.enum(["active", "suspended"]).default("active").meta({ description: "`active`, or `suspended` to shut the member out without removing them.", patch: true }),
});

const memberState = z.object({
  sub: z.string().meta({ description: "The member's subject, the id used by the member endpoints." }),
  accepted: z.boolean().optional().meta({ description: "Whether the member has accepted the invitation." }),
  createdAt: z.string().meta({ description: "When the member was first invited." }),
});

const api = wireModel(memberArgs, memberState);
const memberWire = api.wire;

function toState(raw: z.output<typeof memberWire>) {
  if (raw.role === "owner") throw new Error(`${TOKEN}: ${String(raw.email)} owns the organisation and cannot be managed as a member`);
  const state = api.toState(raw);
  return { id: state.sub, state };
}

function subOf(id: string): string {
  if (!SUB.test(id)) throw new Error(`${TOKEN}: id "${id}" is not a member subject (<sub>, as GET /org/members shows)`);
  return id;
}

const path = (sub: string) => `/org/members/${encodeURIComponent(sub)}`;

export const member = defineResource({
  token: TOKEN,
  description:
    "A member of the account's organisation, invited by email. Inviting an address the organisation already has replaces the earlier invitation link. Changing the address makes a new member; role and state change in place. Deleting the resource removes the member.",
  args: memberArgs,
  state: memberState,
  importId: "<sub>",

  async create(ctx, args) {
    const created = await createOnce(
      ctx,
      `member ${args.email}`,
      () => ctx.client.post("/org/members", api.createBody(args), { schema: memberWire, signal: ctx.signal }),
      // One member per address: the natural key.
      async () => (await ctx.client.listAll("/org/members", { itemSchema: memberWire, signal: ctx.signal })).find((m) => m.email === args.email),
    );
    const made = toState(created);
    if (args.state === "active" && made.state.role === args.role) return made;
    ctx.progress(made.id, made.state);
    return toState(await ctx.client.patch(path(made.id), api.patchBody(args, ["role", "state"]), { schema: memberWire, signal: ctx.signal }));
  },

  async read(ctx, id) {
    const sub = subOf(id);
    const found = (await ctx.client.listAll("/org/members", { itemSchema: memberWire, signal: ctx.signal })).find((m) => m.sub === sub);
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    const patch = api.patchBody(news, changedInputs);
    if (Object.keys(patch).length === 0) return { ...olds, ...news };
    return toState(await ctx.client.patch(path(subOf(id)), patch, { schema: memberWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(path(subOf(id)), { signal: ctx.signal });
  },
});
