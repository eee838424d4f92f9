import { z } from "zod";
import type { CheckFailure } from "../../framework/definition";
import { childCollection } from "../../framework/api/shapes/child-collection";
import { idRef } from "../../framework/api/wire";
import { familyBits, parsePrefix } from "./prefix";
import { sameContent, fromSharedList } from "../../framework/api/shapes/collection";

export const ASN_MAX = 4294967295;

const prefix = z
  .string()
  .transform((s, ctx) => {
    const r = parsePrefix(s);
    if (r.ok) return r.prefix.text;
    ctx.addIssue({ code: "custom", message: r.reason });
    return z.NEVER;
  })
  .meta({
    description:
      "Prefix the ROA authorises, such as `192.0.2.0/24` or `2001:db8::/32`. Host bits must be zero; IPv6 " +
      "is written lower-case and compressed, as the API stores it.",
  });

// The API has no patch for ROAs: every input is sent on create, and a change replaces the ROA.
const fixed = { create: true, replace: true } as const;

const roaArgs = z.object({
  caId: idRef("Id of the hosted RPKI CA that signs the ROA.").meta({ replace: true }),
  asn: z
    .number()
    .int()
    .min(0)
    .max(ASN_MAX)
    .meta({
      key: true,
      description:
        "Origin AS the ROA authorises. It need not be one of the CA's ASNs (an upstream may originate the " +
        "prefix); 0 makes an AS0 ROA, which says no one may originate it.",
      ...fixed,
    }),
  prefix: prefix.meta({ ...fixed, key: true }),
  maxLength: z
    .number()
    .int()
    .min(0)
    .max(128)
    .optional()
    .meta({
      key: true,
      description:
        "Longest prefix length the ROA allows, from the prefix length up to 32 (IPv4) or 128 (IPv6). Default: " +
        "the prefix length.",
      ...fixed,
    }),
  comment: z
    .string()
    .max(1024)
    .optional()
    .meta({ description: "Free-text comment, shown as `descr:` in the CA's RPSL.", ...fixed }),
});

const roaState = z.object({
  createdAt: z.string().meta({ description: "When the ROA was created." }),
});

// The ROAs of one CA. There is no GET of one ROA: it is found in its CA's list, shared by the
// ROAs of one refresh (and listed afresh to confirm one that the shared list lacks).
// The API always stores a max length (the prefix length when none is given).
const roas = childCollection({
  token: "nsp:rpki:Roa",
  path: "/rpki/cas/{caId}/roas",
  parent: { token: "nsp:rpki:Ca", input: "caId" },
  importId: "<caId>/<roaId>",
  args: roaArgs,
  state: roaState,
  idOnWire: z.number().int(),
  wireExtras: { max_length: z.number().int() },
  read: fromSharedList(),
});

export const roa = roas.resource({
  since: "0.1.0",
  list: { label: (r, c) => `${String(c?.handle)}-as${String(r.asn)}-${String(r.prefix)}-${String(r.max_length)}` },
  description:
    "A route origin authorisation signed by a hosted RPKI CA: `asn` may originate `prefix` and its more " +
    "specifics up to `maxLength`. The API has no patch for ROAs, so every change replaces the ROA.",
  // The API refuses two ROAs with the same origin, prefix and maxLength in one CA, so a
  // replacement that keeps them (a new comment) must wait for the old ROA to go.
  deleteBeforeReplace: (olds, news) =>
    olds.caId === news.caId &&
    olds.asn === news.asn &&
    olds.prefix === news.prefix &&
    olds.maxLength === news.maxLength,

  check(args) {
    const failures: CheckFailure[] = [];
    const p = parsePrefix(args.prefix);
    if (!p.ok) return failures;
    const { length } = p.prefix;
    const max = familyBits(p.prefix);
    if (args.maxLength === undefined) {
      // RFC 6482: a ROA without maxLength allows exactly the prefix length, which is also what
      // the API stores. Writing it into the inputs keeps the next Diff (and an import into a
      // program without maxLength) free of changes.
      args.maxLength = length;
    } else if (args.maxLength < length || args.maxLength > max) {
      failures.push({
        property: "maxLength",
        reason: `must be between ${length} (the length of ${p.prefix.text}) and ${max} for an IPv${p.prefix.version} prefix, got ${args.maxLength}`,
      });
    }
    return failures;
  },

  // The API refuses a second ROA with the same origin, prefix and max length: the conflict itself
  // says that the ROA exists, so nothing is listed before posting.
  create: (ctx, args) =>
    roas.of(args.caId).create(
      ctx,
      `ROA AS${args.asn} ${args.prefix}`,
      args,
      sameContent({
        content: (r) => r.asn === args.asn && r.prefix === args.prefix && r.max_length === args.maxLength,
        checkFirst: false,
      }),
    ),
});
