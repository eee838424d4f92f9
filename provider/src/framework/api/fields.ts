// What the API sees of a resource, derived from the roles each property declares in its meta
// (FieldRoles in zod-walk.ts): the create and patch bodies, the wire schema every response is
// validated against, and the mapping from a response to the Pulumi state.
import { z } from "zod";
import { TIMESTAMP_PROPERTY } from "./validators";
import { fromWire, toWire, wireName, wireTimestamp } from "./wire";
import { defOf, isIntegerSchema, keysWithRole, metaOf, shapeOf, unwrap } from "../definition/zod-walk";

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

/** Whether the API ever returns this property. */
function onWire(field: z.ZodType): boolean {
  const m = metaOf(field);
  return !m.local && !m.writeOnly;
}

/**
 * The type the API uses for a property: its primitive kind, not the input rules (lengths,
 * patterns, enum members), because the API answers in its own spelling and may grow new values.
 */
function wireType(key: string, field: z.ZodType): z.ZodType {
  const meta = metaOf(field);
  const { base } = unwrap(field);
  const d = defOf(base);
  if (meta.wireInteger) return z.number().int();
  switch (d.type) {
    case "string":
      return TIMESTAMP_PROPERTY.test(key) ? wireTimestamp : z.string();
    case "number":
      return isIntegerSchema(base) ? z.number().int() : z.number();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.union([z.string(), z.number()]);
    case "array":
      return z.array(d.element ? wireType("", d.element) : z.unknown());
    case "object":
      return wireObject(shapeOf(base)!);
    case "record":
      return z.record(z.string(), d.valueType ? wireType("", d.valueType) : z.unknown());
    default:
      return z.unknown();
  }
}

/** A property the API must always return: required on the Pulumi side and not declared otherwise. */
function requiredOnWire(field: z.ZodType): boolean {
  const m = metaOf(field);
  const u = unwrap(field);
  return !u.optional && !u.nullable && !m.optionalOnWire && !m.oneTime;
}

function wireObject(shape: Record<string, z.ZodType>): z.ZodType {
  const fields: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (!onWire(field)) continue;
    const type = wireType(key, field);
    fields[wireName(key, field)] = requiredOnWire(field) ? type : type.nullish();
  }
  // Fields the API adds beyond those declared are tolerated.
  return z.looseObject(fields);
}

export interface WireModel<A extends Shape, S extends Shape> {
  /** Validates a response object: every declared field present with the API's type; extra fields allowed. */
  wire: z.ZodType<Record<string, unknown>>;
  /** The create body: the `create` inputs that are set, in the API's names and types. */
  createBody(args: Out<A>): Record<string, unknown>;
  /** The `patch` inputs among `changed`. */
  patchKeys(changed: readonly string[]): (keyof A & string)[];
  /**
   * The patch body for the `patch` inputs among `changed`: an input the program stopped setting
   * is sent as null where the API takes null (or as its role `clearedAs` says), and left as it is
   * otherwise.
   */
  patchBody(values: Partial<Out<A>>, changed: readonly string[]): Record<string, unknown>;
  /** The Pulumi state of a validated response (inputs and outputs the API returns). */
  toState(raw: Record<string, unknown>): Out<A> & Out<S>;
}

/**
 * Derives what the API sees of a resource from its args and state schemas. `extra` adds wire
 * fields that are not properties (the object's own `id`, a field only Read looks at). The wire
 * schema and the bodies are built on first use: a module's definitions make their models when the
 * module is evaluated, and most plugin processes (a preview, a no-change up: Check and Diff) never
 * send or read an object of most of them.
 */
export function wireModel<A extends Shape, S extends Shape>(
  args: z.ZodObject<A>,
  state: z.ZodObject<S>,
  extra: Record<string, z.ZodType> = {},
): WireModel<A, S> {
  const argShape = args.shape as unknown as Record<string, z.ZodType>;
  // Asked when a resource is defined (whether it has an update at all).
  const patchable = new Set(keysWithRole(argShape, "patch"));
  let built: ReturnType<typeof build> | undefined;
  const build = () => {
    const properties = args.extend(state.shape);
    return {
      properties,
      createKeys: keysWithRole(argShape, "create"),
      nullable: new Set(Object.keys(argShape).filter((k) => unwrap(argShape[k]!).nullable)),
      clearedAs: new Map(
        Object.keys(argShape).flatMap((k) =>
          metaOf(argShape[k]!).clearedAs !== undefined ? [[k, metaOf(argShape[k]!).clearedAs] as const] : [],
        ),
      ),
      wire: (wireObject(properties.shape as unknown as Record<string, z.ZodType>) as z.ZodObject).extend(
        extra,
      ) as unknown as z.ZodType<Record<string, unknown>>,
    };
  };
  const model = () => (built ??= build());

  const pick = (values: Record<string, unknown>, keys: readonly string[], clear: boolean) => {
    const { nullable, clearedAs } = model();
    const picked: Record<string, unknown> = {};
    for (const key of keys) {
      const v = values[key];
      if (v !== undefined) picked[key] = v;
      else if (clear && nullable.has(key)) picked[key] = null;
      else if (clear && clearedAs.has(key)) picked[key] = clearedAs.get(key);
    }
    return toWire(args, picked) as Record<string, unknown>;
  };

  return {
    // A schema like any other where it is used; its fields are derived on its first parse.
    wire: z.lazy(() => model().wire),
    createBody: (values) => pick(values, model().createKeys, false),
    patchKeys: (changed) => changed.filter((k) => patchable.has(k)) as (keyof A & string)[],
    patchBody: (values, changed) =>
      pick(
        values,
        changed.filter((k) => patchable.has(k)),
        true,
      ),
    toState: (raw) => fromWire(model().properties, raw) as Out<A> & Out<S>,
  };
}
