import { z } from "zod";
import { defineResource, type CheckFailure, type OperationContext } from "../../framework/definition";
import { body, fromWire, idRef } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOnce } from "../../framework/create-once";
import { NUMERIC_ID, STRING_ID, childIdOf, email, localPart, quotaBytes } from "./fields";

const TOKEN = "nsp:mail:Mailbox";
const MAX_SHARED = 50;

const mailboxArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`), which must be in mode `mailbox` or `both`."),
  local: localPart.meta({ description: "The local part (before `@`). Stored lower-case; unique in the domain among mailboxes, aliases, groups and routes." }),
  display: z.string().max(128, "must be at most 128 characters").nullable().optional().meta({ description: "Display name." }),
  quotaBytes: quotaBytes.optional().meta({ description: "Storage quota in bytes (1 MiB to 1 TiB); the domain's default quota when unset." }),
  state: z.enum(["active", "disabled"]).default("active").meta({ description: "`disabled` stops delivery and log-ins; `active` resumes them." }),
  userEmail: email.nullable().optional().meta({ description: "Address of the platform user who owns the mailbox." }),
  sendLimitHour: z.number().int().min(0).max(10000).optional().meta({ description: "Messages the mailbox may send per hour (0 forbids sending); the API's default (200) when unset." }),
  sharedWith: z
    .array(email)
    .max(MAX_SHARED, `must have at most ${MAX_SHARED} items`)
    .default([])
    .meta({ description: `Addresses of people who may open the mailbox too, at most ${MAX_SHARED}.` }),
  collab: z.boolean().default(false).meta({ description: "Whether collaboration features (shared folders, calendars) are on." }),
});

const mailboxState = z.object({
  address: z.string().meta({ description: "The full address, `<local>@<domain>`." }),
  usedBytes: z.number().int().optional().meta({ description: "Storage in use, in bytes." }),
  createdAt: z.string().meta({ description: "When the mailbox was created." }),
});

const mailboxProperties = mailboxArgs.extend(mailboxState.shape);
type MailboxState = z.output<typeof mailboxProperties>;

const mailboxWire = z.looseObject({ id: z.string(), domain_id: z.number().int(), local: z.string() });
type MailboxWire = z.output<typeof mailboxWire>;

const PATCHABLE = ["display", "quotaBytes", "state", "userEmail", "sendLimitHour", "sharedWith", "collab"] as const;

const toState = (raw: MailboxWire) => ({ id: raw.id, state: fromWire(mailboxProperties, raw) as MailboxState });
const idOf = (id: string, domainId?: string) => {
  const { parent, child } = childIdOf(TOKEN, id, "<domainId>/<mailboxId>", NUMERIC_ID, STRING_ID, domainId);
  return { domainId: parent, mailboxId: child };
};
const mailboxPath = (mailboxId: string) => `/mail/mailboxes/${encodeURIComponent(mailboxId)}`;

/** The mailbox in its domain's list (there is no GET of one mailbox); undefined when either is gone. */
export async function findMailbox(ctx: OperationContext, domainId: string, mailboxId: string): Promise<MailboxWire | undefined> {
  try {
    const boxes = await ctx.client.listAll(`/mail/domains/${domainId}/mailboxes`, { itemSchema: mailboxWire, signal: ctx.signal });
    return boxes.find((b) => b.id === mailboxId);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

export const mailbox = defineResource({
  token: TOKEN,
  description: "A mailbox in a mail domain. Deleting it deletes its messages, its app passwords and the aliases that deliver to it.",
  args: mailboxArgs,
  state: mailboxState,
  replaceOnChanges: ["domainId", "local"],
  importId: "<domainId>/<mailboxId>",

  check(args) {
    const failures: CheckFailure[] = [];
    args.sharedWith.forEach((addr, i) => {
      const first = args.sharedWith.indexOf(addr);
      if (first !== i) failures.push({ property: "sharedWith", reason: `${addr} is listed twice (items ${first} and ${i})` });
    });
    return failures;
  },

  async create(ctx, args) {
    const path = `/mail/domains/${args.domainId}/mailboxes`;
    const created = await createOnce(
      ctx,
      `mailbox ${args.local}`,
      () => ctx.client.post(path, body(mailboxArgs, args, ["domainId", "local", "display", "quotaBytes"]), { schema: mailboxWire, signal: ctx.signal }),
      // A local part names one mailbox in its domain: the natural key.
      async () => (await ctx.client.listAll(path, { itemSchema: mailboxWire, signal: ctx.signal })).find((b) => b.local === args.local),
    );
    ctx.progress(created.id, toState(created).state);
    // The create body takes only these four; other values than the API's defaults take a patch.
    const settings = (["state", "userEmail", "sendLimitHour", "sharedWith", "collab"] as const).filter((k) => {
      if (k === "state") return args.state !== "active";
      if (k === "sharedWith") return args.sharedWith.length > 0;
      if (k === "collab") return args.collab;
      return args[k] !== undefined && args[k] !== null;
    });
    if (settings.length === 0) return toState(created);
    return toState(await ctx.client.patch(mailboxPath(created.id), body(mailboxArgs, args, settings), { schema: mailboxWire, signal: ctx.signal }));
  },

  async read(ctx, id, prior) {
    const { domainId, mailboxId } = idOf(id, prior.domainId);
    // The mailboxes of one domain are refreshed from one list of the domain.
    const found = await ctx.lists.find(`/mail/domains/${domainId}/mailboxes`, mailboxId, mailboxWire, ctx.signal, () => findMailbox(ctx, domainId, mailboxId));
    return found ? toState(found) : undefined;
  },

  async update(ctx, id, news, olds, changedInputs) {
    const { mailboxId } = idOf(id, olds.domainId);
    // The API cannot unset the quota or the send limit; dropping them leaves the last value.
    const changed = PATCHABLE.filter((k) => changedInputs.includes(k) && !((k === "quotaBytes" || k === "sendLimitHour") && news[k] === undefined));
    if (changed.length === 0) return { ...olds, ...news };
    const values = { ...news, display: news.display ?? null, userEmail: news.userEmail ?? null };
    return toState(await ctx.client.patch(mailboxPath(mailboxId), body(mailboxArgs, values, changed), { schema: mailboxWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id, olds) {
    await ctx.client.delete(mailboxPath(idOf(id, olds.domainId).mailboxId), { signal: ctx.signal });
  },
});
