// Renders the TypeScript declarations of @nsp/pulumi-dynamic (dist/index.d.ts) from the resource
// definitions: args as pulumi.Input<...>, every property as pulumi.Output<...>, enums as string
// unions. The declarations refer to @pulumi/pulumi only, so a consumer needs no zod.
import type { z } from "zod";
import type { AnyResource } from "../framework/definition";
import { defOf, isIntegerSchema, metaOf, shapeOf, unwrap } from "../framework/definition/zod-walk";

type Mode = "input" | "output";

function comment(lines: (string | undefined)[], indent: string): string {
  const text = lines
    .filter((l): l is string => !!l)
    .join("\n\n")
    .replace(/\*\//g, "*\\/");
  if (!text) return "";
  return `${indent}/**\n${text
    .split("\n")
    .map((l) => `${indent} *${l ? ` ${l}` : ""}`)
    .join("\n")}\n${indent} */\n`;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));

/** The plain TypeScript type of a property (`input` wraps nested values in pulumi.Input). */
export function typeText(schema: z.ZodType, mode: Mode, indent = ""): string {
  const { base, nullable } = unwrap(schema);
  const inner = baseText(base, mode, indent);
  return nullable ? `${inner} | null` : inner;
}

function wrap(text: string, mode: Mode): string {
  return mode === "input" ? `pulumi.Input<${text}>` : text;
}

function baseText(base: z.ZodType, mode: Mode, indent: string): string {
  const d = defOf(base);
  switch (d.type) {
    case "string":
      return "string";
    case "number":
    case "int":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "enum":
      return [...new Set(Object.values(d.entries ?? {}))].map((v) => JSON.stringify(v)).join(" | ");
    case "literal":
      return (d.values ?? []).map((v) => JSON.stringify(v)).join(" | ");
    case "array": {
      const el = wrap(typeText(d.element as z.ZodType, mode, indent), mode);
      return /[ |]/.test(el) && mode === "output" ? `(${el})[]` : `${el}[]`;
    }
    case "record":
      return `{ [key: string]: ${wrap(typeText(d.valueType as z.ZodType, mode, indent), mode)} }`;
    case "union":
      return (d.options ?? []).map((o) => typeText(o, mode, indent)).join(" | ");
    case "object":
      return objectText(shapeOf(base) ?? {}, mode, indent);
    default:
      // Free-form JSON (z.unknown) and anything else without a static shape.
      return isIntegerSchema(base) ? "number" : "unknown";
  }
}

function objectText(shape: Record<string, z.ZodType>, mode: Mode, indent: string): string {
  const inner = `${indent}    `;
  const fields = Object.entries(shape).map(([k, field]) => {
    const u = unwrap(field);
    const optional = u.optional || u.hasDefault;
    const t = typeText(field, mode, inner);
    const doc = comment([metaOf(field).description], inner);
    return mode === "input"
      ? `${doc}${inner}${key(k)}${optional ? "?" : ""}: pulumi.Input<${t}>;`
      : `${doc}${inner}${key(k)}${u.optional && !u.hasDefault ? "?" : ""}: ${t};`;
  });
  return `{\n${fields.join("\n")}\n${indent}}`;
}

function defaultNote(field: z.ZodType): string | undefined {
  const u = unwrap(field);
  return u.hasDefault && u.defaultValue !== undefined ? `Default: \`${JSON.stringify(u.defaultValue)}\`.` : undefined;
}

function resourceText(def: AnyResource, indent: string): string {
  const [, , name = ""] = def.token.split(":");
  const args = def.args.shape as Record<string, z.ZodType>;
  const state = def.state.shape as Record<string, z.ZodType>;
  const secrets = new Set<string>(def.secrets ?? []);
  const replaces = new Set<string>(def.replaceOnChanges ?? []);
  const writeOnly = new Set<string>(def.writeOnly ?? []);
  const inner = `${indent}    `;

  const outputs: string[] = [];
  const all: [string, z.ZodType, boolean][] = [
    ...Object.entries(args).map(([k, f]) => [k, f, true] as [string, z.ZodType, boolean]),
    ...Object.entries(state)
      .filter(([k]) => !(k in args))
      .map(([k, f]) => [k, f, false] as [string, z.ZodType, boolean]),
  ];
  for (const [k, field, isArg] of all) {
    const u = unwrap(field);
    // Same rule as schema.json's `required`: defaulted inputs are always present, write-only ones never come back.
    const present = isArg
      ? (!u.optional || u.hasDefault) && u.defaultValue !== null && !writeOnly.has(k)
      : !u.optional && !u.hasDefault;
    const t = typeText(field, "output", inner);
    const notes = [
      secrets.has(k) ? "Stored as a secret." : undefined,
      writeOnly.has(k) ? "Write-only: the API never returns it; the state keeps the last value set." : undefined,
    ]
      .filter(Boolean)
      .join(" ");
    outputs.push(
      `${comment([metaOf(field).description, notes || undefined], inner)}${inner}readonly ${key(k)}: pulumi.Output<${present ? t : `${t} | undefined`}>;`,
    );
  }

  const argLines = Object.entries(args).map(([k, field]) => {
    const u = unwrap(field);
    const optional = u.optional || u.hasDefault;
    const notes = [
      defaultNote(field),
      replaces.has(k) ? "Changing it replaces the object." : undefined,
      secrets.has(k) ? "Stored as a secret." : undefined,
    ]
      .filter(Boolean)
      .join(" ");
    return (
      `${comment([metaOf(field).description, notes || undefined], inner)}${inner}${key(k)}${optional ? "?" : ""}: ` +
      `pulumi.Input<${typeText(field, "input", inner)}>;`
    );
  });
  const argsRequired = Object.values(args).some((f) => {
    const u = unwrap(f);
    return !u.optional && !u.hasDefault;
  });

  return [
    `${comment(
      [
        def.description,
        `Dynamic-provider form of \`${def.token}\`: runs in the program's own Node.js process through Pulumi's dynamic-provider host, no plugin needed.`,
      ],
      indent,
    )}${indent}class ${name} extends pulumi.dynamic.Resource {`,
    `${inner}/** The type token of the definition, \`${def.token}\`. */`,
    `${inner}static readonly token: string;`,
    comment([`Reads an existing ${name} into the program by its id (${"`"}${def.importId}${"`"}).`], inner) +
      `${inner}static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ${name};`,
    ...outputs,
    `${inner}constructor(name: string, args${argsRequired ? "" : "?"}: ${name}Args, opts?: pulumi.CustomResourceOptions);`,
    `${indent}}`,
    `${comment([`The arguments of ${name}.`], indent)}${indent}interface ${name}Args {`,
    ...argLines,
    `${indent}}`,
  ].join("\n");
}

/** The whole index.d.ts of the package. */
export function renderDeclarations(resources: readonly AnyResource[], version: string): string {
  const modules = new Map<string, AnyResource[]>();
  for (const def of resources) {
    const [, module = "index"] = def.token.split(":");
    modules.set(module, [...(modules.get(module) ?? []), def]);
  }
  const out = [
    `// Generated by scripts/gen-dynamic-types.mjs from the resource definitions of nsp ${version}; do not edit.`,
    `import * as pulumi from "@pulumi/pulumi";`,
    "",
  ];
  for (const [module, defs] of modules) {
    out.push(`export declare namespace ${module} {`);
    out.push(defs.map((d) => resourceText(d, "    ")).join("\n\n"));
    out.push("}", "");
  }
  out.push(
    "/** Every resource class, by module then name. */",
    `export declare const classes: { ${[...modules.keys()].map((m) => `${m}: typeof ${m}`).join("; ")} };`,
    "",
    "/** @internal What the serialized providers call; not a public API. */",
    "export declare const __nsp: unknown;",
    "",
  );
  return out.join("\n");
}
