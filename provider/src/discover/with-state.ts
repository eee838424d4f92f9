// nsp-discover --with-state: each entry of the import file carries the inputs and outputs the
// resource's Read gives, so that `pulumi import --file` reads nothing (the pinned CLI, v3.259,
// takes an entry's `outputs` as the object's state and skips the provider's Read; its `inputs`
// become the resource's inputs). The reads move to nsp-discover, through the same Read the import
// would call, so the state is the one an import without them would record.
import type { AnyResource, OperationContext } from "../framework/definition";
import { readResource } from "../framework/engine/operations";
import { dropUndefined, type PropertyMap } from "../framework/engine/property-values";
import type { ImportEntry } from "./discover";
import { inZoneFileForm } from "../modules/dns/zone-records";

export interface StatefulEntry extends ImportEntry {
  inputs?: PropertyMap;
  outputs?: PropertyMap;
}

/**
 * Reads every entry's object (those `select` picks) and adds its inputs and outputs, `concurrency`
 * reads at a time. An object holding a secret is left to the import's own Read, so that the file
 * never holds a secret in plaintext; one that is gone since it was listed is left as it is.
 * Returns how many entries were left without a state, and why.
 */
export async function withState(
  entries: readonly ImportEntry[],
  definitions: readonly AnyResource[],
  ctx: () => OperationContext,
  concurrency = 4,
  select: (entry: ImportEntry) => boolean = () => true,
): Promise<{ entries: StatefulEntry[]; leftToRead: { type: string; id: string; reason: string }[] }> {
  const byToken = new Map(definitions.map((d) => [d.token, d]));
  const out: StatefulEntry[] = entries.map((e) => ({ ...e }));
  const leftToRead: { type: string; id: string; reason: string }[] = [];
  const queue = out.filter(select);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        const def = byToken.get(entry.type)!;
        const read = await readResource(def, ctx(), entry.id, {}, {});
        if (!read) {
          leftToRead.push({ type: entry.type, id: entry.id, reason: "gone since it was listed" });
          continue;
        }
        const secret = (def.secrets ?? []).find((k) => (read.state[k] ?? read.inputs[k]) != null);
        if (secret) {
          leftToRead.push({ type: entry.type, id: entry.id, reason: `holds the secret ${secret}` });
          continue;
        }
        entry.inputs = dropUndefined(read.inputs) as PropertyMap;
        entry.outputs = dropUndefined(read.state) as PropertyMap;
      }
    }),
  );
  return { entries: out, leftToRead };
}

/**
 * The bulk entries (`bulkTypes`, a zone's records in one), read, in the zone-file form: an import by id alone would give the
 * program a `records` list of four lines per record, where a zone file takes one. The state is
 * the one the import's own Read gives, `records` written as the zone's file, which a later Read
 * keeps (the program then gives `zoneFile`).
 */
export function asZoneFiles(
  entries: readonly StatefulEntry[],
  zoneNames: ReadonlyMap<string, string>,
  bulkTypes: ReadonlySet<string>,
): StatefulEntry[] {
  return entries.map((e) => {
    if (!bulkTypes.has(e.type) || !e.inputs || !e.outputs) return e;
    const zoneName = zoneNames.get(String(e.outputs.zoneId));
    if (zoneName === undefined) return e;
    return { ...e, inputs: inZoneFileForm(e.inputs, zoneName), outputs: inZoneFileForm(e.outputs, zoneName) };
  });
}
