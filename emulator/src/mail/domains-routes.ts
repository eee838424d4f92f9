// Mail domains with the DNS records they publish, their forwarding routes and domain rules, the
// account's forwarding destinations, and the (empty) delivery log and counters.
import { generateKeyPairSync } from "node:crypto";
import { z } from "zod";
import { ApiError, invalid, notFound } from "../errors";
import { normalizeEmail } from "../dns/names";
import { checkRecords, isInside, publish, unpublish, unpublished, updateDmarc } from "./records";
import { clearableText, domainName, emailAddress, isRelayHost, localPart } from "./fields";
import {
  DEFAULT_QUOTA,
  DMARC_POLICIES,
  type DomainRuleRow,
  type DestinationRow,
  MAIL_MODES,
  type MailDomainRow,
  type MailServerRow,
  QUOTA_MAX,
  QUOTA_MIN,
  RULE_KINDS,
  deleteDomainObjects,
  destinationByAddr,
  domainRoutes,
  localPartHolder,
  localPartTaken,
  mail,
  newStringId,
  ownDomain,
} from "./state";
import { destinationView, domainRecordsView, domainView, routeView, ruleView } from "./views";
import { paginate, pagingOnlyQuery } from "../paging";
import { type Env, route } from "../router";
import type { Store, ZoneRow } from "../store";
import { intBetween, queryInt } from "../validation";

const createDomainBody = z.strictObject({
  zone_id: z.int().nullable().optional(),
  server_id: z.string().nullable().optional(),
  name: z.string(),
  zone_name: z.string().nullable().optional(),
  mode: z.enum(MAIL_MODES).optional(),
});

const patchDomainBody = z.strictObject({
  enabled: z.boolean().optional(),
  catch_all: z.string().nullable().optional(),
  mode: z.enum(MAIL_MODES).optional(),
  default_quota_bytes: intBetween(QUOTA_MIN, QUOTA_MAX).optional(),
  dmarc_policy: z.enum(DMARC_POLICIES).optional(),
  backup_enabled: z.boolean().optional(),
});

const routeBody = z.strictObject({ local_part: localPart, dest: emailAddress });

const ruleFields = {
  kind: z.enum(RULE_KINDS),
  pattern: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.string().min(1).max(255).regex(/^\S+$/, { error: "must not contain spaces" })),
  target: clearableText(255),
  enabled: z.boolean().optional(),
};
const createRuleBody = z.strictObject(ruleFields);
const patchRuleBody = z.strictObject({ ...ruleFields, kind: ruleFields.kind.optional(), pattern: ruleFields.pattern.optional() });

type AccountEnv = Env & { account: { name: string } };

function serverOf(store: Store, domain: MailDomainRow): MailServerRow | null {
  return domain.server_id === null ? null : (mail(store).servers.get(domain.server_id) ?? null);
}

function recordsAnswer(store: Store, d: MailDomainRow) {
  return { domain_id: d.id, name: d.name, checked_at: d.checked_at, records: domainRecordsView(store, d) };
}

/** The target a rule of this kind needs: an address to copy to, a relay host, or nothing. */
function checkRuleTarget(kind: DomainRuleRow["kind"], target: string | null): string | null {
  if (kind === "forward_copy") {
    if (target === null) throw invalid("target", "forward_copy needs the address that receives the copy");
    const parsed = emailAddress.safeParse(target);
    if (!parsed.success) throw invalid("target", "must be an email address such as ops@example.com for forward_copy");
    return parsed.data;
  }
  if (kind === "relay_rcpt") {
    if (target === null) throw invalid("target", "relay_rcpt needs the relay host, such as relay.example.net or relay.example.net:2525");
    if (!isRelayHost(target)) throw invalid("target", "must be a host name or address with an optional port, such as relay.example.net:2525, for relay_rcpt");
    return target.toLowerCase();
  }
  if (target !== null) throw invalid("target", `must be empty for ${kind} rules`);
  return null;
}

function ownRule(env: AccountEnv, id: number): DomainRuleRow {
  return env.store.owned(mail(env.store).rules, id, env.account.name, "domain rule");
}

function ownDestination(env: AccountEnv, addr: string): DestinationRow {
  const d = destinationByAddr(mail(env.store), env.account.name, addr.trim().toLowerCase());
  if (!d) throw notFound("destination");
  return d;
}

/** A compact policy id for MTA-STS: the creation time, `YYYYMMDDhhmmss`. */
function stsId(store: Store): string {
  return store.timestamp().replace(/[-:.TZ]/g, "").slice(0, 14);
}

export const mailDomainRoutes = [
  route({
    method: "GET",
    path: "/mail/domains",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ store, account, query }) => paginate(store.list(mail(store).domains, account.name), query, (d) => domainView(store, d)),
  }),

  route({
    method: "POST",
    path: "/mail/domains",
    scope: "write",
    body: createDomainBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const t = mail(store);
      const name = domainName("name", body.name);
      let zone: ZoneRow | null = null;
      if (body.zone_id !== undefined && body.zone_id !== null) {
        const found = store.zones.get(body.zone_id);
        if (!found || found.account !== account.name) throw invalid("zone_id", `no zone ${body.zone_id} in this account`);
        zone = found;
      }
      let zoneName = zone?.name ?? name;
      if (body.zone_name !== undefined && body.zone_name !== null) {
        zoneName = domainName("zone_name", body.zone_name);
        if (zone && zoneName !== zone.name) throw invalid("zone_name", `must be the name of zone ${zone.id} (${zone.name}) or left out`);
      }
      if (!isInside(name, zoneName)) throw invalid("name", `${name} is not inside zone ${zoneName}`);
      let server: MailServerRow | null = null;
      if (body.server_id !== undefined && body.server_id !== null) {
        const found = t.servers.get(body.server_id);
        if (!found || found.account !== account.name) throw invalid("server_id", `no mail server ${body.server_id} in this account`);
        server = found;
      }
      const clash = store.list(t.domains, account.name).find((d) => d.name === name);
      if (clash) throw new ApiError("conflict", `name: ${name} is already a mail domain of this account (id ${clash.id})`);
      const spki = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" });
      const domain: MailDomainRow = {
        id: store.nextId(),
        account: account.name,
        name,
        zone_id: zone?.id ?? null,
        zone_name: zoneName,
        server_id: server?.id ?? null,
        mode: body.mode ?? "mailbox",
        enabled: true,
        catch_all: null,
        default_quota_bytes: DEFAULT_QUOTA,
        dmarc_policy: "none",
        backup_enabled: false,
        dkim_selector: "nsp1",
        // The raw key is the last 32 bytes of the SPKI encoding (RFC 8463 publishes it bare).
        dkim_public_key: spki.subarray(spki.length - 32).toString("base64"),
        mta_sts_id: stsId(store),
        records: [],
        checked_at: null,
        created_at: store.timestamp(),
      };
      if (zone) publish(store, domain, zone, server);
      else domain.records = unpublished(domain, server);
      t.domains.set(domain.id, domain);
      ctx.status(201);
      return domainView(store, domain);
    },
  }),

  route({
    method: "GET",
    path: "/mail/domains/:id",
    scope: "read",
    handler: (ctx) => domainView(ctx.store, ownDomain(ctx, ctx.params.id)),
  }),

  route({
    method: "PATCH",
    path: "/mail/domains/:id",
    scope: "write",
    body: patchDomainBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const t = mail(store);
      const domain = ownDomain(ctx, ctx.params.id);
      let catchAll: string | null = null;
      if (body.catch_all) {
        const addr = normalizeEmail(body.catch_all);
        if (addr === null) throw invalid("catch_all", "must be an email address such as postmaster@example.com, or null to turn catch-all off");
        catchAll = addr;
      }
      if (body.mode === "forward" && domain.mode !== "forward") {
        const boxes = [...t.mailboxes.values()].filter((m) => m.domain_id === domain.id);
        if (boxes.length) throw new ApiError("conflict", `mode: domain ${domain.name} still has ${boxes.length} mailbox(es) (${boxes.map((m) => m.local).join(", ")}); a forward-only domain has none`);
      }
      if (body.mode === "mailbox" && domain.mode !== "mailbox") {
        const routes = [...domainRoutes(t, domain.id).keys()];
        if (routes.length) throw new ApiError("conflict", `mode: domain ${domain.name} still has forwarding routes (${routes.join(", ")}); a mailbox-only domain has none`);
      }
      if (body.enabled !== undefined) domain.enabled = body.enabled;
      if (body.catch_all !== undefined) domain.catch_all = catchAll;
      if (body.mode !== undefined) domain.mode = body.mode;
      if (body.default_quota_bytes !== undefined) domain.default_quota_bytes = body.default_quota_bytes;
      if (body.backup_enabled !== undefined) domain.backup_enabled = body.backup_enabled;
      if (body.dmarc_policy !== undefined && body.dmarc_policy !== domain.dmarc_policy) {
        domain.dmarc_policy = body.dmarc_policy;
        updateDmarc(store, domain);
      }
      return domainView(store, domain);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/domains/:id",
    scope: "write",
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      unpublish(ctx.store, domain);
      deleteDomainObjects(mail(ctx.store), domain);
      return undefined;
    },
  }),

  route({
    method: "GET",
    path: "/mail/domains/:id/records",
    scope: "read",
    handler: (ctx) => recordsAnswer(ctx.store, ownDomain(ctx, ctx.params.id)),
  }),

  route({
    method: "POST",
    path: "/mail/domains/:id/records",
    scope: "write",
    handler: (ctx) => {
      const { store } = ctx;
      const domain = ownDomain(ctx, ctx.params.id);
      const zone = domain.zone_id === null ? undefined : store.zones.get(domain.zone_id);
      if (!zone) throw new ApiError("conflict", `mail domain ${domain.name} is not in a zone hosted here; add its records at the zone's DNS provider (GET /mail/domains/${domain.id}/records lists them)`);
      publish(store, domain, zone, serverOf(store, domain));
      return recordsAnswer(store, domain);
    },
  }),

  route({
    method: "POST",
    path: "/mail/domains/:id/check",
    scope: "write",
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      if (domain.server_id === null) throw new ApiError("conflict", `mail domain ${domain.name} is served by the service's nodes; only BYO domains are checked`);
      checkRecords(ctx.store, domain);
      return recordsAnswer(ctx.store, domain);
    },
  }),

  // ---- forwarding routes --------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/domains/:id/routes",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      return paginate([...domainRoutes(mail(ctx.store), domain.id).values()], ctx.query, (r) => routeView(ctx.store, r));
    },
  }),

  route({
    method: "PUT",
    path: "/mail/domains/:id/routes",
    scope: "write",
    body: routeBody,
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const t = mail(store);
      const domain = ownDomain(ctx, ctx.params.id);
      if (!destinationByAddr(t, account.name, body.dest)) {
        throw invalid("dest", `${body.dest} is not a forwarding destination of this account; add it with POST /mail/destinations first`);
      }
      if (domain.mode === "mailbox") throw new ApiError("conflict", `mail domain ${domain.name} is in mailbox mode; forwarding routes need mode forward or both`);
      const holder = localPartHolder(t, domain.id, body.local_part, { kind: "route", id: body.local_part });
      if (holder) throw localPartTaken(domain, body.local_part, holder);
      const routes = domainRoutes(t, domain.id);
      const now = store.timestamp();
      const existing = routes.get(body.local_part);
      const row = { account: account.name, domain_id: domain.id, local_part: body.local_part, dest: body.dest, created_at: existing?.created_at ?? now, updated_at: now };
      routes.set(row.local_part, row);
      return routeView(store, row);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/domains/:id/routes/{local}",
    scope: "write",
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      if (!domainRoutes(mail(ctx.store), domain.id).delete(ctx.params.local.trim().toLowerCase())) throw notFound("route");
      return undefined;
    },
  }),

  // ---- destinations -------------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/destinations",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ store, account, query }) => paginate([...mail(store).destinations.values()].filter((d) => d.account === account.name), query, destinationView),
  }),

  route({
    method: "POST",
    path: "/mail/destinations",
    scope: "write",
    body: z.strictObject({ addr: emailAddress }),
    handler: (ctx) => {
      const { store, account, body } = ctx;
      const t = mail(store);
      if (destinationByAddr(t, account.name, body.addr)) throw new ApiError("conflict", `addr: ${body.addr} is already a destination of this account`);
      const row: DestinationRow = { id: newStringId("dst", t.destinations), account: account.name, addr: body.addr, confirmed_at: null, created_at: store.timestamp() };
      t.destinations.set(row.id, row);
      ctx.status(201);
      return destinationView(row);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/destinations/{addr}",
    scope: "write",
    handler: (ctx) => {
      const t = mail(ctx.store);
      const dest = ownDestination(ctx, ctx.params.addr);
      const users: string[] = [];
      for (const d of ctx.store.list(t.domains, ctx.account.name)) {
        for (const r of domainRoutes(t, d.id).values()) if (r.dest === dest.addr) users.push(`${r.local_part}@${d.name}`);
      }
      if (users.length) throw new ApiError("conflict", `destination ${dest.addr} is used by the forwarding routes of ${users.join(", ")}; delete or change them first`);
      t.destinations.delete(dest.id);
      return undefined;
    },
  }),

  // ---- domain rules -------------------------------------------------------------------------

  route({
    method: "GET",
    path: "/mail/domains/:id/rules",
    scope: "read",
    query: pagingOnlyQuery,
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      return paginate([...mail(ctx.store).rules.values()].filter((r) => r.domain_id === domain.id), ctx.query, ruleView);
    },
  }),

  route({
    method: "POST",
    path: "/mail/domains/:id/rules",
    scope: "write",
    body: createRuleBody,
    handler: (ctx) => {
      const { store, body } = ctx;
      const domain = ownDomain(ctx, ctx.params.id);
      const target = checkRuleTarget(body.kind, body.target ?? null);
      const row: DomainRuleRow = {
        id: store.nextId(),
        account: domain.account,
        domain_id: domain.id,
        kind: body.kind,
        pattern: body.pattern,
        target,
        enabled: body.enabled ?? true,
        created_at: store.timestamp(),
      };
      mail(store).rules.set(row.id, row);
      ctx.status(201);
      return ruleView(row);
    },
  }),

  route({
    method: "PATCH",
    path: "/mail/domainrules/:id",
    scope: "write",
    body: patchRuleBody,
    handler: (ctx) => {
      const { body } = ctx;
      const rule = ownRule(ctx, ctx.params.id);
      const kind = body.kind ?? rule.kind;
      // A kind change without a target keeps the old target only when the new kind takes one.
      const target = checkRuleTarget(kind, body.target !== undefined ? body.target : rule.target);
      Object.assign(rule, { kind, target, pattern: body.pattern ?? rule.pattern, enabled: body.enabled ?? rule.enabled });
      return ruleView(rule);
    },
  }),

  route({
    method: "DELETE",
    path: "/mail/domainrules/:id",
    scope: "write",
    handler: (ctx) => {
      mail(ctx.store).rules.delete(ownRule(ctx, ctx.params.id).id);
      return undefined;
    },
  }),

  // ---- delivery log and counters: the emulator delivers no mail, so these are empty ----------

  route({
    method: "GET",
    path: "/mail/domains/:id/log",
    scope: "read",
    query: z.strictObject({ verdict: z.enum(["delivered", "rejected", "deferred", "dropped"]).optional(), limit: queryInt(1, 1000).optional() }),
    handler: (ctx) => {
      ownDomain(ctx, ctx.params.id);
      return { data: [], next_cursor: null };
    },
  }),

  route({
    method: "GET",
    path: "/mail/domains/:id/logs",
    scope: "read",
    query: z.strictObject({
      kind: z.enum(["received", "rejected", "delivered", "bounced", "action_failed"]).optional(),
      q: z.string().optional(),
      cursor: z.string().optional(),
      limit: queryInt(1, 1000).optional(),
    }),
    handler: (ctx) => {
      ownDomain(ctx, ctx.params.id);
      return { data: [], next_cursor: null };
    },
  }),

  route({
    method: "GET",
    path: "/mail/domains/:id/stats",
    scope: "read",
    query: z.strictObject({ days: queryInt(1, 90).optional() }),
    handler: (ctx) => {
      const domain = ownDomain(ctx, ctx.params.id);
      const days = ctx.query.days ?? 7;
      const hour = 3600_000;
      const end = Math.floor(ctx.now() / hour) * hour;
      const hours = Array.from({ length: days * 24 }, (_, i) => ({
        t: new Date(end - (days * 24 - 1 - i) * hour).toISOString(),
        received: 0,
        delivered: 0,
        rejected: 0,
        deferred: 0,
        bounced: 0,
        sent: 0,
      }));
      return { domain_id: domain.id, days, hours };
    },
  }),
];
