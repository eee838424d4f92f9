// Mailboxes with their app passwords, aliases and groups. A local part names one thing in a
// domain (mailbox, alias, group or forwarding route); a second claim is a conflict, except that
// a group created or renamed with `replace_alias` takes the place of an alias.
import { z } from "zod";
import { ApiError, invalid } from "../errors";
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
  newStringId,
  ownAppPassword,
  ownDomain,
  ownGroup,
  ownMailbox,
} from "./state";
import { aliasView, appPasswordView, groupView, mailboxView } from "./views";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import { intBetween } from "../validation";

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
    .superRefine((list, ctx) => {
      list.forEach((m, i) => {
        const first = list.findIndex((o) => o.address === m.address);
        if (first !== i) ctx.addIssue({ code: "custom", path: [i, "address"], message: `duplicate of members[${first}].address` });
      });
    })
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

type AccountEnv = Env & { account: { name: string } };

function domainOf(t: MailTables, domainId: number): MailDomainRow {
  // Children never outlive their domain (deleting it deletes them), so this always finds it.
  return t.domains.get(domainId) as MailDomainRow;
}

/** The local part for a group, removing an alias there when the body says `replace_alias`. */
function claimForGroup(t: MailTables, domain: MailDomainRow, local: string, replaceAlias: boolean, self?: string): void {
  const holder = localPartHolder(t, domain.id, local, self === undefined ? undefined : { kind: "group", id: self });
  if (!holder) return;
  if (holder.kind === "alias" && replaceAlias) {
    t.aliases.delete(holder.id as number);
    return;
  }
  const hint = holder.kind === "alias" ? "; set replace_alias to replace the alias" : "";
  throw new ApiError("conflict", `${local}@${domain.name} is already used by ${holder.kind} ${holder.id}${hint}`);
}

function ownAlias(env: AccountEnv, id: number): AliasRow {
  return env.store.owned(mail(env.store).aliases, id, env.account.name, "alias");
}

export const mailBoxRoutes = [
  // ---- mailboxes ----------------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/domains/:domain_id/mailboxes",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.domain_id);
      return paginate([...mail(ctx.store).mailboxes.values()].filter((m) => m.domain_id === domain.id), ctx.query, (m) => mailboxView(ctx.store, m));
    },
  }),

  route({
    method: "POST",
    path: "/mail/domains/:domain_id/mailboxes",
    scope: "write",
    body: createMailboxBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const t = mail(store);
      if (body.domain_id !== ctx.params.domain_id) throw invalid("domain_id", `must be the domain in the path (${ctx.params.domain_id})`);
      const domain = ownDomain(ctx, ctx.params.domain_id);
      if (domain.mode === "forward") throw new ApiError("conflict", `mail domain ${domain.name} is forward-only; mailboxes need mode mailbox or both`);
      const holder = localPartHolder(t, domain.id, body.local);
      if (holder) throw localPartTaken(domain, body.local, holder);
      const box: MailboxRow = {
        id: newStringId("mbx", t.mailboxes),
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
      t.mailboxes.set(box.id, box);
      ctx.status(201);
      return mailboxView(store, box);
    },
  }),

  route({
    method: "PATCH",
    path: "/mail/mailboxes/{id}",
    scope: "write",
    body: patchMailboxBody,
    handler: (ctx) => {
      const { body } = ctx;
      const box = ownMailbox(ctx, ctx.params.id);
      if (body.display !== undefined) box.display = body.display;
      if (body.quota_bytes !== undefined) box.quota_bytes = body.quota_bytes;
      if (body.state !== undefined) box.state = body.state;
      if (body.user_email !== undefined) box.user_email = body.user_email;
      if (body.send_limit_hour !== undefined) box.send_limit_hour = body.send_limit_hour;
      if (body.shared_with !== undefined) box.shared_with = body.shared_with;
      if (body.collab !== undefined) box.collab = body.collab;
      return mailboxView(ctx.store, box);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/mailboxes/{id}",
    scope: "write",
    handler: (ctx) => {
      deleteMailbox(mail(ctx.store), ownMailbox(ctx, ctx.params.id));
      return undefined;
    },
  }),

  // ---- app passwords ------------------------------------------------------------------------

  route({
    method: "POST",
    path: "/mail/mailboxes/{id}/apppasswords",
    scope: "write",
    body: createAppPasswordBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const t = mail(store);
      if (body.mailbox_id !== ctx.params.id) throw invalid("mailbox_id", `must be the mailbox in the path (${ctx.params.id})`);
      const box = ownMailbox(ctx, ctx.params.id);
      const count = [...t.appPasswords.values()].filter((p) => p.mailbox_id === box.id).length;
      if (count >= MAX_APP_PASSWORDS) throw new ApiError("limit_exceeded", `mailbox ${box.id} already has ${MAX_APP_PASSWORDS} app passwords; delete one first`);
      const row: AppPasswordRow = { id: newStringId("app", t.appPasswords), account: box.account, mailbox_id: box.id, label: body.label ?? null, created_at: store.timestamp() };
      t.appPasswords.set(row.id, row);
      ctx.status(201);
      // The only answer that ever carries the password; only a digest would be kept by a real service.
      return { ...appPasswordView(row), password: newAppPassword() };
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/apppasswords/{id}",
    scope: "write",
    handler: (ctx) => {
      mail(ctx.store).appPasswords.delete(ownAppPassword(ctx, ctx.params.id).id);
      return undefined;
    },
  }),

  // ---- aliases ------------------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/domains/:id/aliases",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      return paginate([...mail(ctx.store).aliases.values()].filter((a) => a.domain_id === domain.id), ctx.query, (a) => aliasView(ctx.store, a));
    },
  }),

  route({
    method: "POST",
    path: "/mail/domains/:id/aliases",
    scope: "write",
    body: createAliasBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const t = mail(store);
      const domain = ownDomain(ctx, ctx.params.id);
      const target = t.mailboxes.get(body.target_mailbox_id);
      if (!target || target.account !== account.name) throw invalid("target_mailbox_id", `no mailbox ${body.target_mailbox_id} in this account`);
      const holder = localPartHolder(t, domain.id, body.local_part);
      if (holder) throw localPartTaken(domain, body.local_part, holder);
      const row: AliasRow = {
        id: store.nextId(),
        account: domain.account,
        domain_id: domain.id,
        local_part: body.local_part,
        target_mailbox_id: target.id,
        enabled: body.enabled ?? true,
        created_at: store.timestamp(),
      };
      t.aliases.set(row.id, row);
      ctx.status(201);
      return aliasView(store, row);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/aliases/:id",
    scope: "write",
    handler: (ctx) => {
      mail(ctx.store).aliases.delete(ownAlias(ctx, ctx.params.id).id);
      return undefined;
    },
  }),

  // ---- groups -------------------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/domains/:id/groups",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      return paginate([...mail(ctx.store).groups.values()].filter((g) => g.domain_id === domain.id), ctx.query, (g) => groupView(ctx.store, g));
    },
  }),

  route({
    method: "POST",
    path: "/mail/domains/:id/groups",
    scope: "write",
    body: groupBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const t = mail(store);
      const domain = ownDomain(ctx, ctx.params.id);
      claimForGroup(t, domain, body.local_part, body.replace_alias ?? false);
      const row: GroupRow = {
        id: newStringId("grp", t.groups),
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
      t.groups.set(row.id, row);
      ctx.status(201);
      return groupView(store, row);
    },
  }),

  route({
    method: "PATCH",
    path: "/mail/groups/{id}",
    scope: "write",
    body: groupBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const t = mail(store);
      const group = ownGroup(ctx, ctx.params.id);
      claimForGroup(t, domainOf(t, group.domain_id), body.local_part, body.replace_alias ?? false, group.id);
      group.local_part = body.local_part;
      if (body.name !== undefined) group.name = body.name ?? body.local_part;
      if (body.members !== undefined) group.members = body.members.map((m) => ({ address: m.address, role: m.role ?? "member" }));
      if (body.allow_external_senders !== undefined) group.allow_external_senders = body.allow_external_senders;
      if (body.members_can_send !== undefined) group.members_can_send = body.members_can_send;
      if (body.enabled !== undefined) group.enabled = body.enabled;
      if (body.archive !== undefined) group.archive = body.archive;
      if (body.posting !== undefined) group.posting = body.posting;
      if (body.reply_to !== undefined) group.reply_to = body.reply_to;
      if (body.subject_tag !== undefined) group.subject_tag = body.subject_tag;
      return groupView(store, group);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/groups/{id}",
    scope: "write",
    handler: (ctx) => {
      mail(ctx.store).groups.delete(ownGroup(ctx, ctx.params.id).id);
      return undefined;
    },
  }),
];
