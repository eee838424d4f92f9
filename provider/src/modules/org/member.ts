import { z } from "zod";
import { collection, keyedBy, naturalKey } from "../../framework/api/shapes/collection";
import { email } from "../../framework/api/validators";

const TOKEN = "nsp:org:Member";
const SUB = /^[^/\s]{1,128}$/;

const memberArgs = z.object({
  email: email.meta({
    key: true,
    description: "Address the invitation goes to. Stored lower-case.",
    create: true,
    replace: true,
  }),
  role: z
    .enum(["admin", "member"])
    .default("member")
    .meta({ description: "`admin` or `member`.", create: true, patch: true }),
  state: z
    .enum(["active", "suspended"])
    .default("active")
    .meta({ description: "`active`, or `suspended` to shut the member out without removing them.", patch: true }),
});

const memberState = z.object({
  sub: z.string().meta({ description: "The member's subject, the id used by the member endpoints." }),
  accepted: z.boolean().optional().meta({ description: "Whether the member has accepted the invitation." }),
  createdAt: z.string().meta({ description: "When the member was first invited." }),
});

function subOf(id: string): string {
  if (!SUB.test(id)) throw new Error(`${TOKEN}: id "${id}" is not a member subject (<sub>, as GET /org/members shows)`);
  return id;
}

const members = collection({
  token: TOKEN,
  path: "/org/members",
  args: memberArgs,
  state: memberState,
  id: keyedBy("sub", subOf),
  adjust(state, raw) {
    if (raw.role === "owner")
      throw new Error(`${TOKEN}: ${String(raw.email)} owns the organisation and cannot be managed as a member`);
    return state;
  },
});

export const member = members.resource({
  since: "0.1.0",
  list: {
    key: "sub",
    label: (m) => String(m.email),
    skip: (m) => (m.role === "owner" ? "the account's owner, made with the account" : undefined),
  },
  description:
    "A member of the account's organisation, invited by email. Inviting an address the organisation " +
    "already has replaces the earlier invitation link. Changing the address makes a new member; role and " +
    "state change in place. Deleting the resource removes the member.",
  importId: "<sub>",

  async create(ctx, args) {
    // One member per address: the natural key.
    const made = await members.create(
      ctx,
      `member ${args.email}`,
      args,
      naturalKey((m) => m.email === args.email),
    );
    if (args.state === "active" && made.state.role === args.role) return made;
    ctx.progress(made.id, made.state);
    return { id: made.id, state: await members.update(ctx, made.id, args, made.state, ["role", "state"]) };
  },

  read(ctx, id) {
    const sub = subOf(id);
    return members.readFromList(ctx, (m) => m.sub === sub);
  },
});
