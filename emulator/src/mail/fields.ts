// Field rules shared by the mail routes.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { normalizeEmail, normalizeZoneName } from "../model/names";
import { isIPv4, isIPv6 } from "../util/ip";
import { noRepeats } from "../pipeline/validation";

const LOCAL = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
const LOCAL_PART_RULE =
  "must be 1 to 64 letters, digits, '.', '-' or '_', starting and ending with a letter or digit, without '..'";

/** A local part (the part before `@`), stored lower-case. */
export const localPart = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .refine((s) => LOCAL.test(s) && !s.includes(".."), { error: LOCAL_PART_RULE });

/** An email address, stored lower-case. */
export const emailAddress = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .refine((s) => normalizeEmail(s) !== null, { error: "must be an email address such as ops@example.com" });

/** Email addresses without duplicates (`shared_with[2]: duplicate of shared_with[0]`). */
export function emailList(field: string, max: number) {
  return z
    .array(emailAddress)
    .max(max)
    .superRefine(noRepeats((first) => `duplicate of ${field}[${first}]`));
}

/** A string that may be cleared with null or "" (both stored as null). */
export function clearableText(max: number) {
  return z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((s) => (s === "" ? null : s));
}

export function domainName(field: string, input: string): string {
  const name = normalizeZoneName(input);
  if (name === null) throw invalid(field, "must be a domain name such as example.com");
  return name;
}

/** `host`, `host:port`, `192.0.2.1:25` or `[2001:db8::1]:25`: where relay_rcpt hands mail on. */
export function isRelayHost(s: string): boolean {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(s);
  if (!m) return false;
  if (m[3] !== undefined && (Number(m[3]) < 1 || Number(m[3]) > 65535)) return false;
  if (m[1] !== undefined) return isIPv6(m[1]);
  const host = m[2] as string;
  return isIPv4(host) || normalizeZoneName(host) === host.toLowerCase();
}
