import { isIPv4, isIPv6 } from "node:net";
import { lowerCaseMatching } from "../../framework/api/validators";
import { z } from "zod";
import { defineResource, type CheckFailure } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { createOrAdopt } from "../../framework/api/create-once";
import { sameContent } from "./record-content";
import { formOf, idFormat, NUMERIC_ID, parentHolding, parseId } from "../../framework/api/ids";
import { apexCnameWarning, warnAboutCnameClash } from "./rrset-rules";

export const RECORD_TYPES = [
  "A",
  "AAAA",
  "PTR",
  "CNAME",
  "TXT",
  "MX",
  "NS",
  "SRV",
  "CAA",
  "ALIAS",
  "HTTPS",
  "SVCB",
] as const;
const PROXIABLE = new Set<string>(["A", "AAAA", "CNAME"]);

const label = "[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?";
export const recordName = lowerCaseMatching(
  new RegExp(`^(@|\\*|(\\*\\.)?${label}(\\.${label})*)$`),
  "must be `@`, `*`, or dot-separated labels of letters, digits, `-` and `_` (no spaces), relative to the zone",
);

export const recordContent = z
  .string()
  .min(1, "must not be empty")
  .meta({ description: "Record data, such as an address, a target host name or TXT text." });
export const recordTtl = z
  .number()
  .int()
  .min(60)
  .max(86400)
  .default(3600)
  .meta({ description: "Time to live in seconds, 60 to 86400." });

// The record has no priority, weight or port field (the API documents none), so an MX or SRV
// record carries them in its data, as a zone file does; without them it is no MX or SRV record.
const SIXTEEN_BITS = "(6553[0-5]|655[0-2]\\d|65[0-4]\\d{2}|6[0-4]\\d{3}|[1-5]?\\d{1,4})";
const MX_CONTENT = new RegExp(`^\\s*${SIXTEEN_BITS}\\s+\\S+\\s*$`);
const SRV_CONTENT = new RegExp(`^\\s*${SIXTEEN_BITS}\\s+${SIXTEEN_BITS}\\s+${SIXTEEN_BITS}\\s+\\S+\\s*$`);

/** Why `content` cannot be the data of a `type` record, or undefined when it can. */
export function recordContentProblem(type: string, content: string): string | undefined {
  if (type === "A" && !isIPv4(content)) return `an A record needs an IPv4 address, got ${JSON.stringify(content)}`;
  if (type === "AAAA" && !isIPv6(content))
    return `an AAAA record needs an IPv6 address, got ${JSON.stringify(content)}`;
  if (type === "MX" && !MX_CONTENT.test(content))
    return `an MX record needs "<preference> <host>", such as "10 mail.example.com" (the preference is 0 to 65535), got ${JSON.stringify(content)}`;
  if (type === "SRV" && !SRV_CONTENT.test(content))
    return (
      `an SRV record needs "<priority> <weight> <port> <target>", such as "10 5 5060 sip.example.com" ` +
      `(each number 0 to 65535), got ${JSON.stringify(content)}`
    );
  return undefined;
}

const recordArgs = z.object({
  zoneId: idRef("Id of the zone that holds the record.").meta({ replace: true }),
  name: recordName
    .default("@")
    .meta({ key: true, description: "Name relative to the zone; `@` is the apex.", create: true, replace: true }),
  type: z.enum(RECORD_TYPES).meta({ key: true, description: "Record type.", create: true, replace: true }),
  content: recordContent.meta({ key: true, create: true, patch: true }),
  ttl: recordTtl.meta({ create: true, patch: true }),
  weight: z
    .number()
    .int()
    .min(0)
    .max(2147483647)
    .nullable()
    .optional()
    .meta({ description: "Steering weight among records of the same name and type.", create: true, patch: true }),
  healthCheck: z
    .string()
    .regex(
      /^[a-z][a-z0-9+.-]*:[0-9]{1,5}(\/\S*)?$/,
      "must have the shape <scheme>:<port><path>, such as https:443/health",
    )
    .nullable()
    .optional()
    .meta({ description: "Health check of the target, shaped `<scheme>:<port><path>`.", create: true, patch: true }),
  // The documented create body has neither, so a value other than the API's default takes a patch.
  enabled: z.boolean().default(true).meta({ description: "Whether the record is served.", patch: true }),
  proxied: z
    .boolean()
    .default(false)
    .meta({ description: "Route through the edge proxy. Only for A, AAAA and CNAME records.", patch: true }),
});

const recordState = z.object({
  createdAt: z.string().meta({ description: "When the record was created." }),
});

export type RecordArgs = z.output<typeof recordArgs>;
const api = wireModel(recordArgs, recordState, { id: z.number().int() });
type RecordWire = Record<string, unknown> & { id: number; name: string; type: string; content: string };
const recordWire = api.wire as z.ZodType<RecordWire>;

function toState(raw: RecordWire) {
  return { id: String(raw.id), state: api.toState(raw) };
}

const RECORD_ID = idFormat("DNS record", { name: "zoneId" }, { name: "recordId" });

/** Accepts the import form `<zoneId>/<recordId>` as well as a bare record id with a known zone. */
function parseRecordId(id: string, zoneId?: string): { zoneId: string; recordId: string } {
  return parseId("nsp:dns:Record", RECORD_ID, id, { zoneId });
}

// No shape: a create that adopts an existing record then patches what the program sets otherwise (createOrAdopt tells it so), and an import by the bare record id finds its zone; the collection shape's create says neither.
export const record = defineResource({
  since: "0.1.0",
  token: "nsp:dns:Record",
  list: {
    path: "/dns/zones/{zoneId}/records",
    parent: { token: "nsp:dns:Zone", input: "zoneId" },
    filters: { name: "match", type: "match" },
    label: (r, z) => `${String(z?.name)}-${r.name === "@" ? "apex" : String(r.name)}-${String(r.type)}`,
    zoneOf: (_r, z) => z?.id,
    discovery: {
      notImported: (r) =>
        r.type === "NS" && r.name === "@" ? "the service's own name servers at the apex" : undefined,
      // A large zone is one nsp:dns:ZoneRecords, whose record sets are whole.
      inBulk: {
        token: "nsp:dns:ZoneRecords",
        setOf: (r) => `${String(r.name)}:${String(r.type)}`,
        importId: zoneRecordsIdOf,
      },
    },
  },
  description: [
    "A DNS record in a zone.",
    "",
    "`content` is the record's data as a zone file writes it. The provider compares it in one canonical " +
      "spelling (host names lower case without the trailing dot, TXT unquoted, IPv6 compressed), so a " +
      "program may write either spelling without a diff.",
    "",
    "| type | content | example |",
    "|---|---|---|",
    "| `A` | IPv4 address | `192.0.2.10` |",
    "| `AAAA` | IPv6 address | `2001:db8::10` |",
    "| `CNAME`, `ALIAS` | target host name (`ALIAS` is allowed at the apex) | `www.example.net.` |",
    "| `NS` | name server host name | `ns1.example.net.` |",
    "| `PTR` | host name the address points back to | `host.example.com.` |",
    "| `TXT` | text, quoted or not | `v=spf1 -all` |",
    "| `MX` | `<preference> <mail host>`; a lower preference is tried first; `0 .` is a null MX | `10 mail.example.com.` |",
    "| `SRV` | `<priority> <weight> <port> <target>` | `10 5 5060 sip.example.com.` |",
    '| `CAA` | `<flags> <tag> "<value>"`, tag `issue`, `issuewild` or `iodef` | `0 issue "letsencrypt.org"` |',
    "| `HTTPS`, `SVCB` | `<priority> <target> [<key>=<value> ...]`; priority 0 is alias mode, `.` is the " +
      "record's own name | `1 . alpn=h2,h3 ipv4hint=192.0.2.10` |",
    "",
    "`proxied: true` (A, AAAA and CNAME only) answers with the edge proxy's addresses and makes a " +
      "zone-mode site (`nsp:cdn:SiteSettings`).",
  ].join("\n"),
  args: recordArgs,
  state: recordState,
  importId: formOf(RECORD_ID),
  shownId: { form: "<recordId>", importable: true },
  // The API keeps its own canonical spelling of the data (see record-content.ts).
  sameValue: { content: (prev, next, args) => sameContent(args.type, prev, next) },

  warnings: (args) => [apexCnameWarning(args)].filter((w): w is string => w !== undefined),

  check(args) {
    const failures: CheckFailure[] = [];
    if (args.proxied && !PROXIABLE.has(args.type))
      failures.push({ property: "proxied", reason: `only A, AAAA and CNAME records can be proxied, not ${args.type}` });
    const contentProblem = recordContentProblem(args.type, args.content);
    if (contentProblem) failures.push({ property: "content", reason: contentProblem });
    return failures;
  },

  async create(ctx, args) {
    const path = `/dns/zones/${args.zoneId}/records`;
    // The zone's list is the one the adoption below reads anyway: the check costs no request.
    await warnAboutCnameClash(ctx, path, recordWire, args).catch((e: unknown) =>
      ctx.log("debug", `CNAME check skipped: ${e instanceof Error ? e.message : String(e)}`),
    );
    const { object: created } = await createOrAdopt(
      ctx,
      `record ${args.name} ${args.type}`,
      // Name, type and content identify a record (several records may share a name and type); the
      // API keeps its own spelling of the content, so it is compared by meaning.
      // The API accepts an identical second record, so the zone's list is checked first.
      {
        list: path,
        schema: recordWire,
        matches: (r) => r.name === args.name && r.type === args.type && sameContent(args.type, r.content, args.content),
        checkFirst: true,
      },
      () => ctx.client.post(path, api.createBody(args), { schema: recordWire, signal: ctx.signal }),
    );
    const current = toState(created).state;
    ctx.progress(String(created.id), current);
    // What the create body could not say (enabled, proxied), or, for an adopted record, whatever
    // differs from the program; content is the same by meaning and keeps the API's spelling.
    const differs = api
      .patchKeys(Object.keys(recordArgs.shape))
      .filter((k) => k !== "content" && (current[k] ?? null) !== (args[k] ?? null));
    const final = differs.length
      ? await ctx.client.patch(`${path}/${created.id}`, api.patchBody(args, differs), {
          schema: recordWire,
          signal: ctx.signal,
        })
      : created;
    return toState(final);
  },

  async read(ctx, id, prior) {
    // At import, the record's own id (as `pulumi stack --show-ids` shows it) is enough.
    const knownZone =
      prior.zoneId ??
      (NUMERIC_ID.test(id)
        ? await parentHolding(ctx, "nsp:dns:Record", id, formOf(RECORD_ID), {
            list: "/dns/zones",
            childList: (z) => `/dns/zones/${z}/records`,
            schema: recordWire,
          })
        : undefined);
    if (knownZone === undefined && !id.includes("/")) return undefined;
    const { zoneId, recordId } = parseRecordId(id, knownZone);
    const single = () =>
      ctx.client.getOrUndefined(`/dns/zones/${zoneId}/records/${recordId}`, { schema: recordWire, signal: ctx.signal });
    const found = await ctx.lists.find(`/dns/zones/${zoneId}/records`, recordId, recordWire, ctx.signal, single);
    return found && toState(found);
  },

  async update(ctx, id, news, olds, changedInputs) {
    const { zoneId, recordId } = parseRecordId(id, olds.zoneId);
    if (api.patchKeys(changedInputs).length === 0) return { ...olds, ...news };
    const updated = await ctx.client.patch(
      `/dns/zones/${zoneId}/records/${recordId}`,
      api.patchBody(news, changedInputs),
      { schema: recordWire, signal: ctx.signal },
    );
    return toState(updated).state;
  },

  async delete(ctx, id, olds) {
    const { zoneId, recordId } = parseRecordId(id, olds.zoneId);
    // Another resource of this command adopted it (the program renamed the record): it is theirs now.
    if (ctx.adoptions.handedOver(`/dns/zones/${zoneId}/records`, recordId)) return;
    await ctx.client.delete(`/dns/zones/${zoneId}/records/${recordId}`, { signal: ctx.signal });
  },
});

/**
 * The id of the nsp:dns:ZoneRecords adopting these records of the zone: always the scoped form,
 * never the bare zone id, so the resource keeps an id of its own and the program `pulumi import`
 * writes refers to the imported zone instead of repeating its id. A name all of whose types are
 * adopted is named alone, else each adopted type of it.
 */
function zoneRecordsIdOf(
  zone: Record<string, unknown>,
  adopted: readonly Record<string, unknown>[],
  all: readonly Record<string, unknown>[],
): string {
  const typesByName = (records: readonly Record<string, unknown>[]) => {
    const out = new Map<string, Set<string>>();
    for (const r of records) {
      const name = String(r.name);
      (out.get(name) ?? out.set(name, new Set()).get(name)!).add(String(r.type));
    }
    return out;
  };
  const allTypes = typesByName(all);
  const scope = [...typesByName(adopted)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([name, types]) =>
      types.size === allTypes.get(name)!.size ? [name] : [...types].sort().map((t) => `${name}:${t}`),
    );
  return `${String(zone.id)}/${scope.join(",")}`;
}
