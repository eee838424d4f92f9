import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { fromWire, idRef } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOrAdopt } from "../../framework/create-once";
import { NUMERIC_ID, childIdOf, localPart, stringRef } from "./fields";

const TOKEN = "nsp:mail:Alias";

const aliasArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`)."),
  localPart: localPart.meta({ description: "The alias's local part (before `@`). Stored lower-case; unique in the domain among mailboxes, aliases, groups and routes." }),
  targetMailboxId: stringRef("Id of the mailbox (`nsp:mail:Mailbox`) that receives the alias's mail; it may be in another domain of the account."),
  enabled: z.boolean().default(true).meta({ description: "Whether the alias delivers." }),
});

const aliasState = z.object({
  address: z.string().meta({ description: "The alias's full address." }),
  targetAddress: z.string().nullable().optional().meta({ description: "The target mailbox's address." }),
  createdAt: z.string().meta({ description: "When the alias was created." }),
});

const aliasProperties = aliasArgs.extend(aliasState.shape);
type AliasState = z.output<typeof aliasProperties>;

const aliasWire = z.looseObject({ id: z.number().int(), domain_id: z.number().int(), local_part: z.string() });
type AliasWire = z.output<typeof aliasWire>;

const toState = (raw: AliasWire) => ({ id: String(raw.id), state: fromWire(aliasProperties, raw) as AliasState });
const idOf = (id: string, domainId?: string) => {
  const { parent, child } = childIdOf(TOKEN, id, "<domainId>/<aliasId>", NUMERIC_ID, NUMERIC_ID, domainId);
  return { domainId: parent, aliasId: child };
};

export const alias = defineResource({
  token: TOKEN,
  description: "An alias address that delivers to a mailbox. The API has no patch for aliases, so every change replaces the alias.",
  args: aliasArgs,
  state: aliasState,
  replaceOnChanges: ["domainId", "localPart", "targetMailboxId", "enabled"],
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
        schema: aliasWire,
        matches: (a) => a.local_part === args.localPart && String(a.target_mailbox_id) === args.targetMailboxId && (a.enabled ?? true) === args.enabled,
        checkFirst: false,
      },
      () => ctx.client.post(path, { local_part: args.localPart, target_mailbox_id: args.targetMailboxId, enabled: args.enabled }, { schema: aliasWire, signal: ctx.signal }),
    );
    return toState(object);
  },

  // There is no GET of one alias: it is found in its domain's list.
  async read(ctx, id, prior) {
    const { domainId, aliasId } = idOf(id, prior.domainId);
    try {
      const aliases = await ctx.client.listAll(`/mail/domains/${domainId}/aliases`, { itemSchema: aliasWire, signal: ctx.signal });
      const found = aliases.find((a) => String(a.id) === aliasId);
      return found ? toState(found) : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async delete(ctx, id, olds) {
    const { domainId, aliasId } = idOf(id, olds.domainId);
    // Another resource of this command adopted it (the program renamed the alias): it is theirs now.
    if (ctx.adoptions.handedOver(`/mail/domains/${domainId}/aliases`, aliasId)) return;
    await ctx.client.delete(`/mail/aliases/${aliasId}`, { signal: ctx.signal });
  },
});
