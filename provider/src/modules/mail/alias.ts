import { z } from "zod";
import { defineResource } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { collection } from "../../framework/api/shapes/collection";
import { localPartKey, mailModel } from "./fields";
import { stringRef } from "../../framework/api/validators";
import { NUMERIC_ID, childIdOf } from "../../framework/api/ids";

const TOKEN = "nsp:mail:Alias";

// The API has no patch for aliases: every input replaces the alias.
const aliasArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`).").meta({ replace: true }),
  localPart: localPartKey("The alias's local part (before `@`)."),
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

// The aliases of one domain, each deleted at /mail/aliases/<id>. There is no GET of one alias: it
// is found in its domain's list.
const aliasesOf = (domainId: string) =>
  collection({ token: TOKEN, path: `/mail/domains/${domainId}/aliases`, itemsAt: "/mail/aliases", underParent: true, args: aliasArgs, state: aliasState, model: api, idOf: (id) => idOf(id, domainId).aliasId, byContent: true });

// No shape for the definition itself: an alias's collection is its domain's, known only from the inputs; its create, read and delete are the collection's.
export const alias = defineResource({
  token: TOKEN,
  list: { path: "/mail/domains/{domainId}/aliases", parent: { token: "nsp:mail:Domain", input: "domainId" }, label: (a, d) => `${String(a.local_part)}@${String(d?.name)}`, zoneOf: (_a, d) => d?.zone_id },
  description: "An alias address that delivers to a mailbox. The API has no patch for aliases, so every change replaces the alias.",
  args: aliasArgs,
  state: aliasState,
  // The local part is taken until the old alias is gone.
  deleteBeforeReplace: (olds, news) => olds.domainId === news.domainId && olds.localPart === news.localPart,
  importId: "<domainId>/<aliasId>",
  shownId: { form: "<aliasId>", importable: false },

  // An address is one alias (the API refuses a second one): an alias with the same local part,
  // target and state is this one, made by a run that died before recording it.
  create: (ctx, args) =>
    aliasesOf(args.domainId).create(ctx, `alias ${args.localPart}`, args, {
      content: (a) => a.local_part === args.localPart && String(a.target_mailbox_id) === args.targetMailboxId && (a.enabled ?? true) === args.enabled,
      checkFirst: false,
    }),

  async read(ctx, id, prior) {
    const { domainId, aliasId } = idOf(id, prior.domainId);
    return aliasesOf(domainId).readFromList(ctx, (a) => String(a.id) === aliasId);
  },

  async delete(ctx, id, olds) {
    const { domainId, aliasId } = idOf(id, olds.domainId);
    await aliasesOf(domainId).delete(ctx, aliasId);
  },
});
