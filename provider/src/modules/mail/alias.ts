import { z } from "zod";
import { idRef } from "../../framework/api/wire";
import { domainObjects, localPartKey } from "./fields";
import { stringRef } from "../../framework/api/validators";
import { sameContent, fromList } from "../../framework/api/shapes/collection";

const TOKEN = "nsp:mail:Alias";

// The API has no patch for aliases: every input replaces the alias.
const aliasArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`).").meta({ replace: true }),
  localPart: localPartKey("The alias's local part (before `@`)."),
  targetMailboxId: stringRef(
    "Id of the mailbox (`nsp:mail:Mailbox`) that receives the alias's mail; it may be in another domain of the account.",
  ).meta({ create: true, replace: true }),
  enabled: z.boolean().default(true).meta({ description: "Whether the alias delivers.", create: true, replace: true }),
});

const aliasState = z.object({
  address: z.string().meta({ description: "The alias's full address." }),
  targetAddress: z.string().nullable().optional().meta({ description: "The target mailbox's address." }),
  createdAt: z.string().meta({ description: "When the alias was created." }),
});

// The aliases of one domain, each deleted at /mail/aliases/<id>. There is no GET of one alias: it
// is found in its domain's list.
const aliases = domainObjects(TOKEN, "aliases", "<aliasId>", {
  itemsAt: "/mail/aliases",
  args: aliasArgs,
  state: aliasState,
  idOnWire: z.number().int(),
  read: fromList(),
});

export const alias = aliases.resource({
  since: "0.1.0",
  list: { label: (a, d) => `${String(a.local_part)}@${String(d?.name)}`, zoneOf: (_a, d) => d?.zone_id },
  description:
    "An alias address that delivers to a mailbox. The API has no patch for aliases, so every change replaces the alias.",
  // The local part is taken until the old alias is gone.
  deleteBeforeReplace: (olds, news) => olds.domainId === news.domainId && olds.localPart === news.localPart,

  // An address is one alias (the API refuses a second one): an alias with the same local part,
  // target and state is this one, made by a run that died before recording it.
  create: (ctx, args) =>
    aliases.of(args.domainId).create(
      ctx,
      `alias ${args.localPart}`,
      args,
      sameContent({
        content: (a) =>
          a.local_part === args.localPart &&
          String(a.target_mailbox_id) === args.targetMailboxId &&
          (a.enabled ?? true) === args.enabled,
        checkFirst: false,
      }),
    ),
});
