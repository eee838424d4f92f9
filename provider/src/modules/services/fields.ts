// Shared by the resolver-service resources: property schemas normalised the way the API stores
// them, so a second `up` shows no change (lists travel as text, see text-lists.ts).
import { isIP } from "node:net";
import { dnsName, lowerCase, lowerCaseMatching } from "../../framework/api/validators";
import { z } from "zod";
import type { OperationContext } from "../../framework/definition";

import { NUMERIC_ID, ownIdOf } from "../../framework/api/ids";

export { NUMERIC_ID };
export const BLOCK_MODES = ["nxdomain", "zero", "page"] as const;
export const LOG_MODES = ["off", "blocked", "all"] as const;
export const SAFESEARCH = ["", "off", "on"] as const;

const DOMAIN = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const domainName = dnsName(
  z
    .string()
    .max(253, "must be at most 253 characters")
    .regex(DOMAIN, "must be a domain name such as ads.example.com (`*.` allowed)"),
);

export const rewriteTarget = dnsName(
  z.string().refine((s) => isIP(s) !== 0 || DOMAIN.test(s), "must be an IP address or a domain name"),
);

export const key = lowerCaseMatching(KEY, "must be a key of letters, digits, '-' or '_'");

export const address = lowerCase(z.string().refine((s) => isIP(s) !== 0, "must be an IP address"));

export const addressOrPrefix = lowerCase(
  z.string().refine((s) => {
    const [a, len, extra] = s.split("/");
    if (extra !== undefined || a === undefined || isIP(a) === 0) return false;
    return len === undefined || (/^\d{1,3}$/.test(len) && Number(len) <= (isIP(a) === 4 ? 32 : 128));
  }, "must be an IP address or a prefix such as 192.0.2.0/24"),
);

/** Free text lines (custom rules): no empty lines, no line breaks inside one. */
export const ruleLine = z
  .string()
  .trim()
  .pipe(
    z
      .string()
      .min(1, "must not be empty")
      .refine((s) => !/[\r\n]/.test(s), "must be one line"),
  );

export const timestamp = z
  .string()
  .trim()
  .refine(
    (s) => s === "" || (/^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s))),
    "must be an ISO 8601 timestamp such as 2030-01-01T00:00:00Z, or empty",
  );

export function serviceIdOf(token: string, id: string): string {
  return ownIdOf(token, id, { what: "resolver service", form: "<serviceId>" });
}

const serviceWire = z.looseObject({ id: z.number().int(), name: z.string(), type: z.string() });

/**
 * Filters, policies and client groups exist only on resolver services; another type is refused
 * here with the service named, before anything is written. Undefined when the service is gone.
 */
export async function resolverService(
  ctx: OperationContext,
  token: string,
  serviceId: string,
): Promise<{ id: number; name: string } | undefined> {
  const s = await ctx.client.getOrUndefined(`/services/${serviceId}`, { schema: serviceWire, signal: ctx.signal });
  if (!s) return undefined;
  if (s.type !== "resolver")
    throw new Error(
      `${token}: service ${serviceId} ("${s.name}") is a ${s.type} service; only resolver services have filters, policies and client groups`,
    );
  return s;
}

export async function requireResolver(
  ctx: OperationContext,
  token: string,
  serviceId: string,
): Promise<{ id: number; name: string }> {
  const s = await resolverService(ctx, token, serviceId);
  if (!s) throw new Error(`${token}: service ${serviceId} does not exist in this account`);
  return s;
}
