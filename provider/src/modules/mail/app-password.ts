import { z } from "zod";
import { wireTimestamp } from "../../framework/wire";
import { defineResource, type OperationContext } from "../../framework/definition";
import { STRING_ID, childIdOf, stringRef } from "./fields";
import { findMailbox } from "./mailbox";

const TOKEN = "nsp:mail:AppPassword";

const appPasswordArgs = z.object({
  mailboxId: stringRef("Id of the mailbox (`nsp:mail:Mailbox`)."),
  label: z.string().max(64, "must be at most 64 characters").optional().meta({ description: "What the password is for, such as `phone`." }),
});

const appPasswordState = z.object({
  domainId: z.string().meta({ description: "Id of the mailbox's mail domain." }),
  password: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        "The password, for a mail client's IMAP/SMTP log-in. The API shows it only when it is created, so it is kept from the state on every refresh; null after an import (replace the resource to get a new one).",
    }),
  createdAt: z.string().meta({ description: "When the password was created." }),
});

type AppPasswordState = z.output<typeof appPasswordArgs> & z.output<typeof appPasswordState>;

const appPasswordWire = z.looseObject({ id: z.string(), label: z.string().nullable().optional(), created_at: wireTimestamp, password: z.string().optional() });
type AppPasswordWire = z.output<typeof appPasswordWire>;
const mailboxWithPasswords = z.looseObject({ id: z.string(), app_passwords: z.array(appPasswordWire).optional() });
const domainWire = z.looseObject({ id: z.number().int() });

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

function toState(mailboxId: string, domainId: string, raw: AppPasswordWire) {
  const state: AppPasswordState = { mailboxId, domainId, createdAt: raw.created_at, password: raw.password ?? null };
  if (raw.label !== null && raw.label !== undefined) state.label = raw.label;
  return { id: raw.id, state };
}

export const appPassword = defineResource({
  token: TOKEN,
  description:
    "An application password of a mailbox, for mail clients (IMAP, SMTP). The password is returned once, when it is created, and kept as a secret output. There is no change in place: a new label makes a new password.",
  args: appPasswordArgs,
  state: appPasswordState,
  replaceOnChanges: ["mailboxId", "label"],
  secrets: ["password"],
  oneTime: ["password"],
  importId: "<mailboxId>/<appPasswordId>",

  async create(ctx, args) {
    const created = await ctx.client.post(
      `/mail/mailboxes/${encodeURIComponent(args.mailboxId)}/apppasswords`,
      { mailbox_id: args.mailboxId, ...(args.label !== undefined ? { label: args.label } : {}) },
      { schema: appPasswordWire, signal: ctx.signal },
    );
    const located = await locateMailbox(ctx, args.mailboxId);
    return toState(args.mailboxId, located?.domainId ?? "", created);
  },

  async read(ctx, id, prior) {
    const { mailboxId, passwordId } = idOf(id, prior.mailboxId);
    const located = await locateMailbox(ctx, mailboxId, prior.domainId);
    if (!located) return undefined;
    const found = mailboxWithPasswords.parse(located.mailbox).app_passwords?.find((p) => p.id === passwordId);
    return found ? toState(mailboxId, located.domainId, found) : undefined;
  },

  async delete(ctx, id, olds) {
    await ctx.client.delete(`/mail/apppasswords/${encodeURIComponent(idOf(id, olds.mailboxId).passwordId)}`, { signal: ctx.signal });
  },
});
