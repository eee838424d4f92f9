// Property schemas and id parsing shared by the mail resources, so a local part or an address is
// validated the same way everywhere, and a malformed id is a clear error instead of a request.
import { z } from "zod";
import { deepEqual } from "../../framework/engine/diff";
import { wireModel } from "../../framework/api/fields";
import { keysWithRole } from "../../framework/definition/zod-walk";
import { childCollection, type ChildCollectionSpec } from "../../framework/api/shapes/child-collection";
import { dnsName, HOST_NAME, lowerCase, MAIL_LOCAL_PART } from "../../framework/api/validators";

export const MIB = 1024 * 1024;
export const QUOTA_MIN = MIB;
export const QUOTA_MAX = 1024 * 1024 * MIB;

/** The part of an address before `@`, stored lower-case by the API. */
const localPart = lowerCase(
  z
    .string()
    .regex(
      MAIL_LOCAL_PART,
      "must be 1 to 64 letters, digits, '.', '-' or '_', starting and ending with a letter or digit",
    )
    .refine((s) => !s.includes(".."), "must not contain '..'"),
);

/**
 * The local part an object is known by in its domain: `first` says whose it is ("The alias's
 * local part (before `@`)."); a change replaces the object, or with `patch` changes it in place.
 */
export function localPartKey(first: string, change: "replace" | "patch" = "replace") {
  const inPlace = change === "patch" ? " Changes in place." : "";
  return localPart.meta({
    key: true,
    description: `${first} Stored lower-case; unique in the domain among mailboxes, aliases, groups and routes.${inPlace}`,
    create: true,
    [change]: true,
  });
}

export const domainName = dnsName(
  z
    .string()
    .regex(HOST_NAME, "must be a domain name such as example.com")
    .refine((s) => !/\.[0-9]+$/.test(s), "must end in a name, not a number"),
);

export const quotaBytes = z
  .number()
  .int()
  .min(QUOTA_MIN, `must be at least ${QUOTA_MIN} (1 MiB)`)
  .max(QUOTA_MAX, `must be at most ${QUOTA_MAX} (1 TiB)`);

type Shape = z.ZodRawShape;
type Raw = Record<string, unknown> & { id: string | number };

/**
 * The resource's wire model (see wireModel) with the API's type of the object's id, and the
 * `{ id, state }` of a validated response.
 */
export function mailModel<A extends Shape, S extends Shape>(
  args: z.ZodObject<A>,
  state: z.ZodObject<S>,
  id: z.ZodType<string | number>,
) {
  const api = wireModel(args, state, { id });
  return {
    ...api,
    wire: api.wire as z.ZodType<Raw>,
    toResult: (raw: Raw) => ({ id: String(raw.id), state: api.toState(raw) }),
  };
}

/**
 * The objects of one mail domain: a collection per domain (`/mail/domains/{domainId}/<name>`),
 * each object known as `<domainId>/<its id>` (`idForm`) and, for most kinds, patched and deleted
 * at `/mail/<kind>/<id>` (`itemsAt`).
 */
export function domainObjects<A extends Shape, S extends Shape>(
  token: string,
  name: string,
  idForm: string,
  spec: Omit<ChildCollectionSpec<A, S>, "token" | "path" | "parent" | "importId">,
) {
  return childCollection({
    token,
    path: `/mail/domains/{domainId}/${name}`,
    parent: { token: "nsp:mail:Domain", input: "domainId" as keyof A & string },
    importId: `<domainId>/${idForm}`,
    ...spec,
  });
}

/**
 * The patch-only inputs the program sets to something else than what the create answered: the
 * create body has no place for them, so they take a patch right after.
 */
export function settingsAfterCreate(
  args: z.ZodObject,
  values: Record<string, unknown>,
  created: Record<string, unknown>,
): string[] {
  const shape = args.shape as Record<string, z.ZodType>;
  const createKeys = new Set(keysWithRole(shape, "create"));
  return keysWithRole(shape, "patch").filter(
    (k) => !createKeys.has(k) && values[k] !== undefined && !deepEqual(values[k], created[k]),
  );
}
