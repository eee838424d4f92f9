import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { mailModel } from "./fields";
import { stringRef, oneTimeSecret } from "../../framework/api/validators";
import { STRING_ID, childIdOf } from "../../framework/api/ids";
import { findMailbox } from "./mailbox";
import { domainWire } from "./domain";

const TOKEN = "nsp:mail:AppPassword";

// There is no change in place: every input replaces the password.
const appPasswordArgs = z.object({
  mailboxId: stringRef("Id of the mailbox (`nsp:mail:Mailbox`).").meta({ create: true, replace: true }),
  label: z
    .string()
    .max(64, "must be at most 64 characters")
    .optional()
    .meta({ description: "What the password is for, such as `phone`.", create: true, replace: true }),
});

const appPasswordState = z.object({
  // Found by looking for the mailbox in the account's domains (an app password does not say it).
  domainId: z.string().meta({ description: "Id of the mailbox's mail domain.", local: true }),
  password: oneTimeSecret(
    "The password, for a mail client's IMAP/SMTP log-in. The API shows it only when it is created, so it " +
      "is kept from the state on every refresh; null after an import (replace the resource to get a new " +
      "one).",
  ),
  createdAt: z.string().meta({ description: "When the password was created." }),
});

const api = mailModel(appPasswordArgs, appPasswordState, z.string());
type AppPasswordWire = z.output<typeof api.wire>;
// A mailbox lists its app passwords (there is no GET of one).
const mailboxWithPasswords = z.looseObject({ app_passwords: z.array(api.wire).optional() });

const idOf = (id: string, mailboxId?: string) => {
  const { parent, child } = childIdOf(TOKEN, id, "<mailboxId>/<appPasswordId>", STRING_ID, STRING_ID, mailboxId);
  return { mailboxId: parent, passwordId: child };
};

/**
 * The mailbox and its domain. There is no GET of one mailbox, and a mailbox id does not say its
 * domain: the known domain is tried first, then every domain of the account.
 */
async function locateMailbox(ctx: OperationContext, mailboxId: string, domainHint?: string) {
  if (domainHint) {
    const found = await findMailbox(ctx, domainHint, mailboxId);
    if (found) return { domainId: domainHint, mailbox: found };
  }
  const domains = await ctx.client.listAll("/mail/domains", { itemSchema: domainWire, signal: ctx.signal });
  for (const d of domains) {
    if (String(d.id) === domainHint) continue;
    const found = await findMailbox(ctx, String(d.id), mailboxId);
    if (found) return { domainId: String(d.id), mailbox: found };
  }
  return undefined;
}

function toState(domainId: string, raw: AppPasswordWire) {
  const { id, state } = api.toResult(raw);
  // An unlabelled password has no label in the state (not null), as the program wrote it.
  const { label, ...rest } = state;
  return { id, state: { ...rest, ...(label != null ? { label } : {}), domainId, password: state.password ?? null } };
}

// No shape: it is read from its mailbox's entry, found by searching the account's domains, not from a list or GET of its own.
export const appPassword = defineResource({
  since: "0.1.0",
  notListed: "a one-time secret the API never shows again; make a new one instead",
  token: TOKEN,
  description:
    "An application password of a mailbox, for mail clients (IMAP, SMTP). The password is returned once, " +
    "when it is created, and kept as a secret output. There is no change in place: a new label makes a " +
    "new password.",
  args: appPasswordArgs,
  state: appPasswordState,
  importId: "<mailboxId>/<appPasswordId>",
  shownId: { form: "<appPasswordId>", importable: false },

  async create(ctx, args) {
    const created = await ctx.client.post(
      `/mail/mailboxes/${encodeURIComponent(args.mailboxId)}/apppasswords`,
      api.createBody(args),
      { schema: api.wire, signal: ctx.signal },
    );
    const located = await locateMailbox(ctx, args.mailboxId);
    return toState(located?.domainId ?? "", created);
  },

  async read(ctx, id, prior) {
    const { mailboxId, passwordId } = idOf(id, prior.mailboxId);
    const located = await locateMailbox(ctx, mailboxId, prior.domainId);
    if (!located) return undefined;
    const found = mailboxWithPasswords.parse(located.mailbox).app_passwords?.find((p) => p.id === passwordId);
    return found ? toState(located.domainId, found) : undefined;
  },

  async delete(ctx, id, olds) {
    await ctx.client.delete(`/mail/apppasswords/${encodeURIComponent(idOf(id, olds.mailboxId).passwordId)}`, {
      signal: ctx.signal,
    });
  },
});
