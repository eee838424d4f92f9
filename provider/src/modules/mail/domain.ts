import { z } from "zod";
import type { CheckFailure, OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { collection, apiId, naturalKey } from "../../framework/api/shapes/collection";
import type { HeldItem, Holds } from "../../framework/definition/holds";
import { alias } from "./alias";
import { domainRule } from "./domain-rule";
import { group } from "./group";
import { mailbox } from "./mailbox";
import { route } from "./route";
import { ownIdOf } from "../../framework/api/ids";
import { domainName, quotaBytes, settingsAfterCreate } from "./fields";
import { email, stringRef } from "../../framework/api/validators";

const TOKEN = "nsp:mail:Domain";
export const MAIL_MODES = ["mailbox", "forward", "both"] as const;

// The create body names the domain and where it lives; its settings are set by a patch.
const domainArgs = z.object({
  name: domainName.meta({
    key: true,
    description:
      "The mail domain, such as `example.com` or `lists.example.com`. Stored lower-case without a trailing dot.",
    create: true,
    replace: true,
  }),
  zoneId: idRef(
    "Id of the hosted zone (`nsp:dns:Zone`) that holds the domain; the domain's records (MX, SPF, DKIM, " +
      "DMARC, TLS policy) are published into it. Without it nothing is published and `records` lists what " +
      "to add at the zone's DNS provider.",
  )
    .optional()
    .meta({ create: true, replace: true }),
  zoneName: domainName.optional().meta({
    description:
      "Name of the zone that holds the domain. With `zoneId` it must be that zone's name (the API fills it " +
      "in when unset); without, it defaults to `name`.",
    create: true,
    replace: true,
  }),
  serverId: stringRef(
    "Id of a BYO mail server (`nsp:mail:Server`) that serves the domain; unset, the domain is served by " +
      "the service's own nodes.",
  )
    .optional()
    .meta({ create: true, replace: true }),
  mode: z.enum(MAIL_MODES).default("mailbox").meta({
    description: "`mailbox` hosts mailboxes, `forward` only forwards (routes), `both` does both.",
    create: true,
    patch: true,
  }),
  enabled: z.boolean().default(true).meta({ description: "Whether the domain accepts mail.", patch: true }),
  catchAll: email.nullable().optional().meta({
    description: "Address that receives mail for unknown local parts; unset (or null) turns catch-all off.",
    patch: true,
  }),
  // The API cannot unset the default quota; dropping it from the program leaves the last value.
  defaultQuotaBytes: quotaBytes.optional().meta({
    description: "Quota of new mailboxes, in bytes (1 MiB to 1 TiB); the API's default (5 GiB) when unset.",
    patch: true,
  }),
  dmarcPolicy: z
    .enum(["none", "quarantine", "reject"])
    .default("none")
    .meta({ description: "Policy published in the domain's DMARC record.", patch: true }),
  backupEnabled: z
    .boolean()
    .default(false)
    .meta({ description: "Whether messages are kept in an encrypted backup copy.", patch: true }),
});

const recordShape = z
  .object({
    kind: z.string().meta({
      description:
        "What the record is for: `mx`, `spf`, `dkim`, `dmarc`, `tls_policy` (MTA-STS) or `tls_rpt` (TLS reporting).",
    }),
    name: z.string().meta({ description: "Fully qualified record name." }),
    type: z.string().meta({ description: "Record type (`MX`, `TXT`, `CNAME`)." }),
    content: z.string().meta({ description: "Record content." }),
    ttl: z.number().int().meta({ description: "Time to live in seconds." }),
    recordId: z.string().nullable().optional().meta({
      description:
        "Id of the record in the hosted zone (`nsp:dns:Record` import id `<zoneId>/<recordId>`); null when not published.",
      wireInteger: true,
    }),
    status: z.string().meta({
      description:
        "`published`, `missing`, `modified` or `not_published` for a domain on the service's nodes; for a BYO " +
        "domain the last check's result (`unchecked`, `ok`, `missing`, `mismatch`).",
    }),
  })
  .meta({ typeName: "MailDomainRecord", description: "One DNS record of the domain." });

const domainState = z.object({
  byo: z.boolean().meta({ description: "Whether the domain is served by a BYO server." }),
  dkimSelector: z
    .string()
    .meta({ description: "DKIM selector; the key is published at `<selector>._domainkey.<name>`." }),
  records: z.array(recordShape).meta({
    description:
      "The records the domain publishes: MX, SPF, DKIM, DMARC and the TLS policy (MTA-STS and TLS reporting).",
  }),
  checkedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "When a BYO domain's records were last checked against public DNS." }),
  createdAt: z.string().meta({ description: "When the domain was set up." }),
});

export const domainProperties = domainArgs.extend(domainState.shape);

const domains = collection({
  token: TOKEN,
  path: "/mail/domains",
  args: domainArgs,
  state: domainState,
  idOnWire: z.number().int(),
  id: apiId((id) => ownIdOf(TOKEN, id, { what: "mail domain", form: "<domainId>" })),
});
/** A mail domain as the API returns it, every field the resource declares. */
export const domainWire = domains.wire as z.ZodType<z.output<typeof domains.wire> & { name: string }>;

const zoneWire = z.looseObject({ name: z.string() });
const zoneRecordWire = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  content: z.string(),
  enabled: z.boolean().optional(),
});
const publishedIdsWire = z.looseObject({
  name: z.string(),
  records: z.array(z.looseObject({ record_id: z.number().int().nullable().optional() })),
});

/**
 * The domain adds its own MX and SPF records at its name and leaves the zone's other records
 * alone, so MX or SPF records already there would split incoming mail between two sets of
 * servers (and two SPF records make SPF fail, RFC 7208 4.5). The user hears of them before
 * anything is published; reads only, so preview can say it too. A warning is a courtesy: a
 * failed read skips it and leaves the create to report what is wrong.
 */
async function warnAboutMailRecordsInPlace(ctx: OperationContext, args: z.output<typeof domainArgs>): Promise<void> {
  if (args.zoneId === undefined) return; // nothing is published without a hosted zone
  try {
    const zoneId = args.zoneId;
    const zoneName =
      args.zoneName ??
      (await ctx.client.get(`/dns/zones/${zoneId}`, { schema: zoneWire, signal: ctx.signal })).name.toLowerCase();
    // Record names are relative to the zone (`@` for the apex).
    const relative = args.name === zoneName ? "@" : args.name.slice(0, -(zoneName.length + 1));
    const atName = (name: string) => {
      const n = name.toLowerCase().replace(/\.$/, "");
      return n === relative || n === args.name || (relative === "@" && n === "");
    };
    const records = await ctx.client.listAll(`/dns/zones/${zoneId}/records`, {
      itemSchema: zoneRecordWire,
      signal: ctx.signal,
    });
    const candidates = records.filter(
      (r) =>
        r.enabled !== false &&
        atName(r.name) &&
        (r.type.toUpperCase() === "MX" ||
          (r.type.toUpperCase() === "TXT" && /^"?v=spf1(\s|"?$)/i.test(r.content.trim()))),
    );
    if (candidates.length === 0) return;
    // A create retried after a lost answer finds the domain's own records: those are no news.
    const sameDomain = (
      await ctx.client.listAll("/mail/domains", { itemSchema: publishedIdsWire, signal: ctx.signal })
    ).find((d) => d.name === args.name);
    const own = new Set((sameDomain?.records ?? []).map((r) => r.record_id));
    const inPlace = candidates.filter((r) => !own.has(r.id));
    if (inPlace.length === 0) return;
    const listed = inPlace.map((r) => `${r.type.toUpperCase()} ${JSON.stringify(r.content)}`).join(", ");
    ctx.log(
      "warning",
      `${args.name} already has mail records in zone ${zoneName}: ${listed}. The mail domain adds its own MX and SPF records beside them, ` +
        ("so mail routing for this name changes (and two SPF records make SPF checks fail). Delete the old " +
          "records, or keep them knowingly."),
    );
  } catch (e) {
    ctx.log(
      "debug",
      `could not look for mail records already at ${args.name}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** `local@domain` as the API shows it, else made from the local part and the domain's name. */
const addressOf = (item: HeldItem, domain: Record<string, unknown>) =>
  typeof item.address === "string" && item.address
    ? item.address
    : `${String(item.local ?? item.local_part)}@${String(domain.name)}`;

// Aliases of a mailbox go with it too; counted as aliases, they are named however they go.
const domainHolds: Holds = {
  what: "mail domain",
  kinds: [
    { of: mailbox, names: ["mailbox", "mailboxes"], nameOf: addressOf },
    { of: alias, names: ["alias", "aliases"], nameOf: addressOf },
    { of: group, names: ["group", "groups"], nameOf: addressOf },
    { of: domainRule, names: ["domain rule", "domain rules"], nameOf: (r) => `${String(r.kind)} ${String(r.pattern)}` },
    {
      of: route,
      names: ["forwarding route", "forwarding routes"],
      nameOf: (r, d) => `${addressOf(r, d)} -> ${String(r.dest)}`,
    },
  ],
};

export const domain = domains.resource({
  since: "0.1.0",
  list: {
    zoneOf: (d) => d.zone_id,
    // Its records belong to it, so the mail domains are read with the records.
    discovery: {
      publishes: {
        token: "nsp:dns:Record",
        what: "mail domain",
        ids: (d) => ((d.records ?? []) as { record_id?: unknown }[]).map((r) => r.record_id).filter((id) => id != null),
      },
    },
  },
  description:
    "A mail domain, served by the service's nodes or by a BYO server (`serverId`). In a hosted zone " +
    "(`zoneId`) it publishes its MX, SPF, DKIM, DMARC and TLS-policy records there (listed in `records`); " +
    "deleting the domain removes exactly those records, and its mailboxes (with their mail), aliases, " +
    "groups, rules and routes: see Deleting.",
  holds: domainHolds,
  // A name is one mail domain per account, so a replacement with the same name waits for the delete.
  deleteBeforeReplace: (olds, news) => olds.name === news.name,
  importId: "<domainId>",

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.zoneName !== undefined && args.name !== args.zoneName && !args.name.endsWith(`.${args.zoneName}`)) {
      failures.push({ property: "name", reason: `${args.name} is not inside zone ${args.zoneName}` });
    }
    return failures;
  },

  warnBeforeCreate: warnAboutMailRecordsInPlace,

  async create(ctx, args) {
    await warnAboutMailRecordsInPlace(ctx, args);
    // A name is one mail domain per account: the natural key.
    const current = await domains.create(
      ctx,
      `mail domain ${args.name}`,
      args,
      naturalKey((d) => d.name === args.name),
    );
    ctx.progress(current.id, current.state);
    const settings = settingsAfterCreate(domainArgs, args, current.state);
    if (settings.length === 0) return current;
    return { id: current.id, state: await domains.update(ctx, current.id, args, current.state, settings) };
  },
});
