import { z } from "zod";
import { NUMERIC_ID } from "../../framework/api/ids";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef } from "../../framework/api/wire";
import { isApiError, isNotFound } from "../../client";
import { isAmbiguousWrite } from "../../framework/api/create-once";
import { ENGINE_MAX_MESSAGE_BYTES, structSize } from "../../framework/engine/message-size";
import { RECORD_TYPES, recordContent, recordContentProblem, recordName, recordTtl } from "./record";
import {
  canonicalContent,
  bulkChange,
  canonicalRecords,
  chooseStrategy,
  compareRecords,
  deleteLimitProblem,
  isNoop,
  ownedRrsets,
  parseZoneFile,
  diffRecords,
  renderZoneFileOf,
  zoneFileOrigin,
  planZone,
  recordCallCount,
  recordKey,
  rrsetKey,
  WrittenChanges,
  zoneFileChunks,
  zoneFileContentProblem,
  type BulkChange,
  type LiveRecord,
  type Plan,
  type ZoneRecord,
} from "./zone-records-plan";
import { cnameWarningsOf } from "./rrset-rules";
import type { PropertyMap } from "../../framework/engine/property-values";

const TOKEN = "nsp:dns:ZoneRecords";
const DEFAULT_MAX_DELETE_PERCENT = 20;
/** Rounds of list, plan and write when a write's answer is lost; each round starts from the live zone. */
const MAX_ROUNDS = 3;
/**
 * Largest zone-file text sent in one import. The API documents no body limit; half a MiB stays
 * well under the common 1 MiB default of HTTP servers, and a larger change takes several imports.
 */
export const MAX_IMPORT_BYTES = 512 * 1024;

const recordEntry = z
  .object({
    name: recordName
      .default("@")
      .meta({ description: "Name relative to the zone; `@` is the apex. Stored lower-case." }),
    type: z
      .enum(RECORD_TYPES)
      .meta({ description: `Record type: one of ${RECORD_TYPES.map((t) => `\`${t}\``).join(", ")}.` }),
    content: recordContent,
    ttl: recordTtl,
  })
  .superRefine((r, ctx) => {
    const problem = recordContentProblem(r.type, r.content) ?? zoneFileContentProblem(r.type, r.content);
    if (problem) ctx.addIssue({ code: "custom", path: ["content"], message: problem });
    if (r.type === "NS" && r.name === "@")
      ctx.addIssue({
        code: "custom",
        path: ["name"],
        message: "NS records at the apex are the service's own name servers and cannot be managed",
      });
  })
  .transform((r) => ({ ...r, content: canonicalContent(r.type, r.content) }))
  .meta({ typeName: "ZoneRecordEntry", description: "One record of the zone." });

/** Problems beyond this many are counted, not listed: a wrong file of 100,000 lines stays one readable error. */
const MAX_LISTED_PROBLEMS = 10;

/**
 * The records of a `zoneFile` input, checked as `records` entries are, and what in the text cannot
 * be one of them (a type this API does not serve, a name outside the zone, bad data, a repeat).
 */
export function zoneFileRecords(text: string): { zoneName?: string; records: ZoneRecord[]; problems: string[] } {
  const zoneName = zoneFileOrigin(text);
  if (!zoneName)
    return {
      records: [],
      problems: ["names no zone: start it with the zone's `$ORIGIN`, such as `$ORIGIN example.com.`"],
    };
  const problems: string[] = [];
  const parsed = parseZoneFile(text, zoneName, (line, reason) =>
    problems.push(`the line ${JSON.stringify(line)} ${reason}`),
  );
  const records: ZoneRecord[] = [];
  const seen = new Set<string>();
  for (const r of parsed) {
    const line = `${r.name} ${r.ttl} IN ${r.type} ${r.content}`;
    const checked = recordEntry.safeParse(r);
    // A TTL is the one number of a line: zod's own words for its range name no field.
    const reason = (i: z.core.$ZodIssue) => (i.path[0] === "ttl" ? "its TTL must be 60 to 86400 seconds" : i.message);
    if (!checked.success)
      problems.push(`the record ${JSON.stringify(line)}: ${checked.error.issues.map(reason).join("; ")}`);
    else if (seen.has(recordKey(checked.data)))
      problems.push(`the record ${JSON.stringify(line)} is there twice; list each record once`);
    else {
      seen.add(recordKey(checked.data));
      records.push(checked.data);
    }
  }
  return { zoneName, records: records.sort(compareRecords), problems };
}

const zoneFileInput = z
  .string()
  .superRefine((text, ctx) => {
    const { problems } = zoneFileRecords(text);
    for (const message of problems.slice(0, MAX_LISTED_PROBLEMS)) ctx.addIssue({ code: "custom", message });
    if (problems.length > MAX_LISTED_PROBLEMS)
      ctx.addIssue({
        code: "custom",
        message: `and ${problems.length - MAX_LISTED_PROBLEMS} more problems like these`,
      });
  })
  .meta({
    description:
      "The records this resource manages as the text of a BIND zone file, instead of `records`: the zone's " +
      "`$ORIGIN` first (`$ORIGIN example.com.`), then one record per line (`www 300 IN A 192.0.2.1`), with " +
      "names relative to it or absolute, `$TTL`, comments and parentheses as in any zone file. The SOA and " +
      "the apex NS records are ignored (they are the service's own), and a line of any other type, class or " +
      "zone is refused. It owns names and types exactly as `records` does, and a change is compared record " +
      "by record, so reformatting the text, reordering or commenting it is no change. `nsp-discover` writes " +
      "a large zone this way; a program can keep it in a file of its own (`fn::readFile` in YAML, " +
      "`fs.readFileSync` in TypeScript).",
  });

const zoneRecordsArgs = z.object({
  zoneId: idRef("Id of the zone whose records are managed.").meta({ replace: true }),
  records: z
    .array(recordEntry)
    .superRefine((records, ctx) => {
      const first = new Map<string, number>();
      records.forEach((r, i) => {
        const key = recordKey(r);
        const earlier = first.get(key);
        if (earlier === undefined) first.set(key, i);
        else
          ctx.addIssue({
            code: "custom",
            path: [i],
            message: `duplicates records[${earlier}] (${r.name} ${r.type} ${r.content}); list each record once`,
          });
      });
    })
    .transform((records) => canonicalRecords(records))
    .meta({
      description:
        "The records of the zone this resource manages; give either this or `zoneFile`. Every name and type " +
        "that appears here is owned by this resource: records of that name and type that are not listed are " +
        "deleted. Order does not matter; the list is kept sorted, with names lower-case and data in canonical " +
        "form (host names lower-case without the trailing dot, TXT unquoted, IPv6 compressed).",
    })
    .optional(),
  zoneFile: zoneFileInput.optional(),
  maxDeletePercent: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(DEFAULT_MAX_DELETE_PERCENT)
    .meta({
      description:
        "Safety threshold: an update (or a create that adopts existing records) that would delete more than " +
        "this share of the records the resource manages is refused before any change, with an error naming " +
        "how many would go. Applies once the resource manages at least 10 records; 100 allows any deletion. " +
        "Deleting the resource itself is not limited.",
    }),
});

type ZoneRecordsArgs = z.output<typeof zoneRecordsArgs>;

/** The records the inputs (or a state) list, in either form; undefined when they hold neither. */
function recordsOf(values: { records?: ZoneRecord[]; zoneFile?: string }): ZoneRecord[] | undefined {
  if (values.records) return values.records;
  if (values.zoneFile === undefined) return undefined;
  return parseZoneFile(values.zoneFile).sort(compareRecords);
}

/** The state after a change wrote `records`, in the form of the inputs: a list, or zone-file text. */
function stateOf(args: ZoneRecordsArgs, records: ZoneRecord[], zoneName: string | undefined): PropertyMap {
  const recordSets = recordSetsOf(records);
  if (args.zoneFile === undefined) return { ...args, records, recordSets };
  return { ...args, zoneFile: renderZoneFileOf(zoneName ?? zoneFileOrigin(args.zoneFile)!, records), recordSets };
}

/**
 * An import's state (or inputs) in the zone-file form: `records` as the text of the zone's file.
 * nsp-discover writes a large zone so, and a later Read keeps the form the state has.
 */
export function inZoneFileForm(values: PropertyMap, zoneName: string): PropertyMap {
  const { records, ...rest } = values;
  return { ...rest, zoneFile: renderZoneFileOf(zoneName, (records ?? []) as ZoneRecord[]) };
}

const zoneRecordsState = z.object({
  recordSets: z.array(z.string()).meta({
    description:
      "The record sets this resource owns, each written `<name> <type>` (such as `www A`): the names and types in `records`.",
  }),
});

function recordSetsOf(records: readonly ZoneRecord[]): string[] {
  return [...ownedRrsets(records)].sort();
}

/**
 * Why the engine could not carry these records as one resource, or undefined when it can. The
 * largest message it receives about the resource is a refresh's answer: the state (records and
 * record sets) and the inputs (the records again).
 */
export function engineMessageProblem(args: ZoneRecordsArgs, limitBytes = ENGINE_MAX_MESSAGE_BYTES): string | undefined {
  const records = recordsOf(args) ?? [];
  const inputs = structSize(args);
  const answer = inputs + structSize({ ...args, recordSets: recordSetsOf(records) });
  if (answer <= limitBytes) return undefined;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return (
    `${records.length} records make a refresh answer of ${mib(answer)}, more than the ${mib(limitBytes)} the Pulumi engine accepts in one gRPC message; ` +
    ("split the zone into several nsp:dns:ZoneRecords resources that own disjoint names, for example one " +
      "per label range (names a-m in one, n-z in another)")
  );
}

const recordWire = z.looseObject({
  id: z.union([z.number().int(), z.string()]),
  name: z.string(),
  type: z.string(),
  content: z.string(),
  ttl: z.number().int(),
  enabled: z.boolean().optional(),
  proxied: z.boolean().optional(),
  weight: z.number().nullable().optional(),
  health_check: z.string().nullable().optional(),
});

// How the export is wrapped is not documented: accept the zone-file text bare or in an object.
const exportWire = z.union([
  z.string(),
  z.looseObject({ name: z.string().optional(), text: z.string().optional(), zonefile: z.string().optional() }),
]);
// `deleted` is the emulator's, not documented: used only to check a preview when it is there.
const importWire = z.looseObject({
  added: z.number().int(),
  skipped: z.array(z.string()).optional(),
  deleted: z.number().int().optional(),
});

/**
 * The resource's id is its zone's id, or, when imported with a scope, `<zoneId>/<name>[:<type>],...`
 * naming the record sets it adopted.
 */
export function parseZoneRecordsId(id: string): { zoneId: string; scope?: (r: ZoneRecord) => boolean } {
  const form = `${TOKEN}: id "${id}" must be a zone id (<zoneId>) or <zoneId>/<name>[:<type>],...`;
  const [zoneId = "", scopeText, ...extra] = id.split("/");
  if (!NUMERIC_ID.test(zoneId) || extra.length > 0) throw new Error(form);
  if (scopeText === undefined) return { zoneId };
  // Sets, not a list to search: discovery names every adopted set of a zone, which may be 100,000.
  const wholeNames = new Set<string>();
  const sets = new Set<string>();
  for (const item of scopeText.split(",")) {
    const [rawName = "", rawType, ...more] = item.split(":");
    const name = recordName.safeParse(rawName);
    const type = rawType?.toUpperCase();
    if (!name.success || more.length > 0 || (type !== undefined && !(RECORD_TYPES as readonly string[]).includes(type)))
      throw new Error(`${form}; "${item}" is not a record name, optionally followed by :<type>`);
    if (type === undefined) wholeNames.add(name.data);
    else sets.add(rrsetKey({ name: name.data, type }));
  }
  return { zoneId, scope: (r) => wholeNames.has(r.name) || sets.has(rrsetKey(r)) };
}

/** The zone's records, page by page: each page is cut down to what planning needs before the next comes. */
async function listLive(ctx: OperationContext, zoneId: string): Promise<LiveRecord[]> {
  const live: LiveRecord[] = [];
  for await (const page of ctx.client.paginate(`/dns/zones/${zoneId}/records`, {
    itemSchema: recordWire,
    signal: ctx.signal,
  })) {
    for (const r of page) {
      const name = r.name.toLowerCase();
      const type = r.type.toUpperCase();
      const content = canonicalContent(type, r.content);
      const enabled = r.enabled !== false;
      const apiDefaults =
        enabled && r.proxied !== true && (r.weight ?? null) === null && (r.health_check ?? null) === null;
      live.push({ id: String(r.id), name, type, content, ttl: r.ttl, enabled, apiDefaults });
    }
  }
  return live;
}

type ImportAnswer = z.output<typeof importWire>;

async function postImport(
  ctx: OperationContext,
  zoneId: string,
  text: string,
  mode: "preview" | "apply",
  replace: boolean,
): Promise<ImportAnswer> {
  return ctx.client.post(
    `/dns/zones/${zoneId}/import`,
    { text, mode, replace },
    { schema: importWire, signal: ctx.signal },
  );
}

/** One zone-file import; `added` must be `expected`, as every line sent that should be added is new to the zone. */
async function importText(
  ctx: OperationContext,
  zoneId: string,
  text: string,
  replace: boolean,
  expected: number,
): Promise<ImportAnswer> {
  const res = await postImport(ctx, zoneId, text, "apply", replace);
  if (res.added !== expected) {
    const skipped = res.skipped?.length ? `; skipped: ${res.skipped.join("; ")}` : "";
    throw new Error(
      `${TOKEN}: the import into zone ${zoneId} added ${res.added} records where ${expected} were expected${skipped}`,
    );
  }
  return res;
}

/** New records in as few imports as the size of one import allows. */
async function importRecords(
  ctx: OperationContext,
  zoneId: string,
  records: readonly ZoneRecord[],
  written?: WrittenChanges,
): Promise<void> {
  for (const chunk of zoneFileChunks(records, MAX_IMPORT_BYTES)) {
    await importText(ctx, zoneId, chunk.text, false, chunk.records.length);
    written?.imported(chunk.records);
  }
}

/** The answer as the change needs it; `deleted` is not documented, so it is checked only when given. */
function answerProblem(res: ImportAnswer, bulk: BulkChange): string | undefined {
  const deleted = typeof res.deleted === "number" ? res.deleted : undefined;
  const skipped = res.skipped?.length;
  if (
    res.added === bulk.added &&
    (skipped === undefined || skipped === bulk.kept) &&
    (deleted === undefined || deleted === bulk.deleted)
  )
    return undefined;
  const seen = [
    `add ${res.added}`,
    skipped === undefined ? undefined : `keep ${skipped}`,
    deleted === undefined ? undefined : `delete ${deleted}`,
  ]
    .filter(Boolean)
    .join(", ");
  return `it would ${seen} where this change needs add ${bulk.added}, keep ${bulk.kept}, delete ${bulk.deleted}`;
}

function duration(requests: number, perMinute: number): string {
  if (perMinute <= 0) return "as fast as the API answers (requestsPerMinute is 0: no pacing)";
  const seconds = (requests / perMinute) * 60;
  const text =
    seconds < 90
      ? `${Math.ceil(seconds)} seconds`
      : seconds < 5400
        ? `${Math.round(seconds / 60)} minutes`
        : `${(seconds / 3600).toFixed(1)} hours`;
  return `about ${text} at requestsPerMinute ${perMinute}`;
}

/**
 * The plan as one import with replace, previewed first: it is applied only when the preview shows
 * exactly the records meant to go going and the records meant to be added added, so a record of
 * another resource keeps its id. Returns why it was not applied, or undefined when it was.
 */
async function applyInBulk(
  ctx: OperationContext,
  zoneId: string,
  plan: Plan,
  written: WrittenChanges,
): Promise<string | undefined> {
  const bulk = bulkChange(plan);
  const sendPreview = () => postImport(ctx, zoneId, bulk.text, "preview", true);
  let preview: ImportAnswer;
  try {
    // A preview writes nothing: one whose answer is lost is sent again, not the whole round (a list of the zone).
    preview = await sendPreview().catch((e: unknown) => {
      if (isAmbiguousWrite(e)) return sendPreview();
      throw e;
    });
  } catch (e) {
    // The API documents no largest body; a zone's text that it refuses for its size goes record by record.
    if (isApiError(e) && e.status === 413)
      return `the API refused the ${(Buffer.byteLength(bulk.text) / 1024 / 1024).toFixed(1)} MiB of zone-file text as too large (${e.message})`;
    throw e;
  }
  const problem = answerProblem(preview, bulk);
  if (problem) return `the preview of the zone-file import with replace says ${problem}`;
  const applied = await importText(ctx, zoneId, bulk.text, true, bulk.added);
  written.replaced(bulk);
  const after = answerProblem(applied, bulk);
  // Something changed the zone between preview and import; what is done is done, and the next refresh shows it.
  if (after) ctx.log("warning", `zone ${zoneId}: the zone changed between the preview and the import: ${after}`);
  for (const u of bulk.patches) {
    await ctx.client.patch(`/dns/zones/${zoneId}/records/${u.record.id}`, u.patch, { signal: ctx.signal });
    written.patched(u.record, u.to);
  }
  for (const r of bulk.leftovers) await deleteRecord(ctx, zoneId, r, written);
  return undefined;
}

async function deleteRecord(
  ctx: OperationContext,
  zoneId: string,
  r: LiveRecord,
  written: WrittenChanges,
): Promise<void> {
  // Already gone (deleted meanwhile, or by a round whose answer was lost): nothing left to do.
  await ctx.client.delete(`/dns/zones/${zoneId}/records/${r.id}`, { signal: ctx.signal }).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
  written.removed(r);
}

/** Sends the plan's writes, recording each one the API confirmed in `written`. */
async function apply(ctx: OperationContext, zoneId: string, plan: Plan, written: WrittenChanges): Promise<void> {
  const strategy = chooseStrategy(plan);
  ctx.log(
    "debug",
    `zone ${zoneId}: ${plan.create.length} to add, ${plan.update.length} to change, ${plan.remove.length} to delete; ` +
      (strategy === "bulk" ? "one import with replace" : `${recordCallCount(plan)} record calls`),
  );
  if (strategy === "bulk") {
    const refused = await applyInBulk(ctx, zoneId, plan, written);
    if (refused === undefined) return;
    const calls = recordCallCount(plan);
    ctx.log(
      "warning",
      `zone ${zoneId}: ${refused}; nothing was imported, and the change goes one request per record ` +
        `instead: ${calls} requests, ${duration(calls, ctx.client.requestsPerMinute)}`,
    );
  }
  // Deletes first: a name that changes from A to CNAME must lose its A records before it can get the CNAME.
  for (const r of plan.remove) await deleteRecord(ctx, zoneId, r, written);
  for (const u of plan.update) {
    await ctx.client.patch(`/dns/zones/${zoneId}/records/${u.record.id}`, u.patch, { signal: ctx.signal });
    written.patched(u.record, u.to);
  }
  if (plan.create.length > 0) await importRecords(ctx, zoneId, plan.create, written);
}

/**
 * Makes the owned sets of the zone equal `desired`. Every round plans from the live records, so
 * when a write's answer is lost the next round sees what happened and finishes the job.
 */
async function converge(
  ctx: OperationContext,
  args: ZoneRecordsArgs,
  desired: ZoneRecord[],
  owned: ReadonlySet<string>,
  zoneName?: string,
): Promise<void> {
  const { zoneId, maxDeletePercent } = args;
  let written: WrittenChanges | undefined;
  let writes = 0;
  try {
    for (let round = 1; ; round++) {
      const plan = planZone(await listLive(ctx, zoneId), desired, owned);
      const tooMany = deleteLimitProblem(plan, maxDeletePercent);
      if (tooMany) throw new Error(`${TOKEN}: zone ${zoneId}: ${tooMany}`);
      if (isNoop(plan)) return;
      writes += written?.count ?? 0;
      written = new WrittenChanges(plan);
      try {
        await apply(ctx, zoneId, plan, written);
        return;
      } catch (e) {
        if (!isAmbiguousWrite(e) || round >= MAX_ROUNDS) throw e;
        ctx.log("info", `zone ${zoneId}: the answer to a change was lost; reading the zone again to finish`);
      }
    }
  } catch (e) {
    // Some writes went through: the state must say so, so that the next `up` plans from what the
    // zone holds now and sends only the rest (the engine keeps this partial state).
    if (written && writes + written.count > 0) {
      ctx.progress(zoneId, stateOf(args, written.recordsAfter(), zoneName));
      throw new Error(
        `${TOKEN}: zone ${zoneId}: ${writes + written.count} change request(s) went through before this failure: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    throw e;
  }
}

/**
 * The zone's name, which a `zoneFile` must name as its `$ORIGIN`: a file of another zone would put
 * its records, and its relative host names, in this one.
 */
async function checkOrigin(ctx: OperationContext, args: ZoneRecordsArgs): Promise<string | undefined> {
  if (args.zoneFile === undefined) return undefined;
  const zone = await ctx.client.get(`/dns/zones/${args.zoneId}`, {
    schema: z.looseObject({ name: z.string() }),
    signal: ctx.signal,
  });
  const name = zone.name.toLowerCase().replace(/\.$/, "");
  const origin = zoneFileOrigin(args.zoneFile);
  if (origin !== name)
    throw new Error(
      `${TOKEN}: zoneFile: its $ORIGIN ${origin}. is not the name of zone ${args.zoneId} (${name}.); give the zone's own file`,
    );
  return name;
}

// No shape: it manages a set of a zone's records through the zone's export and import, not one object.
export const zoneRecords = defineResource({
  since: "0.1.0",
  notListed:
    "emitted instead of one nsp:dns:Record per record for a zone of more than 500 records " +
    "(--zone-records-above), written as its zone file",
  token: TOKEN,
  // The engine shows each record added, changed or removed, not one change of the whole list.
  detailedDiff: { records: (prev, next) => diffRecords(prev as ZoneRecord[], next as ZoneRecord[]) },
  // Zone-file text is compared by the records it holds: its layout, order and comments are no change.
  sameValue: {
    zoneFile: (prev, next) => {
      const [a, b] = [recordsOf({ zoneFile: prev }), recordsOf({ zoneFile: next })];
      return a!.length === b!.length && a!.every((r, i) => compareRecords(r, b![i]!) === 0);
    },
  },
  description: [
    "The records of a zone managed as one list, as whole-zone tools (DNSControl, octoDNS) do. A refresh " +
      "reads the zone with one request (its zone-file export) instead of one per record. A change lists the " +
      "zone's records once (for their ids), then either imports the new records (adding alone), or, for a " +
      "cut, a change of many records or the delete of the resource, takes one zone-file import with " +
      "`replace` whose text is everything that must remain: the records kept, the records added and every " +
      "record of the zone this resource does not own, as it is. That import is first sent with `mode: " +
      "preview`, and applied only when the preview shows exactly the records meant to go going and nothing " +
      "else changing, so records of other resources keep their ids. When it shows anything else, or the API " +
      "refuses the text, the change goes one request per record (a delete per removed record, a patch per " +
      "changed one) with a warning saying how long that takes at `requestsPerMinute`. Whichever way takes " +
      "fewer requests is used.",
    "",
    "**What it owns.** The resource owns every *name and type* (record set) that appears in `records`, " +
      "and only those: all records of an owned name and type that are not listed are deleted, including " +
      "ones added through the API or the console, and records of other names and types are never touched. A " +
      "name and type dropped from `records` is deleted. So `nsp:dns:ZoneRecords` and `nsp:dns:Record` can " +
      "share a zone as long as no name and type is managed by both (a `Record` for `www` `A` next to a " +
      "`ZoneRecords` listing `www` `TXT` is fine), and so can several `ZoneRecords` resources with disjoint " +
      "names and types. Records of other sets are part of the text of every import with `replace`, and its " +
      "preview must show them kept, so it never deletes another resource's record.",
    "",
    "**What it manages of a record.** Name, type, data and TTL: what a zone file carries. The API's " +
      "`enabled`, `proxied`, `weight` and `healthCheck` are left as they are, except that a disabled record " +
      "that the list wants is enabled again, since a disabled record is not served and not in the zone " +
      "file. A changed record whose API-only attributes are at their defaults (enabled, not proxied, no " +
      "weight, no health check) goes in the bulk import, which deletes it and adds its new value (a new " +
      "id); a changed record with any of them set is patched in place by its own request, keeping them and " +
      "its id. The zone's SOA and apex NS records belong to the service and cannot be listed.",
    "",
    "**Safety.** `maxDeletePercent` refuses a change that deletes more than that share of the managed " +
      "records, before anything is written.",
    "",
    "**Deleted with its zone.** When the program deletes the zone together with its records (a `pulumi " +
      "destroy`, or both removed from the program), the zone's delete takes its records: give the " +
      "`ZoneRecords` Pulumi's `deletedWith` option naming the zone, and its delete sends no request at all. " +
      "The zone then still holds the records when it is deleted, so set `forceDestroy: true` on the zone, " +
      "which otherwise refuses to delete a zone holding records:",
    "",
    "```yaml",
    "zone:",
    "  type: nsp:dns:Zone",
    "  properties: { serviceId: ${authDns.services[0].id}, name: example.com, forceDestroy: true }",
    "records:",
    "  type: nsp:dns:ZoneRecords",
    "  properties: { zoneId: ${zone.id}, records: [{ name: www, type: A, content: 192.0.2.1 }] }",
    "  options: { deletedWith: ${zone} }",
    "```",
    "",
    "**A zone file instead of a list.** `zoneFile` takes the same records as the text of a BIND zone " +
      "file, one line per record, which reads better than a list at thousands of records; give one or the " +
      "other. A refresh keeps the form the program uses.",
    "",
    "```yaml",
    "records:",
    "  type: nsp:dns:ZoneRecords",
    "  properties:",
    "    zoneId: ${zone.id}",
    "    zoneFile:",
    "      fn::readFile: ./example.com.zone",
    "```",
    "",
    "**Import.** `pulumi import nsp:dns:ZoneRecords <name> <zoneId>` adopts every record the zone serves, " +
      "as a `records` list. `<zoneId>/<name>[:<type>],...` adopts only those names (all their types) or " +
      "names and types, such as `42/@,www,mail:MX`; use it when other resources manage the rest of the " +
      "zone, since a name and type adopted and then left out of `records` is deleted by the next `up`. " +
      "`nsp-discover` writes the zones above a size as `zoneFile`.",
  ].join("\n"),
  args: zoneRecordsArgs,
  state: zoneRecordsState,
  importId: "<zoneId>[/<name>[:<type>],...]",
  warnings: (args) => cnameWarningsOf(recordsOf(args) ?? []),
  // Before any request: a list the engine cannot carry would fail after the zone was written.
  check(args) {
    if (args.records !== undefined && args.zoneFile !== undefined)
      return [{ property: "zoneFile", reason: "give the records either as records or as zoneFile, not both" }];
    if (args.records === undefined && args.zoneFile === undefined)
      return [
        {
          property: "records",
          reason: "is required: give the records as records (a list) or as zoneFile (the text of a zone file)",
        },
      ];
    const problem = engineMessageProblem(args);
    return problem ? [{ property: args.records ? "records" : "zoneFile", reason: problem }] : [];
  },

  async create(ctx, args) {
    const zoneName = await checkOrigin(ctx, args);
    const records = recordsOf(args)!;
    await converge(ctx, args, records, ownedRrsets(records), zoneName);
    return { id: args.zoneId, state: { ...args, recordSets: recordSetsOf(records) } };
  },

  async read(ctx, id, prior) {
    const { zoneId, scope } = parseZoneRecordsId(id);
    const body = await ctx.client.getOrUndefined(`/dns/zones/${zoneId}/export`, {
      schema: exportWire,
      signal: ctx.signal,
    });
    if (body === undefined) return undefined;
    const text = typeof body === "string" ? body : (body.text ?? body.zonefile);
    if (text === undefined) throw new Error(`${TOKEN}: the export of zone ${zoneId} has no zone-file text`);
    const zoneName = (typeof body === "string" ? undefined : body.name) ?? zoneFileOrigin(text);
    const all = parseZoneFile(text, zoneName);
    // On import nothing is owned yet: every record the zone serves is adopted, or those the id names.
    const priorRecords = recordsOf(prior);
    const owned = priorRecords ? ownedRrsets(priorRecords) : undefined;
    // parseZoneFile's records are already canonical and fresh: sorted in place, not copied.
    const records = all.filter((r) => (owned ? owned.has(rrsetKey(r)) : (scope?.(r) ?? true))).sort(compareRecords);
    // The id stays as given: an import with a scope keeps an id of its own, unlike the zone's, so
    // the program `pulumi import` writes can refer to the imported zone by its unique id.
    const state = {
      zoneId,
      records,
      maxDeletePercent: prior.maxDeletePercent ?? DEFAULT_MAX_DELETE_PERCENT,
      recordSets: recordSetsOf(records),
    };
    // A program that gives a zone file gets one back, so that its refresh compares like with like.
    return {
      id,
      state:
        prior.records === undefined && prior.zoneFile !== undefined
          ? (inZoneFileForm(state, zoneName!) as typeof state)
          : state,
    };
  },

  async update(ctx, id, news, olds, changed) {
    const args = { ...news, zoneId: parseZoneRecordsId(id).zoneId };
    const records = recordsOf(news)!;
    // A changed maxDeletePercent alone is the provider's own setting, and a zone file that holds the
    // list's records is the same zone: nothing to send.
    if (changed.includes("records") || changed.includes("zoneFile")) {
      const zoneName = await checkOrigin(ctx, args);
      await converge(ctx, args, records, ownedRrsets(records, recordsOf(olds)), zoneName);
    }
    return { ...news, recordSets: recordSetsOf(records) };
  },

  async delete(ctx, id, olds) {
    const { zoneId } = parseZoneRecordsId(id);
    const plan = planZone(await listLive(ctx, zoneId), [], ownedRrsets(recordsOf(olds)));
    if (plan.remove.length === 0) return;
    await apply(ctx, zoneId, plan, new WrittenChanges(plan));
  },
});
