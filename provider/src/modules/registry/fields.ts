// Property schemas shared by the registry-link resources and functions.
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";
import { dnsName } from "../../framework/api/validators";

export const MNTNER = /^[A-Z][A-Z0-9-]{0,77}-MNT$/;
const DS = /^\d{1,5} \d{1,3} \d{1,3} [0-9A-Fa-f]{20,128}$/;
const REVERSE_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+(in-addr|ip6)\.arpa$/;

export const dsRdata = z
  .string()
  .trim()
  .transform((s) => s.replace(/\s+/g, " "))
  .pipe(z.string().regex(DS, "must be DS record data: '<key tag> <algorithm> <digest type> <hex digest>'"));

export const reverseDomain = dnsName(
  z.string().regex(REVERSE_DOMAIN, "must be a reverse domain such as 2.0.192.in-addr.arpa or 8.b.d.0.1.0.0.2.ip6.arpa"),
);

/**
 * The optional `mntner` argument of the functions that read what the registry link found. Given
 * the link's own output (`registryLink.mntner`) it also orders the lookup after the link, which a
 * function without inputs cannot express in Pulumi YAML.
 */
export const linkedMaintainer = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.string().regex(MNTNER, "must be a maintainer name ending in -MNT, such as EXAMPLE-MNT"))
  .optional()
  .meta({
    description:
      "The maintainer the account's registry link must be for (the `mntner` of `nsp:registry:Link`); the " +
      "lookup fails when the link is for another one.",
  });

/** Fails, naming both, when the account's registry link is not for the expected maintainer. */
export async function requireLinkedMaintainer(
  ctx: OperationContext,
  token: string,
  expected: string | undefined,
): Promise<void> {
  if (expected === undefined) return;
  const link = await ctx.client.get("/registry/link", {
    schema: z.looseObject({ linked: z.boolean(), mntner: z.string().nullable().optional() }),
    signal: ctx.signal,
  });
  const actual = link.linked ? (link.mntner ?? "").toUpperCase() : "";
  if (actual !== expected)
    throw new Error(
      `${token}: mntner: the account's registry link is ${actual ? `for ${actual}` : "missing"}, not for ${expected}`,
    );
}
