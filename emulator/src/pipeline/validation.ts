// Body and query validation on top of zod. Every schema is a strict object so an unknown field is
// an error, and every message starts with the field it is about (`ttl: must be between 60 and
// 86400`), because that is what a person reading a failed `pulumi up` needs.
import { z } from "zod";
import { ApiError } from "./errors";

type RawIssue = z.core.$ZodRawIssue;

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

const TYPE_NAMES: Record<string, string> = {
  int: "integer",
  number: "number",
  string: "string",
  boolean: "boolean",
  object: "object",
  array: "array",
  null: "null",
};

// Zod's default texts ("Invalid input: expected int, received number") are written for developers
// of the schema; these are written for the caller of the API.
const errorMap = (iss: RawIssue): string | undefined => {
  switch (iss.code) {
    case "invalid_type": {
      if (iss.input === undefined) return "is required";
      // z.int() reports "expected number" for a string; the schema's format says it wants an integer.
      const format = (iss.inst as { _zod?: { def?: { format?: unknown } } } | undefined)?._zod?.def?.format;
      const expected = typeof format === "string" && format.includes("int") ? "int" : String(iss.expected);
      return `must be ${article(TYPE_NAMES[expected] ?? expected)}`;
    }
    case "too_small": {
      const min = Number(iss.minimum);
      if (iss.origin === "string") return min <= 1 ? "must not be empty" : `must be at least ${min} characters`;
      if (iss.origin === "array") return `must have at least ${min} items`;
      return `must be at least ${min}`;
    }
    case "too_big": {
      const max = Number(iss.maximum);
      if (iss.origin === "string") return `must be at most ${max} characters`;
      if (iss.origin === "array") return `must have at most ${max} items`;
      return `must be at most ${max}`;
    }
    case "invalid_value":
      if (iss.input === undefined) return "is required";
      return `must be one of ${iss.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      return "has an invalid format";
    default:
      return undefined;
  }
};

function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? String(p) : `.${String(p)}`;
  }
  return out;
}

export function formatIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  const parts: string[] = [];
  for (const iss of issues) {
    if (iss.code === "unrecognized_keys") {
      for (const k of iss.keys) parts.push(`${fieldPath([...iss.path, k], root)}: unknown field`);
    } else {
      parts.push(`${fieldPath(iss.path, root)}: ${iss.message}`);
    }
  }
  return parts.join("; ");
}

/** Parses `input` or throws a validation_error naming the first bad field(s). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, root: string): z.output<S> {
  const r = schema.safeParse(input, { error: errorMap });
  if (!r.success) throw new ApiError("validation_error", formatIssues(r.error.issues, root));
  return r.data;
}

// ---- Shared field schemas -------------------------------------------------------------------

/** A phone number in E.164 form (`+4930123456`), as the PBX and the messaging gateway take it. */
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/** An integer in a query string ("?limit=20"). */
export function queryInt(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^-?\d+$/, { error: "must be an integer" })
    .transform(Number)
    .pipe(z.int().min(min).max(max));
}

export function queryBool() {
  return z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true");
}

/** An integer between min and max, with the message naming both bounds. */
export function intBetween(min: number, max: number) {
  const msg = `must be between ${min} and ${max}`;
  return z
    .int({ error: (iss) => (iss.input === undefined ? "is required" : "must be an integer") })
    .min(min, { error: msg })
    .max(max, { error: msg });
}

/**
 * An array's refinement: an item equal to an earlier one (by `key`, the item itself unless given)
 * is an issue at its index (and `at` below it), worded by `describe` from the first one's index.
 */
export function noRepeats<T>(
  describe: (first: number) => string,
  key: (item: T) => unknown = (item) => item,
  at: readonly string[] = [],
) {
  return (items: T[], ctx: z.RefinementCtx): void => {
    const keys = items.map(key);
    keys.forEach((k, i) => {
      const first = keys.indexOf(k);
      if (first !== i) ctx.addIssue({ code: "custom", path: [i, ...at], message: describe(first) });
    });
  };
}

/** Optional free-text field that may be cleared with null. */
export function optText(max = 1024) {
  return z.string().max(max).nullable().optional();
}

/**
 * The body with `keys` present, or a validation_error naming the first absent one: for a create
 * whose body schema is also the patch's, so every field in it is optional.
 */
export function requireFields<B extends object, K extends keyof B & string>(
  body: B,
  keys: readonly K[],
): B & { [P in K]-?: Exclude<B[P], undefined> } {
  for (const k of keys) if (body[k] === undefined) throw new ApiError("validation_error", `${k}: is required`);
  return body as B & { [P in K]-?: Exclude<B[P], undefined> };
}
