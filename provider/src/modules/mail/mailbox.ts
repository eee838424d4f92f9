import { z } from "zod";
import type { CheckFailure, OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import type { Item } from "../../framework/api/shapes/collection";
import { domainObjects, localPartKey, mailModel, quotaBytes, settingsAfterCreate } from "./fields";
import { email } from "../../framework/api/validators";
import { STRING_ID, parentHolding } from "../../framework/api/ids";
import { naturalKey, fromSharedList } from "../../framework/api/shapes/collection";
import { childIds } from "../../framework/api/shapes/child-collection";

const TOKEN = "nsp:mail:Mailbox";
const MAX_SHARED = 50;

// The create body takes the first four; the rest are set by a patch.
const mailboxArgs = z.object({
  domainId: idRef("Id of the mail domain (`nsp:mail:Domain`), which must be in mode `mailbox` or `both`.").meta({
    create: true,
    replace: true,
  }),
  local: localPartKey("The local part (before `@`)."),
  display: z
    .string()
    .max(128, "must be at most 128 characters")
    .nullable()
    .optional()
    .meta({ description: "Display name.", create: true, patch: true }),
  // The API cannot unset the quota or the send limit; dropping them leaves the last value.
  quotaBytes: quotaBytes.optional().meta({
    description: "Storage quota in bytes (1 MiB to 1 TiB); the domain's default quota when unset.",
    create: true,
    patch: true,
  }),
  state: z
    .enum(["active", "disabled"])
    .default("active")
    .meta({ description: "`disabled` stops delivery and log-ins; `active` resumes them.", patch: true }),
  userEmail: email
    .nullable()
    .optional()
    .meta({ description: "Address of the platform user who owns the mailbox.", patch: true }),
  sendLimitHour: z.number().int().min(0).max(10000).optional().meta({
    description: "Messages the mailbox may send per hour (0 forbids sending); the API's default (200) when unset.",
    patch: true,
  }),
  sharedWith: z
    .array(email)
    .max(MAX_SHARED, `must have at most ${MAX_SHARED} items`)
    .default([])
    .meta({ description: `Addresses of people who may open the mailbox too, at most ${MAX_SHARED}.`, patch: true }),
  collab: z
    .boolean()
    .default(false)
    .meta({ description: "Whether collaboration features (shared folders, calendars) are on.", patch: true }),
});

const mailboxState = z.object({
  address: z.string().meta({ description: "The full address, `<local>@<domain>`." }),
  usedBytes: z.number().int().optional().meta({ description: "Storage in use, in bytes." }),
  createdAt: z.string().meta({ description: "When the mailbox was created." }),
});

const api = mailModel(mailboxArgs, mailboxState, z.string());
// Listed and created under the domain, patched and deleted at /mail/mailboxes/<id>. There is no
// GET of one mailbox: the mailboxes of one domain are refreshed from one list of the domain.
const mailboxes = domainObjects(TOKEN, "mailboxes", "<mailboxId>", {
  id: childIds(STRING_ID),
  itemsAt: "/mail/mailboxes",
  args: mailboxArgs,
  state: mailboxState,
  model: api,
  read: fromSharedList(),
});

/** The mailbox in its domain's list (there is no GET of one mailbox); undefined when either is gone. */
export async function findMailbox(
  ctx: OperationContext,
  domainId: string,
  mailboxId: string,
): Promise<Item | undefined> {
  return (await mailboxes.of(domainId).list(ctx)).find((b) => b.id === mailboxId);
}

export const mailbox = mailboxes.resource({
  since: "0.1.0",
  list: { label: (m, d) => `${String(m.local)}@${String(d?.name)}`, zoneOf: (_m, d) => d?.zone_id },
  description:
    "A mailbox in a mail domain. Deleting it deletes its messages, its app passwords and the aliases that deliver to it.",
  shownId: { form: "<mailboxId>", importable: true },

  check(args) {
    const failures: CheckFailure[] = [];
    args.sharedWith.forEach((addr, i) => {
      const first = args.sharedWith.indexOf(addr);
      if (first !== i)
        failures.push({ property: "sharedWith", reason: `${addr} is listed twice (items ${first} and ${i})` });
    });
    return failures;
  },

  async create(ctx, args) {
    const domainMailboxes = mailboxes.of(args.domainId);
    // A local part names one mailbox in its domain: the natural key.
    const current = await domainMailboxes.create(
      ctx,
      `mailbox ${args.local}`,
      args,
      naturalKey((b) => b.local === args.local),
    );
    ctx.progress(current.id, current.state);
    const settings = settingsAfterCreate(mailboxArgs, args, current.state);
    if (settings.length === 0) return current;
    return { id: current.id, state: await domainMailboxes.update(ctx, current.id, args, current.state, settings) };
  },

  async read(ctx, id, prior) {
    // At import, the mailbox's own id (as `pulumi stack --show-ids` shows it) is enough.
    const knownDomain =
      prior.domainId ??
      (STRING_ID.test(id)
        ? await parentHolding(ctx, TOKEN, id, "<domainId>/<mailboxId>", {
            list: "/mail/domains",
            childList: (d) => `/mail/domains/${d}/mailboxes`,
            schema: api.wire,
          })
        : undefined);
    if (knownDomain === undefined && !id.includes("/")) return undefined;
    const { parent: domainId, child: mailboxId } = mailboxes.locate(id, knownDomain);
    return mailboxes.of(domainId).readListed(ctx, mailboxId);
  },
});
