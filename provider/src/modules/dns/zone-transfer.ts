import { z } from "zod";
import { rotationTrigger } from "../../framework/api/validators";
import { defineDocument } from "../../framework/api/shapes/document";
import { deepEqual } from "../../framework/engine/diff";
import { fromWire, idRef } from "../../framework/api/wire";
import { wireModel } from "../../framework/api/fields";
import { zoneIdOf } from "./ids";
import { isIpAddress, isPrefix } from "./ip";

const TOKEN = "nsp:dns:ZoneTransfer";
const MAX_ITEMS = 16;

const transferArgs = z.object({
  zoneId: idRef("Id of the zone whose outbound transfers are configured.").meta({ replace: true }),
  allow: z
    .array(
      z
        .string()
        .trim()
        .refine(
          (s) => isIpAddress(s) || isPrefix(s),
          "must be an IP address or a prefix with its host bits zero (192.0.2.1, 192.0.2.0/24, 2001:db8::/48)",
        ),
    )
    .max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`)
    .default([])
    .meta({
      description: `Addresses and prefixes allowed to transfer the zone (AXFR), at most ${MAX_ITEMS}.`,
      create: true,
    }),
  notify: z
    .array(z.string().trim().refine(isIpAddress, "must be an IP address"))
    .max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`)
    .default([])
    .meta({ description: `Addresses sent a NOTIFY when the zone changes, at most ${MAX_ITEMS}.`, create: true }),
  tsig: z.boolean().default(false).meta({
    description:
      "Whether transfers are signed with a TSIG key. Turning it on generates the key, returned once as `tsigKey`.",
    create: true,
  }),
  tsigRotation: rotationTrigger(
    "Any string or number; changing it rotates the TSIG key (a new secret in `tsigKey`) while `tsig` is " +
      "on. The API never sees it.",
  ),
});

const transferState = z.object({
  tsigName: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Name of the TSIG key, as the secondaries must configure it." }),
  tsigConfigured: z.boolean().meta({ description: "Whether a TSIG key is configured." }),
  tsigAlgorithm: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Algorithm of the TSIG key, such as `hmac-sha256`." }),
  tsigKey: z
    .string()
    .nullable()
    .optional()
    .meta({
      secret: true,
      description:
        "The TSIG secret (base64). The API shows it only in the response that generates it, so it is kept " +
        "from the state on every refresh while that key exists; null when TSIG is off, or when the key was " +
        "made outside this resource (change `tsigRotation` to get a new one).",
    }),
});

const transferProperties = transferArgs.extend(transferState.shape);
type TransferState = z.output<typeof transferProperties>;

// Every PUT sends the whole settings (the PUT replaces them).
const api = wireModel(transferArgs, transferState);

// Written by hand: `tsig` is read from tsig_configured, and the secret is kept from the prior state
// (see toState), so the state is not a straight mapping of the response.
const transferWire = z.looseObject({
  allow: z.array(z.string()),
  notify: z.array(z.string()),
  tsig_name: z.string().nullable().optional(),
  tsig_configured: z.boolean(),
  tsig_algorithm: z.string().optional(),
  tsig_secret: z.string().optional(),
});
type TransferWire = z.output<typeof transferWire>;

/**
 * The API state, with the secret taken from this response when it carries one, else kept from
 * the prior state as long as the same key is still configured.
 */
function toState(raw: TransferWire, prior: Partial<TransferState>): Omit<TransferState, "zoneId"> {
  const state = { ...(fromWire(transferProperties, raw) as TransferState), tsig: raw.tsig_configured };
  if (raw.tsig_secret !== undefined) {
    state.tsigKey = raw.tsig_secret;
    state.tsigAlgorithm = raw.tsig_algorithm ?? null;
  } else if (raw.tsig_configured && prior.tsigKey && prior.tsigName === state.tsigName) {
    state.tsigKey = prior.tsigKey;
    state.tsigAlgorithm = prior.tsigAlgorithm ?? null;
  } else {
    state.tsigKey = null;
    state.tsigAlgorithm = null;
  }
  if (prior.tsigRotation !== undefined) state.tsigRotation = prior.tsigRotation;
  return state;
}

export const zoneTransfer = defineDocument({
  since: "0.1.0",
  token: TOKEN,
  list: {
    path: "/dns/zones",
    parent: { token: "nsp:dns:Zone", input: "zoneId" },
    // Only zones that transfer anywhere have settings of their own to adopt.
    fromParent: (z) => {
      const t = (z.transfer ?? {}) as { allow?: unknown[]; notify?: unknown[]; tsig_configured?: boolean };
      return (t.allow?.length ?? 0) + (t.notify?.length ?? 0) > 0 || t.tsig_configured ? [z] : [];
    },
    label: (z) => String(z.name),
    zoneOf: (z) => z.id,
  },
  description:
    "Outbound zone transfers of a zone: which secondaries may transfer it (AXFR), which are sent NOTIFY, " +
    "and an optional TSIG key. The key's secret is returned once and kept as a secret output. Deleting " +
    "this resource empties both lists and removes the key.",
  args: transferArgs,
  state: transferState,
  importId: "<zoneId>",
  parent: "zoneId",
  idOf: (id) => zoneIdOf(TOKEN, id),
  path: (zoneId) => `/dns/zones/${zoneId}/transfer`,
  model: { ...api, wire: transferWire },
  emptied: { allow: [], notify: [], tsig: false },
  toState: (raw, prior, news) =>
    toState(
      raw as TransferWire,
      (news ? { ...prior, tsigRotation: news.tsigRotation } : prior) as Partial<TransferState>,
    ),

  afterCreate(ctx, args, raw) {
    if (args.tsig && raw.tsig_secret === undefined) {
      ctx.log(
        "warning",
        `zone ${String(args.zoneId)} already had a TSIG key, whose secret the API does not show again, so ` +
          `tsigKey is empty; set or change tsigRotation to issue a new key`,
      );
    }
  },

  async update(ctx, document, zoneId, news, olds) {
    const rotate = news.tsig && olds.tsigConfigured && !deepEqual(news.tsigRotation, olds.tsigRotation);
    if (!rotate) return document.putRaw(ctx, zoneId, news);
    // The API keeps an existing key on `tsig: true`; only removing it first makes a new one.
    await document.putRaw(ctx, zoneId, news, { tsig: false });
    return document.putRaw(ctx, zoneId, {}, { tsig: true });
  },
});
