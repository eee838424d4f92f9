import { z } from "zod";
import { createOnce } from "../../framework/create-once";
import { defineResource } from "../../framework/definition";
import { idRef } from "../../framework/wire";
import { wireModel } from "../../framework/fields";
import { childIdOf, NUMERIC_ID } from "../../framework/ids";
import { formatPrefix, parsePrefix, prefixesOverlap } from "./ip";

const TOKEN = "nsp:dns:Range";

const prefix = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const parsed = parsePrefix(s);
    if (parsed.ok) return formatPrefix(parsed.cidr);
    ctx.addIssue({ code: "custom", message: parsed.reason });
    return z.NEVER;
  });

// The API defaults these to null, and so does the program: one left out is cleared, so a value
// set by hand shows as drift instead of surviving silently.
const text = (description: string) => z.string().max(1024, "must be at most 1024 characters").nullable().default(null).meta({ description, create: true, patch: true });

const rangeArgs = z.object({
  zoneId: idRef(
    "Id of the reverse zone (`*.in-addr.arpa` or `*.ip6.arpa`) that holds the range. Leave it unset to let the API pick the most specific of the account's reverse zones covering `prefix`; the output then shows where the range landed.",
  )
    .optional()
    .meta({ replace: true }),
  prefix: prefix.meta({
    key: true,
    description: "The address block granted, such as `192.0.2.0/26`, host bits zero. Stored canonical (IPv6 lower-case and compressed). Changing it moves the grant.",
    create: true,
    patch: true,
  }),
  owner: text("Who the range is granted to."),
  // The patch body has no external_ref.
  externalRef: text("Your own reference for the grant, such as a customer number. Set at creation only; changing it replaces the range.").meta({ patch: false, replace: true }),
  note: text("Free-form note."),
  // The create body has no enabled; a disabled grant takes a patch.
  enabled: z.boolean().default(true).meta({ description: "Whether the grant is in force.", patch: true }),
});

const rangeState = z.object({
  createdAt: z.string().meta({ description: "When the range was granted." }),
});

// The API always says which zone a range is in, also when the program leaves that to it.
const api = wireModel(rangeArgs, rangeState, { id: z.number().int(), zone_id: z.number().int() });
const rangeWire = api.wire as z.ZodType<Record<string, unknown> & { id: number; zone_id: number; prefix: string }>;

function parseId(id: string, zoneId?: string) {
  const { parent: parentId, child } = childIdOf(TOKEN, id, "<zoneId>/<rangeId>", NUMERIC_ID, NUMERIC_ID, zoneId);
  return { zoneId: parentId, rangeId: child };
}

function toState(raw: z.output<typeof rangeWire>) {
  return { id: String(raw.id), state: api.toState(raw) };
}

export const range = defineResource({
  token: TOKEN,
  description:
    "An address-range grant inside a reverse zone: who holds which block of addresses. Give `zoneId` to place it in a given reverse zone, or leave it out to let the API find the covering reverse zone. Deleting it withdraws the grant; PTR records are left alone.",
  args: rangeArgs,
  state: rangeState,
  // Ranges of one zone may not overlap, so a replacement covering the same addresses must wait.
  deleteBeforeReplace: (olds, news) => prefixesOverlap(olds.prefix, news.prefix),
  importId: "<zoneId>/<rangeId>",

  async create(ctx, args) {
    const path = args.zoneId === undefined ? "/dns/ranges" : `/dns/zones/${args.zoneId}/ranges`;
    const created = await createOnce(
      ctx,
      `range ${args.prefix}`,
      () => ctx.client.post(path, api.createBody(args), { schema: rangeWire, signal: ctx.signal }),
      // Ranges may not overlap, so the prefix identifies one.
      async () => (await ctx.client.listAll(path, { itemSchema: rangeWire, signal: ctx.signal })).find((r) => r.prefix === args.prefix),
    );
    ctx.progress(String(created.id), toState(created).state);
    const final = args.enabled
      ? created
      : await ctx.client.patch(`/dns/zones/${created.zone_id}/ranges/${created.id}`, api.patchBody(args, ["enabled"]), { schema: rangeWire, signal: ctx.signal });
    return toState(final);
  },

  async read(ctx, id, prior) {
    const { zoneId, rangeId } = parseId(id, prior.zoneId);
    // There is no GET of one range; the zone's list holds it.
    const found = (await ctx.client.listAllOrUndefined(`/dns/zones/${zoneId}/ranges`, { itemSchema: rangeWire, signal: ctx.signal }))?.find((r) => String(r.id) === rangeId);
    return found && toState(found);
  },

  async update(ctx, id, news, olds) {
    const { zoneId, rangeId } = parseId(id, olds.zoneId);
    const changed = api.patchKeys(Object.keys(rangeArgs.shape)).filter((k) => news[k] !== olds[k]);
    if (changed.length === 0) return { ...olds, ...news, zoneId };
    const updated = await ctx.client.patch(`/dns/zones/${zoneId}/ranges/${rangeId}`, api.patchBody(news, changed), { schema: rangeWire, signal: ctx.signal });
    return toState(updated).state;
  },

  async delete(ctx, id, olds) {
    const { zoneId, rangeId } = parseId(id, olds.zoneId);
    await ctx.client.delete(`/dns/zones/${zoneId}/ranges/${rangeId}`, { signal: ctx.signal });
  },
});
