import { z } from "zod";
import { defineResource, type CheckFailure, type OperationContext } from "../../framework/definition";
import { body, fromWire, idRef } from "../../framework/wire";
import { isNotFound } from "../../client";
import { createOnce } from "../../framework/create-once";
import { explainConflict } from "../../framework/adoption";
import { domainName, email, numericIdOf, quotaBytes, stringRef } from "./fields";

const TOKEN = "nsp:mail:Domain";
export const MAIL_MODES = ["mailbox", "forward", "both"] as const;

const domainArgs = z.object({
  name: domainName.meta({ description: "The mail domain, such as `example.com` or `lists.example.com`. Stored lower-case without a trailing dot." }),
  zoneId: idRef(
    "Id of the hosted zone (`nsp:dns:Zone`) that holds the domain; the domain's records (MX, SPF, DKIM, DMARC, TLS policy) are published into it. Without it nothing is published and `records` lists what to add at the zone's DNS provider.",
  ).optional(),
  zoneName: domainName
    .optional()
    .meta({ description: "Name of the zone that holds the domain. With `zoneId` it must be that zone's name (the API fills it in when unset); without, it defaults to `name`." }),
  serverId: stringRef("Id of a BYO mail server (`nsp:mail:Server`) that serves the domain; unset, the domain is served by the service's own nodes.").optional(),
  mode: z.enum(MAIL_MODES).default("mailbox").meta({ description: "`mailbox` hosts mailboxes, `forward` only forwards (routes), `both` does both." }),
  enabled: z.boolean().default(true).meta({ description: "Whether the domain accepts mail." }),
  catchAll: email.nullable().optional().meta({ description: "Address that receives mail for unknown local parts; unset (or null) turns catch-all off." }),
  defaultQuotaBytes: quotaBytes.optional().meta({ description: "Quota of new mailboxes, in bytes (1 MiB to 1 TiB); the API's default (5 GiB) when unset." }),
  dmarcPolicy: z.enum(["none", "quarantine", "reject"]).default("none").meta({ description: "Policy published in the domain's DMARC record." }),
  backupEnabled: z.boolean().default(false).meta({ description: "Whether messages are kept in an encrypted backup copy." }),
});

const recordShape = z
  .object({
    kind: z.string().meta({ description: "What the record is for: `mx`, `spf`, `dkim`, `dmarc`, `tls_policy` (MTA-STS) or `tls_rpt` (TLS reporting)." }),
    name: z.string().meta({ description: "Fully qualified record name." }),
    type: z.string().meta({ description: "Record type (`MX`, `TXT`, `CNAME`)." }),
    content: z.string().meta({ description: "Record content." }),
    ttl: z.number().int().meta({ description: "Time to live in seconds." }),
    recordId: z.string().nullable().optional().meta({ description: "Id of the record in the hosted zone (`nsp:dns:Record` import id `<zoneId>/<recordId>`); null when not published." }),
    status: z
      .string()
      .meta({ description: "`published`, `missing`, `modified` or `not_published` for a domain on the service's nodes; for a BYO domain the last check's result (`unchecked`, `ok`, `missing`, `mismatch`)." }),
  })
  .meta({ typeName: "MailDomainRecord", description: "One DNS record of the domain." });

const domainState = z.object({
  byo: z.boolean().meta({ description: "Whether the domain is served by a BYO server." }),
  dkimSelector: z.string().meta({ description: "DKIM selector; the key is published at `<selector>._domainkey.<name>`." }),
  records: z.array(recordShape).meta({ description: "The records the domain publishes: MX, SPF, DKIM, DMARC and the TLS policy (MTA-STS and TLS reporting)." }),
  checkedAt: z.string().nullable().optional().meta({ description: "When a BYO domain's records were last checked against public DNS." }),
  createdAt: z.string().meta({ description: "When the domain was set up." }),
});

export const domainProperties = domainArgs.extend(domainState.shape);
type DomainState = z.output<typeof domainProperties>;

const domainWire = z.looseObject({ id: z.number().int(), name: z.string(), records: z.array(z.looseObject({ kind: z.string() })) });
type DomainWire = z.output<typeof domainWire>;

const PATCHABLE = ["enabled", "catchAll", "mode", "defaultQuotaBytes", "dmarcPolicy", "backupEnabled"] as const;
const CREATE = ["zoneId", "serverId", "name", "zoneName", "mode"] as const;

const toState = (raw: DomainWire) => ({ id: String(raw.id), state: fromWire(domainProperties, raw) as DomainState });
const domainIdOf = (id: string) => numericIdOf(TOKEN, id, "<domainId>");

const zoneWire = z.looseObject({ name: z.string() });
const zoneRecordWire = z.looseObject({ id: z.number().int(), name: z.string(), type: z.string(), content: z.string(), enabled: z.boolean().optional() });
const publishedIdsWire = z.looseObject({ name: z.string(), records: z.array(z.looseObject({ record_id: z.number().int().nullable().optional() })) });

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
    const zoneName = args.zoneName ?? (await ctx.client.get(`/dns/zones/${zoneId}`, { schema: zoneWire, signal: ctx.signal })).name.toLowerCase();
    // Record names are relative to the zone (`@` for the apex).
    const relative = args.name === zoneName ? "@" : args.name.slice(0, -(zoneName.length + 1));
    const atName = (name: string) => {
      const n = name.toLowerCase().replace(/\.$/, "");
      return n === relative || n === args.name || (relative === "@" && n === "");
    };
    const records = await ctx.client.listAll(`/dns/zones/${zoneId}/records`, { itemSchema: zoneRecordWire, signal: ctx.signal });
    const candidates = records.filter(
      (r) => r.enabled !== false && atName(r.name) && (r.type.toUpperCase() === "MX" || (r.type.toUpperCase() === "TXT" && /^"?v=spf1(\s|"?$)/i.test(r.content.trim()))),
    );
    if (candidates.length === 0) return;
    // A create retried after a lost answer finds the domain's own records: those are no news.
    const sameDomain = (await ctx.client.listAll("/mail/domains", { itemSchema: publishedIdsWire, signal: ctx.signal })).find((d) => d.name === args.name);
    const own = new Set((sameDomain?.records ?? []).map((r) => r.record_id));
    const inPlace = candidates.filter((r) => !own.has(r.id));
    if (inPlace.length === 0) return;
    const listed = inPlace.map((r) => `${r.type.toUpperCase()} ${JSON.stringify(r.content)}`).join(", ");
    ctx.log(
      "warning",
      `${args.name} already has mail records in zone ${zoneName}: ${listed}. The mail domain adds its own MX and SPF records beside them, ` +
        "so mail routing for this name changes (and two SPF records make SPF checks fail). Delete the old records, or keep them knowingly.",
    );
  } catch (e) {
    ctx.log("debug", `could not look for mail records already at ${args.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export const domain = defineResource({
  token: TOKEN,
  description:
    "A mail domain, served by the service's nodes or by a BYO server (`serverId`). In a hosted zone (`zoneId`) it publishes its MX, SPF, DKIM, DMARC and TLS-policy records there (listed in `records`); deleting the domain removes exactly those records, and its mailboxes, aliases, groups, rules and routes.",
  args: domainArgs,
  state: domainState,
  replaceOnChanges: ["name", "zoneId", "zoneName", "serverId"],
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
    const existing = async () => (await ctx.client.listAll("/mail/domains", { itemSchema: domainWire, signal: ctx.signal })).find((d) => d.name === args.name);
    const created = await createOnce(
      ctx,
      `mail domain ${args.name}`,
      () => ctx.client.post("/mail/domains", body(domainArgs, args, CREATE), { schema: domainWire, signal: ctx.signal }),
      // A name is one mail domain per account: the natural key.
      existing,
    ).catch((e: unknown) => explainConflict(ctx, "nsp:mail:Domain", `mail domain ${args.name}`, e, existing));
    ctx.progress(String(created.id), toState(created).state);
    // The create body has no settings; values other than the API's defaults take a patch.
    const settings = PATCHABLE.filter((k) => {
      if (k === "mode") return false;
      if (k === "enabled") return !args.enabled;
      if (k === "dmarcPolicy") return args.dmarcPolicy !== "none";
      if (k === "backupEnabled") return args.backupEnabled;
      return args[k] !== undefined && args[k] !== null;
    });
    if (settings.length === 0) return toState(created);
    return toState(await ctx.client.patch(`/mail/domains/${created.id}`, body(domainArgs, args, settings), { schema: domainWire, signal: ctx.signal }));
  },

  async read(ctx, id) {
    try {
      return toState(await ctx.client.get(`/mail/domains/${domainIdOf(id)}`, { schema: domainWire, signal: ctx.signal }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  },

  async update(ctx, id, news, olds, changedInputs) {
    // The API cannot unset the default quota; dropping it from the program leaves the last value.
    const changed = PATCHABLE.filter((k) => changedInputs.includes(k) && !(k === "defaultQuotaBytes" && news[k] === undefined));
    if (changed.length === 0) return { ...olds, ...news };
    const patch = body(domainArgs, { ...news, catchAll: news.catchAll ?? null }, changed);
    return toState(await ctx.client.patch(`/mail/domains/${domainIdOf(id)}`, patch, { schema: domainWire, signal: ctx.signal })).state;
  },

  async delete(ctx, id) {
    await ctx.client.delete(`/mail/domains/${domainIdOf(id)}`, { signal: ctx.signal });
  },
});
