// DNS's rule for CNAME records, which the API documents do not state (the API accepts a CNAME
// beside other records of its name): a CNAME must be the only record of its name (RFC 1034
// §3.6.2, RFC 2181 §10.1). nsp warns and never refuses, since the API may serve such a zone on
// purpose; see docs/api-assumptions.md.
import type { OperationContext } from "../../framework/definition";
import type { Adoptions } from "../../framework/context/adoption";

export interface RecordLike {
  name: string;
  type: string;
  content: string;
}

const WHY =
  "RFC 1034 §3.6.2 and RFC 2181 §10.1: a CNAME must be the only record of its name, so resolvers answer " +
  "with the CNAME alone and ignore the rest";

function describe(records: readonly RecordLike[]): string {
  return records.map((r) => `${r.type} ${JSON.stringify(r.content)}`).join(", ");
}

/** A CNAME at the apex always shares its name, with the zone's own SOA and NS records. */
export function apexCnameWarning(r: RecordLike): string | undefined {
  if (r.type !== "CNAME" || r.name !== "@") return undefined;
  return `a CNAME at the apex (@) shares its name with the zone's SOA and NS records (${WHY}). The API accepts it; use an ALIAS record at the apex instead.`;
}

/** The warning for `record` among `others` of its zone (itself not included), or undefined. */
export function cnameConflictWarning(record: RecordLike, others: readonly RecordLike[]): string | undefined {
  const sameName = others.filter(
    (o) => o.name === record.name && !(o.type === record.type && o.content === record.content),
  );
  const clashing = record.type === "CNAME" ? sameName : sameName.filter((o) => o.type === "CNAME");
  if (clashing.length === 0) return undefined;
  return (
    `${record.name} ${record.type}: the zone also has ${describe(clashing)} at ${record.name} (${WHY}). ` +
    `The API accepts it; give the CNAME a name of its own.`
  );
}

/** Every clash within one list of records (nsp:dns:ZoneRecords), one warning per name. */
export function cnameWarningsOf(records: readonly RecordLike[]): string[] {
  const warnings: string[] = [];
  const apex = records.find((r) => apexCnameWarning(r));
  if (apex) warnings.push(apexCnameWarning(apex)!);
  // Grouped in one pass: a zone of 100,000 records may hold 20,000 CNAMEs, and a search of the
  // whole list per CNAME made every Check of such a zone take most of a minute.
  const byName = new Map<string, RecordLike[]>();
  for (const r of records) if (r.type === "CNAME") byName.set(r.name, []);
  for (const r of records) byName.get(r.name)?.push(r);
  for (const named of byName.values()) {
    const [first, ...rest] = named.sort((a, b) => (a.type === "CNAME" ? -1 : b.type === "CNAME" ? 1 : 0));
    const w = first && rest.length ? cnameConflictWarning(first, rest) : undefined;
    if (w) warnings.push(w);
  }
  return warnings;
}

// What the creates of this command put in each zone, beside what the zone held when
// the command first listed it: two new records of one program are checked against each other too.
const planned = new WeakMap<Adoptions, Map<string, RecordLike[]>>();

/**
 * Warns (ctx.log) when `record` breaks the CNAME rule against the zone's records: those the
 * zone held when this command first listed it (the list a create reads anyway to adopt an
 * identical record) and those this command created before it.
 */
export async function warnAboutCnameClash<T extends RecordLike & { id: number | string }>(
  ctx: OperationContext,
  list: string,
  schema: import("zod").ZodType<T>,
  record: RecordLike,
): Promise<void> {
  const byList = planned.get(ctx.adoptions) ?? planned.set(ctx.adoptions, new Map()).get(ctx.adoptions)!;
  const mine = byList.get(list) ?? byList.set(list, []).get(list)!;
  const before = await ctx.adoptions.listedBefore({ list, schema }, ctx.signal);
  const warning = cnameConflictWarning(record, [...before, ...mine]);
  mine.push(record);
  if (warning) ctx.log("warning", warning);
}
