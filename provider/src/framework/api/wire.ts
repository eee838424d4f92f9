import { z } from "zod";
import { NUMERIC_ID, TIMESTAMP_PROPERTY } from "./validators";
import { defOf, metaOf, shapeOf, unwrap } from "../definition/zod-walk";

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A numeric id kept as a string. The schema declares a string (Pulumi ids are strings in every
 * language), but Check also takes a number, as a YAML stack gives for `${id}` read from
 * `pulumi config set id 2`, and stores it as the string id.
 */
export function numericId(message: string) {
  return z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v),
    z.string().regex(NUMERIC_ID, message),
  );
}

/**
 * A reference to another object by its Pulumi id. Pulumi ids are strings in every language, so
 * `zoneId: zone.id` works without conversion; the API wants an integer, which `toWire` sends.
 */
export function idRef(description: string) {
  return numericId("must be the numeric id of an existing object").meta({ description, wireInteger: true });
}

// The API documents do not show the timestamp format. Fields named like timestamps (`createdAt`,
// `checkedAt`, `at`) are therefore read as an RFC 3339 string or as epoch seconds, and stored in
// one form, the ISO-8601 UTC string with milliseconds, so that an API switching between the two
// never shows up as a change.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An API timestamp (RFC 3339 string or epoch seconds) as the ISO-8601 UTC string kept in state; anything else unchanged. */
export function isoTimestamp(value: unknown): unknown {
  if (typeof value === "number" && Number.isFinite(value)) return new Date(Math.round(value * 1000)).toISOString();
  if (typeof value === "string" && RFC3339.test(value)) {
    const ms = Date.parse(value.replace(" ", "T"));
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  return value;
}

/**
 * Two spellings of one instant in a property named like a timestamp: an input the program wrote
 * as `...T10:00:00Z` comes back as `...T10:00:00.000Z`, and that is no change.
 */
export function sameInstant(key: string, a: unknown, b: unknown): boolean {
  if (!TIMESTAMP_PROPERTY.test(key) || typeof a !== "string" || typeof b !== "string") return false;
  const [x, y] = [isoTimestamp(a), isoTimestamp(b)];
  return x !== a || y !== b ? x === y : false;
}

/** A response field holding a timestamp, in either form; parsed into the stored ISO string. */
export const wireTimestamp = z.union([z.string(), z.number()]).transform((v) => isoTimestamp(v) as string);

/** The API's name of a property: its declared `wire` name, else the snake_case of its name. */
export function wireName(key: string, field: z.ZodType | undefined): string {
  return (field && metaOf(field).wire) || snakeCase(key);
}

function isStringProperty(schema: z.ZodType): boolean {
  return defOf(unwrap(schema).base).type === "string";
}

/** Converts Pulumi-side values (camelCase, string ids) into an API body (snake_case, integer ids). */
export function toWire(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const { base } = unwrap(schema);
  const shape = shapeOf(base);
  if (shape && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      const field = shape[key];
      out[wireName(key, field)] = field ? toWire(field, v) : v;
    }
    return out;
  }
  const d = defOf(base);
  if (d.type === "array" && Array.isArray(value) && d.element)
    return value.map((v) => toWire(d.element as z.ZodType, v));
  if (typeof value === "string" && metaOf(schema).wireInteger) return Number(value);
  return value;
}

/**
 * Converts an API object into Pulumi-side values for the properties a schema declares: snake_case
 * keys become camelCase, integer ids become strings, and fields the API does not return stay
 * absent (undefined) so that callers can tell "not returned" from "null".
 */
export function fromWire(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const { base } = unwrap(schema);
  const shape = shapeOf(base);
  if (shape) {
    if (typeof value !== "object" || Array.isArray(value)) return value;
    const src = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const name = wireName(key, field);
      const raw = name in src ? src[name] : src[key];
      if (raw === undefined) continue;
      out[key] = TIMESTAMP_PROPERTY.test(key) && isStringProperty(field) ? isoTimestamp(raw) : fromWire(field, raw);
    }
    return out;
  }
  const d = defOf(base);
  if (d.type === "array" && Array.isArray(value) && d.element)
    return value.map((v) => fromWire(d.element as z.ZodType, v));
  if (d.type === "record" && typeof value === "object" && d.valueType) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromWire(d.valueType as z.ZodType, v)]),
    );
  }
  if (d.type === "string" && typeof value === "number") return String(value);
  return value;
}

/** The API representation of a subset of inputs, for a create or patch body. */
export function body<T extends Record<string, unknown>>(
  schema: z.ZodObject,
  args: T,
  keys: readonly (keyof T & string)[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (args[key] !== undefined) picked[key] = args[key];
  return toWire(schema, picked) as Record<string, unknown>;
}
