// Mail domains with the DNS records they publish, their forwarding routes and domain rules, the
// account's forwarding destinations, and the (empty) delivery log and counters.
import { generateKeyPairSync } from "node:crypto";
import { z } from "zod";
import { ApiError, invalid, notFound } from "../pipeline/errors";
import { normalizeEmail } from "../model/names";
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
  ownDomain,
} from "./state";
import { uniqueId } from "../model/tables";
import { destinationView, domainRecordsView, domainView, routeView, ruleView } from "./views";
import { paginate, pagingOnlyQuery } from "../model/paging";
import type { Env } from "../pipeline/route";
import { collection } from "../model/collection";
import type { Store, ZoneRow } from "../model/store";
import { intBetween, queryInt } from "../pipeline/validation";

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
const patchRuleBody = z.strictObject({
  ...ruleFields,
  kind: ruleFields.kind.optional(),
  pattern: ruleFields.pattern.optional(),
});

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
    if (target === null)
      throw invalid("target", "relay_rcpt needs the relay host, such as relay.example.net or relay.example.net:2525");
    if (!isRelayHost(target))
      throw invalid(
        "target",
        "must be a host name or address with an optional port, such as relay.example.net:2525, for relay_rcpt",
      );
    return target.toLowerCase();
  }
  if (target !== null) throw invalid("target", `must be empty for ${kind} rules`);
  return null;
}

function ownDestination(env: AccountEnv, addr: string): DestinationRow {
  const d = destinationByAddr(mail(env.store), env.account.name, addr.trim().toLowerCase());
  if (!d) throw notFound("destination");
  return d;
}

/** A compact policy id for MTA-STS: the creation time, `YYYYMMDDhhmmss`. */
function stsId(store: Store): string {
  return store
    .timestamp()
    .replace(/[-:.TZ]/g, "")
    .slice(0, 14);
}

const domains = collection({
  path: "/mail/domains",
  what: "mail domain",
  table: ({ store }) => mail(store).domains,
  view: (d, { store }) => domainView(store, d),
  create: {
    body: createDomainBody,
    build: (ctx): MailDomainRow => {
      const { store, account, body } = ctx;
      const t = mail(store);
      const name = domainName("name", body.name);
      let zone: ZoneRow | null = null;
      if (body.zone_id !== undefined && body.zone_id !== null) {
        const found = store.zones.get(body.zone_id);
        if (!found || found.account !== account.name)
          throw invalid("zone_id", `no zone ${body.zone_id} in this account`);
        zone = found;
      }
      let zoneName = zone?.name ?? name;
      if (body.zone_name !== undefined && body.zone_name !== null) {
        zoneName = domainName("zone_name", body.zone_name);
        if (zone && zoneName !== zone.name)
          throw invalid("zone_name", `must be the name of zone ${zone.id} (${zone.name}) or left out`);
      }
      if (!isInside(name, zoneName)) throw invalid("name", `${name} is not inside zone ${zoneName}`);
      let server: MailServerRow | null = null;
      if (body.server_id !== undefined && body.server_id !== null) {
        const found = t.servers.get(body.server_id);
        if (!found || found.account !== account.name)
          throw invalid("server_id", `no mail server ${body.server_id} in this account`);
        server = found;
      }
      const clash = store.list(t.domains, account.name).find((d) => d.name === name);
      if (clash)
        throw new ApiError("conflict", `name: ${name} is already a mail domain of this account (id ${clash.id})`);
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
      return domain;
    },
  },
  patch: {
    body: patchDomainBody,
    apply: ({ store, body }, domain) => {
      const t = mail(store);
      let catchAll: string | null = null;
      if (body.catch_all) {
        const addr = normalizeEmail(body.catch_all);
        if (addr === null)
          throw invalid(
            "catch_all",
            "must be an email address such as postmaster@example.com, or null to turn catch-all off",
          );
        catchAll = addr;
      }
      if (body.mode === "forward" && domain.mode !== "forward") {
        const boxes = [...t.mailboxes.values()].filter((m) => m.domain_id === domain.id);
        if (boxes.length)
          throw new ApiError(
            "conflict",
            `mode: domain ${domain.name} still has ${boxes.length} mailbox(es) (${boxes.map((m) => m.local).join(", ")}); a forward-only domain has none`,
          );
      }
      if (body.mode === "mailbox" && domain.mode !== "mailbox") {
        const routes = [...domainRoutes(t, domain.id).keys()];
        if (routes.length)
          throw new ApiError(
            "conflict",
            `mode: domain ${domain.name} still has forwarding routes (${routes.join(", ")}); a mailbox-only domain has none`,
          );
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
    },
  },
  remove: ({ store }, domain) => {
    unpublish(store, domain);
    deleteDomainObjects(mail(store), domain);
  },
});

const destinations = collection({
  path: "/mail/destinations",
  item: "/mail/destinations/{addr}",
  what: "destination",
  table: ({ store }) => mail(store).destinations,
  view: destinationView,
  own: (ctx, addr) => ownDestination(ctx, addr),
  create: {
    body: z.strictObject({ addr: emailAddress }),
    build: ({ store, account, body }): DestinationRow => {
      const t = mail(store);
      if (destinationByAddr(t, account.name, body.addr))
        throw new ApiError("conflict", `addr: ${body.addr} is already a destination of this account`);
      return {
        id: uniqueId("dst", t.destinations),
        account: account.name,
        addr: body.addr,
        confirmed_at: null,
        created_at: store.timestamp(),
      };
    },
  },
  get: false,
  remove: ({ store, account }, dest) => {
    const t = mail(store);
    const users: string[] = [];
    for (const d of store.list(t.domains, account.name)) {
      for (const r of domainRoutes(t, d.id).values()) if (r.dest === dest.addr) users.push(`${r.local_part}@${d.name}`);
    }
    if (users.length)
      throw new ApiError(
        "conflict",
        `destination ${dest.addr} is used by the forwarding routes of ${users.join(", ")}; delete or change them first`,
      );
  },
});

const domainRules = collection({
  path: "/mail/domains/:id/rules",
  item: "/mail/domainrules/:id",
  what: "domain rule",
  table: ({ store }) => mail(store).rules,
  view: ruleView,
  parent: { own: (ctx) => ownDomain(ctx, ctx.params.id), of: (r) => r.domain_id },
  create: {
    body: createRuleBody,
    build: ({ store, body }, domain): DomainRuleRow => ({
      id: store.nextId(),
      account: domain.account,
      domain_id: domain.id,
      kind: body.kind,
      pattern: body.pattern,
      target: checkRuleTarget(body.kind, body.target ?? null),
      enabled: body.enabled ?? true,
      created_at: store.timestamp(),
    }),
  },
  get: false,
  patch: {
    body: patchRuleBody,
    apply: ({ body }, rule) => {
      const kind = body.kind ?? rule.kind;
      // A kind change without a target keeps the old target only when the new kind takes one.
      const target = checkRuleTarget(kind, body.target !== undefined ? body.target : rule.target);
      Object.assign(rule, {
        kind,
        target,
        pattern: body.pattern ?? rule.pattern,
        enabled: body.enabled ?? rule.enabled,
      });
    },
  },
  remove: true,
});

/** The delivery log: the emulator delivers no mail, so it is always empty. */
const emptyLog = () => ({ data: [], next_cursor: null });

export const mailDomainRoutes = [
  ...domains.routes,

  domains.member("GET", "records", (domain, { store }) => recordsAnswer(store, domain)),

  domains.member("POST", "records", (domain, { store }) => {
    const zone = domain.zone_id === null ? undefined : store.zones.get(domain.zone_id);
    if (!zone)
      throw new ApiError(
        "conflict",
        `mail domain ${domain.name} is not in a zone hosted here; add its records at the zone's DNS ` +
          `provider (GET /mail/domains/${domain.id}/records lists them)`,
      );
    publish(store, domain, zone, serverOf(store, domain));
    return recordsAnswer(store, domain);
  }),

  domains.member("POST", "check", (domain, { store }) => {
    if (domain.server_id === null)
      throw new ApiError(
        "conflict",
        `mail domain ${domain.name} is served by the service's nodes; only BYO domains are checked`,
      );
    checkRecords(store, domain);
    return recordsAnswer(store, domain);
  }),

  // ---- forwarding routes --------------------------------------------------------------------

  domains.member(
    "GET",
    "routes",
    (domain, { store, query }) =>
      paginate([...domainRoutes(mail(store), domain.id).values()], query, (r) => routeView(store, r)),
    { query: pagingOnlyQuery },
  ),

  domains.member(
    "PUT",
    "routes",
    (domain, { store, account, body }) => {
      const t = mail(store);
      if (!destinationByAddr(t, account.name, body.dest)) {
        throw invalid(
          "dest",
          `${body.dest} is not a forwarding destination of this account; add it with POST /mail/destinations first`,
        );
      }
      if (domain.mode === "mailbox")
        throw new ApiError(
          "conflict",
          `mail domain ${domain.name} is in mailbox mode; forwarding routes need mode forward or both`,
        );
      const holder = localPartHolder(t, domain.id, body.local_part, { kind: "route", id: body.local_part });
      if (holder) throw localPartTaken(domain, body.local_part, holder);
      const routes = domainRoutes(t, domain.id);
      const now = store.timestamp();
      const existing = routes.get(body.local_part);
      const row = {
        account: account.name,
        domain_id: domain.id,
        local_part: body.local_part,
        dest: body.dest,
        created_at: existing?.created_at ?? now,
        updated_at: now,
      };
      routes.set(row.local_part, row);
      return routeView(store, row);
    },
    { body: routeBody },
  ),

  domains.member("DELETE", "routes/{local}", (domain, { store, params }) => {
    if (!domainRoutes(mail(store), domain.id).delete(params.local.trim().toLowerCase())) throw notFound("route");
    return undefined;
  }),

  ...destinations.routes,
  ...domainRules.routes,

  // ---- delivery log and counters ------------------------------------------------------------

  domains.member("GET", "log", emptyLog, {
    query: z.strictObject({
      verdict: z.enum(["delivered", "rejected", "deferred", "dropped"]).optional(),
      limit: queryInt(1, 1000).optional(),
    }),
  }),

  domains.member("GET", "logs", emptyLog, {
    query: z.strictObject({
      kind: z.enum(["received", "rejected", "delivered", "bounced", "action_failed"]).optional(),
      q: z.string().optional(),
      cursor: z.string().optional(),
      limit: queryInt(1, 1000).optional(),
    }),
  }),

  domains.member(
    "GET",
    "stats",
    (domain, ctx) => {
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
    { query: z.strictObject({ days: queryInt(1, 90).optional() }) },
  ),
];
