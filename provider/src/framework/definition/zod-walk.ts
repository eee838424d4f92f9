import type { z } from "zod";

/**
 * The roles of one property, declared once in its `.meta()`; request bodies, the wire schema
 * that validates responses, the secret and replace markings and refresh's carry-over are all
 * derived from them (see fields.ts). A property of `args` is an input, one of `state` is
 * computed by the API.
 */
export interface FieldRoles {
  /** Sent in the create body. */
  create?: boolean;
  /** Sent in the patch body when the program changes it (null when a nullable one is unset). */
  patch?: boolean;
  /**
   * What the patch sends when the program stops setting it, where the API clears it that way
   * although the input is not nullable: null, or `{}` for a map. Without it such an input keeps its last
   * value.
   */
  clearedAs?: null | Record<string, never>;
  /** The API cannot change it in place: a change replaces the object. */
  replace?: boolean;
  /**
   * Left unset, a create chooses it (the account's one service of the kind the object needs) and
   * the object keeps it after: a program that stops setting it changes nothing, where dropping
   * another input the program used to set is a change (a replacement, for a `replace` input).
   */
  keptWhenUnset?: boolean;
  /** Always stored as a Pulumi secret. */
  secret?: boolean;
  /** Sent but never returned: refresh keeps the value last set, Diff compares inputs. */
  writeOnly?: boolean;
  /** Returned once (at create or rotation) and never again: refresh keeps it from the state. */
  oneTime?: boolean;
  /** The provider's own (a wait setting, a rotation trigger, a value it works out): not on the wire. */
  local?: boolean;
  /** The API's name for it, where that is not the snake_case of the property name. */
  wire?: string;
  /** The API may leave it out of a response (or send null), so validation does not require it. */
  optionalOnWire?: boolean;
  /**
   * Part of the natural key: with the parent, the key inputs name one object (a zone's name, a
   * mailbox's local part, an extension's number). A create refused because the key is taken
   * names the object holding it, and a create a killed run left pending is found again by it
   * (framework/api/natural-key.ts).
   */
  key?: boolean;
}

/** Metadata the framework reads from `.meta()` on a property schema. */
interface PropertyMeta extends FieldRoles {
  description?: string;
  /** The value is a string in Pulumi and an integer on the wire (ids of other objects). */
  wireInteger?: boolean;
  /** Name of the Pulumi object type generated for a nested object, e.g. `ZoneDelegation`. */
  typeName?: string;
}

declare module "zod/v4/core" {
  // Type-checks the framework's keys wherever `.meta()` is written.
  // An interface, not a type alias: zod merges declarations into it.
  interface GlobalMeta extends PropertyMeta {}
}

// zod 4 keeps the structure in `_zod.def`; every wrapper we care about has `innerType`.
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  values?: unknown[];
  options?: z.ZodType[];
  defaultValue?: unknown;
}

export function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export function metaOf(schema: z.ZodType): PropertyMeta {
  // Metadata may sit on any wrapper layer (`.optional().meta()` or `.meta().optional()`).
  let merged: PropertyMeta = {};
  let current: z.ZodType | undefined = schema;
  while (current) {
    const m = current.meta() as PropertyMeta | undefined;
    if (m) merged = { ...m, ...merged };
    if (!merged.description && current.description) merged.description = current.description;
    current = innerOf(current);
  }
  return merged;
}

function innerOf(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  switch (d.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      return d.innerType;
    case "pipe":
      // A transform is a pipe from the declared type into a function; the declared side is `in`.
      // A preprocess is a pipe from a function into the declared type; the declared side is `out`.
      return d.in && defOf(d.in).type === "transform" ? d.out : d.in;
    default:
      return undefined;
  }
}

export interface Unwrapped {
  base: z.ZodType;
  optional: boolean;
  nullable: boolean;
  hasDefault: boolean;
  defaultValue?: unknown;
}

/** Peels optional/nullable/default/pipe layers to reach the declared type. */
export function unwrap(schema: z.ZodType): Unwrapped {
  const result: Unwrapped = { base: schema, optional: false, nullable: false, hasDefault: false };
  let current = schema;
  for (;;) {
    const d = defOf(current);
    if (d.type === "optional") result.optional = true;
    if (d.type === "nullable") result.nullable = true;
    if (d.type === "default" || d.type === "prefault") {
      result.hasDefault = true;
      const dv = d.defaultValue;
      result.defaultValue = typeof dv === "function" ? (dv as () => unknown)() : dv;
    }
    const inner = innerOf(current);
    if (!inner) break;
    current = inner;
  }
  result.base = current;
  return result;
}

export function isIntegerSchema(schema: z.ZodType): boolean {
  return (schema as unknown as { isInt?: boolean }).isInt === true;
}

export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const d = defOf(schema);
  return d.type === "object" ? d.shape : undefined;
}

/** The properties of `shape` that declare `role`. */
export function keysWithRole(shape: Record<string, z.ZodType>, role: keyof FieldRoles): string[] {
  return Object.keys(shape).filter((key) => metaOf(shape[key]!)[role] === true);
}
