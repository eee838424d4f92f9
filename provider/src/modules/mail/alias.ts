import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { createOrAdopt } from "../../framework/create-once";
import { findInList, localPart, mailModel } from "./fields";
import { stringRef } from "../../framework/validators";
import { NUMERIC_ID, childIdOf } from "../../framework/ids";

const TOKEN = "nsp:mail:Alias";

// The API has no patch for aliases: every input replaces the alias.
const aliasArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`).").meta({ replace: true }),
  localPart: localPart.meta({
    key: true,
    description: "The alias's local part (before `@`). Stored lower-case; unique in the domain among mailboxes, aliases, groups and routes.",
    create: true,
    replace: true,
  }),
  targetMailboxId: stringRef("Id of the mailbox (`nsp:mail:Mailbox`) that receives the alias's mail; it may be in another domain of the account.").meta({ create: true, replace: true }),
  enabled: z.boolean().default(true).meta({ description: "Whether the alias delivers.", create: true, replace: true }),
});

const aliasState = z.object({
  address: z.string().meta({ description: "The alias's full address." }),
  targetAddress: z.string().nullable().optional().meta({ description: "The target mailbox's address." }),
  createdAt: z.string().meta({ description: "When the alias was created." }),
});

const api = mailModel(aliasArgs, aliasState, z.number().int());
const idOf = (id: string, domainId?: string) => {
  const { parent, child } = childIdOf(TOKEN, id, "<domainId>/<aliasId>", NUMERIC_ID, NUMERIC_ID, domainId);
  return { domainId: parent, aliasId: child };
};

// No shape: its identity is its content, so create goes through createOrAdopt (framework/create-once.ts), which the collection shape does not do.
export const alias = defineResource({
  token: TOKEN,
  list: { path: "/mail/domains/{domainId}/aliases", parent: { token: "nsp:mail:Domain", input: "domainId" }, label: (a, d) => `${String(a.local_part)}@${String(d?.name)}`, zoneOf: (_a, d) => d?.zone_id },
  description: "An alias address that delivers to a mailbox. The API has no patch for aliases, so every change replaces the alias.",
  args: aliasArgs,
  state: aliasState,
  // The local part is taken until the old alias is gone.
  deleteBeforeReplace: (olds, news) => olds.domainId === news.domainId && olds.localPart === news.localPart,
  importId: "<domainId>/<aliasId>",

  async create(ctx, args) {
    const path = `/mail/domains/${args.domainId}/aliases`;
    const { object } = await createOrAdopt(
      ctx,
      `alias ${args.localPart}`,
      // An address is one alias (the API refuses a second one): an alias with the same local
      // part, target and state is this one, made by a run that died before recording it.
      {
        list: path,
        schema: api.wire,
        matches: (a) => a.local_part === args.localPart && String(a.target_mailbox_id) === args.targetMailboxId && (a.enabled ?? true) === args.enabled,
        checkFirst: false,
      },
      () => ctx.client.post(path, { local_part: args.localPart, target_mailbox_id: args.targetMailboxId, enabled: args.enabled }, { schema: api.wire, signal: ctx.signal }),
    );
    return api.toResult(object);
  },

  // There is no GET of one alias: it is found in its domain's list.
  async read(ctx, id, prior) {
    const { domainId, aliasId } = idOf(id, prior.domainId);
    const found = await findInList(ctx, `/mail/domains/${domainId}/aliases`, api.wire, (a) => String(a.id) === aliasId);
    return found && api.toResult(found);
  },

  async delete(ctx, id, olds) {
    const { domainId, aliasId } = idOf(id, olds.domainId);
    // Another resource of this command adopted it (the program renamed the alias): it is theirs now.
    if (ctx.adoptions.handedOver(`/mail/domains/${domainId}/aliases`, aliasId)) return;
    await ctx.client.delete(`/mail/aliases/${aliasId}`, { signal: ctx.signal });
  },
});
