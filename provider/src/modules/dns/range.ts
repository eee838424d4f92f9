import { z } from "zod";
import { idRef } from "../../framework/api/wire";
import { collection, apiId, naturalKey, fromList } from "../../framework/api/shapes/collection";
import { childCollection } from "../../framework/api/shapes/child-collection";
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
const text = (description: string) =>
  z
    .string()
    .max(1024, "must be at most 1024 characters")
    .nullable()
    .default(null)
    .meta({ description, create: true, patch: true });

const rangeArgs = z.object({
  zoneId: idRef(
    "Id of the reverse zone (`*.in-addr.arpa` or `*.ip6.arpa`) that holds the range. Leave it unset to " +
      "let the API pick the most specific of the account's reverse zones covering `prefix`; the output then " +
      "shows where the range landed.",
  )
    .optional()
    .meta({ replace: true }),
  prefix: prefix.meta({
    key: true,
    description:
      "The address block granted, such as `192.0.2.0/26`, host bits zero. Stored canonical (IPv6 lower-case " +
      "and compressed). Changing it moves the grant.",
    create: true,
    patch: true,
  }),
  owner: text("Who the range is granted to."),
  // The patch body has no external_ref.
  externalRef: text(
    "Your own reference for the grant, such as a customer number. Set at creation only; changing it replaces the range.",
  ).meta({ patch: false, replace: true }),
  note: text("Free-form note."),
  // The create body has no enabled; a disabled grant takes a patch.
  enabled: z.boolean().default(true).meta({ description: "Whether the grant is in force.", patch: true }),
});

const rangeState = z.object({
  createdAt: z.string().meta({ description: "When the range was granted." }),
});

// A zone's ranges. The API always says which zone a range is in, also when the program leaves
// that to it. There is no GET of one range; the zone's list holds it.
const onWire = {
  token: TOKEN,
  args: rangeArgs,
  state: rangeState,
  idOnWire: z.number().int(),
  wireExtras: { zone_id: z.number().int() },
};
const ranges = childCollection({
  ...onWire,
  path: "/dns/zones/{zoneId}/ranges",
  parent: { token: "nsp:dns:Zone", input: "zoneId" },
  importId: "<zoneId>/<rangeId>",
  read: fromList(),
});
// `/dns/ranges` takes a create whose zone the API picks.
const anyZone = collection({
  ...onWire,
  path: "/dns/ranges",
  underParent: true,
  id: apiId((id) => ranges.locate(id).child),
});

export const range = ranges.resource({
  since: "0.1.0",
  list: {
    // The API documents ranges as "address-range grants in a reverse zone": a forward zone has none.
    parent: { holds: (z) => /\.(in-addr|ip6)\.arpa\.?$/i.test(String(z.name)) },
    label: (r) => String(r.prefix),
    zoneOf: (_r, z) => z?.id,
  },
  description:
    "An address-range grant inside a reverse zone: who holds which block of addresses. Give `zoneId` to " +
    "place it in a given reverse zone, or leave it out to let the API find the covering reverse zone. " +
    "Deleting it withdraws the grant; PTR records are left alone.",
  // Ranges of one zone may not overlap, so a replacement covering the same addresses must wait.
  deleteBeforeReplace: (olds, news) => prefixesOverlap(olds.prefix, news.prefix),

  async create(ctx, args) {
    const placed = args.zoneId === undefined ? anyZone : ranges.of(args.zoneId);
    // Ranges may not overlap, so the prefix identifies one.
    const created = await placed.create(
      ctx,
      `range ${args.prefix}`,
      args,
      naturalKey((r) => r.prefix === args.prefix),
    );
    ctx.progress(created.id, created.state);
    if (args.enabled) return created;
    return {
      id: created.id,
      state: await ranges.of(String(created.state.zoneId)).update(ctx, created.id, args, created.state, ["enabled"]),
    };
  },

  async update(ctx, id, news, olds) {
    const { parent: zoneId, child: rangeId } = ranges.locate(id, olds.zoneId);
    const zoneRanges = ranges.of(zoneId);
    const changed = zoneRanges.api.patchKeys(Object.keys(rangeArgs.shape)).filter((k) => news[k] !== olds[k]);
    if (changed.length === 0) return { ...olds, ...news, zoneId };
    return zoneRanges.update(ctx, rangeId, news, olds, changed);
  },
});
