// Mailboxes with their app passwords, aliases and groups. A local part names one thing in a
// domain (mailbox, alias, group or forwarding route); a second claim is a conflict, except that
// a group created or renamed with `replace_alias` takes the place of an alias.
import { z } from "zod";
import { ApiError, invalid } from "../pipeline/errors";
import { clearableText, emailAddress, emailList, localPart } from "./fields";
import {
  type AliasRow,
  type AppPasswordRow,
  DEFAULT_SEND_LIMIT,
  GROUP_POSTING,
  GROUP_REPLY_TO,
  GROUP_ROLES,
  type GroupRow,
  MAILBOX_STATES,
  MAX_APP_PASSWORDS,
  type MailDomainRow,
  type MailTables,
  type MailboxRow,
  QUOTA_MAX,
  QUOTA_MIN,
  SEND_LIMIT_MAX,
  deleteMailbox,
  localPartHolder,
  localPartTaken,
  mail,
  newAppPassword,
  ownDomain,
  ownMailbox,
} from "./state";
import { uniqueId } from "../model/tables";
import { aliasView, appPasswordView, groupView, mailboxView } from "./views";
import { assignDefined, collection } from "../model/collection";
import { intBetween, noRepeats } from "../pipeline/validation";

const MAX_SHARED = 50;
const MAX_MEMBERS = 1000;

const quota = intBetween(QUOTA_MIN, QUOTA_MAX);

const createMailboxBody = z.strictObject({
  domain_id: z.int(),
  local: localPart,
  display: clearableText(128),
  quota_bytes: quota.optional(),
});

const patchMailboxBody = z.strictObject({
  display: clearableText(128),
  quota_bytes: quota.optional(),
  state: z.enum(MAILBOX_STATES).optional(),
  user_email: emailAddress.nullable().optional(),
  send_limit_hour: intBetween(0, SEND_LIMIT_MAX).optional(),
  shared_with: emailList("shared_with", MAX_SHARED).optional(),
  collab: z.boolean().optional(),
});

const createAppPasswordBody = z.strictObject({
  mailbox_id: z.string(),
  label: clearableText(64),
});

const createAliasBody = z.strictObject({
  local_part: localPart,
  target_mailbox_id: z.string(),
  enabled: z.boolean().optional(),
});

const member = z.strictObject({ address: emailAddress, role: z.enum(GROUP_ROLES).optional() });

const groupFields = {
  local_part: localPart,
  name: clearableText(128),
  members: z
    .array(member)
    .max(MAX_MEMBERS)
    .superRefine(
      noRepeats(
        (first) => `duplicate of members[${first}].address`,
        (m) => m.address,
        ["address"],
      ),
    )
    .optional(),
  allow_external_senders: z.boolean().optional(),
  members_can_send: z.boolean().optional(),
  enabled: z.boolean().optional(),
  archive: z.boolean().optional(),
  replace_alias: z.boolean().optional(),
  posting: z.enum(GROUP_POSTING).optional(),
  reply_to: z.enum(GROUP_REPLY_TO).optional(),
  subject_tag: clearableText(32),
};
const groupBody = z.strictObject(groupFields);

function domainOf(t: MailTables, domainId: number): MailDomainRow {
  // Children never outlive their domain (deleting it deletes them), so this always finds it.
  return t.domains.get(domainId) as MailDomainRow;
}

/** The local part for a group, removing an alias there when the body says `replace_alias`. */
function claimForGroup(
  t: MailTables,
  domain: MailDomainRow,
  local: string,
  replaceAlias: boolean,
  self?: string,
): void {
  const holder = localPartHolder(t, domain.id, local, self === undefined ? undefined : { kind: "group", id: self });
  if (!holder) return;
  if (holder.kind === "alias" && replaceAlias) {
    t.aliases.delete(holder.id as number);
    return;
  }
  throw localPartTaken(
    domain,
    local,
    holder,
    holder.kind === "alias" ? "; set replace_alias to replace the alias" : "",
  );
}

const mailboxes = collection({
  path: "/mail/domains/:domain_id/mailboxes",
  item: "/mail/mailboxes/{id}",
  what: "mailbox",
  table: ({ store }) => mail(store).mailboxes,
  view: (m, { store }) => mailboxView(store, m),
  parent: { own: (ctx) => ownDomain(ctx, ctx.params.domain_id), of: (m) => m.domain_id },
  create: {
    body: createMailboxBody,
    check: ({ body, params }) => {
      if (body.domain_id !== params.domain_id)
        throw invalid("domain_id", `must be the domain in the path (${params.domain_id})`);
    },
    build: ({ store, body }, domain): MailboxRow => {
      const t = mail(store);
      if (domain.mode === "forward")
        throw new ApiError(
          "conflict",
          `mail domain ${domain.name} is forward-only; mailboxes need mode mailbox or both`,
        );
      const holder = localPartHolder(t, domain.id, body.local);
      if (holder) throw localPartTaken(domain, body.local, holder);
      return {
        id: uniqueId("mbx", t.mailboxes),
        account: domain.account,
        domain_id: domain.id,
        local: body.local,
        display: body.display ?? null,
        quota_bytes: body.quota_bytes ?? domain.default_quota_bytes,
        state: "active",
        user_email: null,
        send_limit_hour: DEFAULT_SEND_LIMIT,
        shared_with: [],
        collab: false,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  patch: {
    body: patchMailboxBody,
    apply: ({ body }, box) =>
      assignDefined(box, body, [
        "display",
        "quota_bytes",
        "state",
        "user_email",
        "send_limit_hour",
        "shared_with",
        "collab",
      ]),
  },
  remove: ({ store }, box) => deleteMailbox(mail(store), box),
});

const appPasswords = collection({
  path: "/mail/mailboxes/{id}/apppasswords",
  item: "/mail/apppasswords/{id}",
  what: "app password",
  table: ({ store }) => mail(store).appPasswords,
  view: appPasswordView,
  parent: { own: (ctx) => ownMailbox(ctx, ctx.params.id), of: (p) => p.mailbox_id },
  list: false,
  create: {
    body: createAppPasswordBody,
    // The only answer that ever carries the password; only a digest would be kept by a real service.
    answer: (row) => ({ ...appPasswordView(row), password: newAppPassword() }),
    check: ({ body, params }) => {
      if (body.mailbox_id !== params.id) throw invalid("mailbox_id", `must be the mailbox in the path (${params.id})`);
    },
    build: ({ store, body }, box): AppPasswordRow => {
      const t = mail(store);
      const count = [...t.appPasswords.values()].filter((p) => p.mailbox_id === box.id).length;
      if (count >= MAX_APP_PASSWORDS)
        throw new ApiError(
          "limit_exceeded",
          `mailbox ${box.id} already has ${MAX_APP_PASSWORDS} app passwords; delete one first`,
        );
      return {
        id: uniqueId("app", t.appPasswords),
        account: box.account,
        mailbox_id: box.id,
        label: body.label ?? null,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  remove: true,
});

const aliases = collection({
  path: "/mail/domains/:id/aliases",
  item: "/mail/aliases/:id",
  what: "alias",
  table: ({ store }) => mail(store).aliases,
  view: (a, { store }) => aliasView(store, a),
  parent: { own: (ctx) => ownDomain(ctx, ctx.params.id), of: (a) => a.domain_id },
  create: {
    body: createAliasBody,
    build: ({ store, account, body }, domain): AliasRow => {
      const t = mail(store);
      const target = t.mailboxes.get(body.target_mailbox_id);
      if (!target || target.account !== account.name)
        throw invalid("target_mailbox_id", `no mailbox ${body.target_mailbox_id} in this account`);
      const holder = localPartHolder(t, domain.id, body.local_part);
      if (holder) throw localPartTaken(domain, body.local_part, holder);
      return {
        id: store.nextId(),
        account: domain.account,
        domain_id: domain.id,
        local_part: body.local_part,
        target_mailbox_id: target.id,
        enabled: body.enabled ?? true,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  remove: true,
});

const groups = collection({
  path: "/mail/domains/:id/groups",
  item: "/mail/groups/{id}",
  what: "group",
  table: ({ store }) => mail(store).groups,
  view: (g, { store }) => groupView(store, g),
  parent: { own: (ctx) => ownDomain(ctx, ctx.params.id), of: (g) => g.domain_id },
  create: {
    body: groupBody,
    build: ({ store, body }, domain): GroupRow => {
      claimForGroup(mail(store), domain, body.local_part, body.replace_alias ?? false);
      return {
        id: uniqueId("grp", mail(store).groups),
        account: domain.account,
        domain_id: domain.id,
        local_part: body.local_part,
        name: body.name ?? body.local_part,
        members: (body.members ?? []).map((m) => ({ address: m.address, role: m.role ?? "member" })),
        allow_external_senders: body.allow_external_senders ?? false,
        members_can_send: body.members_can_send ?? true,
        enabled: body.enabled ?? true,
        archive: body.archive ?? false,
        posting: body.posting ?? "members",
        reply_to: body.reply_to ?? "sender",
        subject_tag: body.subject_tag ?? null,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  patch: {
    body: groupBody,
    apply: ({ store, body }, group) => {
      const t = mail(store);
      claimForGroup(t, domainOf(t, group.domain_id), body.local_part, body.replace_alias ?? false, group.id);
      group.local_part = body.local_part;
      if (body.name !== undefined) group.name = body.name ?? body.local_part;
      if (body.members !== undefined)
        group.members = body.members.map((m) => ({ address: m.address, role: m.role ?? "member" }));
      assignDefined(group, body, [
        "allow_external_senders",
        "members_can_send",
        "enabled",
        "archive",
        "posting",
        "reply_to",
        "subject_tag",
      ]);
    },
  },
  remove: true,
});

export const mailBoxRoutes = [...mailboxes.routes, ...appPasswords.routes, ...aliases.routes, ...groups.routes];
