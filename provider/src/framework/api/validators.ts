// The value rules several modules share (ids, phone numbers, email addresses, host names,
// timestamps), written once so a property is checked the same way in every module that has it.
import { z } from "zod";

/** Numeric ids, as most objects of the API have. */
export const NUMERIC_ID = /^[1-9][0-9]{0,15}$/;

/** Ids the API chooses as strings: anything that stays one path segment. */
export const STRING_ID = /^[^/\s]+$/;

// The id formats below are every id format of the provider: a regex checking an id anywhere else
// fails test/unit/id-formats.test.ts, so that a format is changed in one place.

/** The ids of the PBX gateway's objects (PBXs and what they hold), strings the gateway chooses. */
export const GATEWAY_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** The ids of the VOD API's string-id objects (assets, signing keys). */
export const VOD_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The organisation's id, as `GET /org` shows it. */
export const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The part of an address before `@` as the API stores it (lower case); a mail route is known by it in its domain. */
export const MAIL_LOCAL_PART = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/** The name of a tunnel's hostname list, which the list is known by on its tunnel (no `/`). */
export const MANAGED_BY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** A reference to an object the API names by a string id (a mail server, a sender). */
export function stringRef(description: string) {
  return z.string().regex(STRING_ID, "must be the id of an existing object").meta({ description });
}

/**
 * A telephone number in E.164 form. The API refuses fewer than 7 digits or more than 15 (its
 * voice, messaging and PBX endpoints alike), so Check does too.
 */
export const E164 = /^\+[1-9][0-9]{6,14}$/;

export const e164 = z.string().trim().regex(E164, "must be a number in E.164 form such as +12025550101");

/** An address as the API stores it (lower case), also the form of ids such as `<zoneId>/<email>`. */
export const EMAIL = /^[^\s@/]+@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

/**
 * A value the API stores lower-case: trimmed and lower-cased before `rule` checks it, so the state
 * holds the API's spelling and a difference of case in the program is no change.
 */
export function lowerCase<T>(rule: z.ZodType<T, string>) {
  return z.string().trim().toLowerCase().pipe(rule);
}

/** `lowerCase`, held to one pattern. */
export function lowerCaseMatching(pattern: RegExp, message: string) {
  return lowerCase(z.string().regex(pattern, message));
}

/** A name for people to read, as the API takes one: 1 to 100 characters, trimmed. */
export const displayName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

/** An email address, stored lower-case by the API. */
export const email = lowerCase(
  z
    .string()
    .max(254, "must be at most 254 characters")
    .regex(EMAIL, "must be an email address such as ops@example.com"),
);

/**
 * The only shape the PBX and the exchange check (`local@domain.tld`, any case, any characters but
 * spaces and `@`): the PBX keeps the address as written, so a Check that lower-cased it or applied
 * EMAIL's stricter rule would change or refuse what states of earlier releases hold.
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An address the API keeps exactly as written (the PBX's users). */
export const emailAsWritten = z.string().regex(EMAIL_SHAPE, "must be an email address such as ops@example.com");

const LABELS = "([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";

/** A DNS name of two labels or more, as the API stores it (lower case, no trailing dot). */
export const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABELS}$`);

/** A DNS name in the form the API stores (lower case, no trailing dot), then checked by `rule`. */
export function dnsName<T>(rule: z.ZodType<T, string>) {
  return z
    .string()
    .trim()
    .toLowerCase()
    .transform((s) => s.replace(/\.$/, ""))
    .pipe(rule);
}

/** Host names as the API stores them; `wildcard` allows a leading `*.`. */
export function hostName(options: { wildcard?: boolean } = {}) {
  const pattern = options.wildcard ? new RegExp(`^(?=.{1,253}$)(\\*\\.)?${LABELS}$`) : HOST_NAME;
  return dnsName(z.string().regex(pattern, "must be a host name such as www.example.com"));
}

/**
 * Properties named like timestamps (`createdAt`, `checkedAt`, `at`). The API documents do not
 * show the timestamp format, so such fields are read in either form (see wire.ts).
 */
export const TIMESTAMP_PROPERTY = /(^a|A)t$/;

/**
 * A local input that makes the provider issue something new (a key, a password, a credential)
 * each time it changes: any string or number, which the API never sees.
 */
export function rotationTrigger(description: string) {
  return z.union([z.string(), z.number()]).optional().meta({ description, local: true });
}

/** A secret the API shows only once (at the create, at a rotation): kept from the state on every refresh. */
export function oneTimeSecret(description: string) {
  return z.string().nullable().optional().meta({ description, secret: true, oneTime: true });
}
