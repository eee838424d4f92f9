import type { z } from "zod";
import type { AnyFunction, AnyResource } from "../definition";
import { listInputsOf } from "../api/list-facts";
import { defOf, isIntegerSchema, metaOf, shapeOf, unwrap } from "../definition/zod-walk";
import { deletingDoc } from "./held-objects";

// biome-ignore lint/suspicious/noExplicitAny: schema.json is built as free JSON; the metaschema test checks its shape.
type Json = Record<string, any>;

export interface PackageInfo {
  name: string;
  displayName: string;
  version: string;
  description: string;
  homepage: string;
  repository: string;
  publisher: string;
  license: string;
  /** Where the engine downloads the plugin from (a `github://` or `https://` URL). */
  pluginDownloadURL?: string;
  keywords: string[];
  language: Json;
  /** Provider configuration; `.meta({ env: [...] })` on a property becomes its env fallback. */
  config: z.ZodObject;
  configSecrets: readonly string[];
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function moduleOf(token: string): string {
  const [, mod] = token.split(":");
  return mod ?? "index";
}

class SchemaBuilder {
  readonly types: Record<string, Json> = {};

  constructor(private readonly pkg: string) {}

  property(schema: z.ZodType, typeHint: { module: string; name: string }, secret = false): Json {
    const meta = metaOf(schema);
    const spec = this.typeSpec(schema, typeHint);
    const { hasDefault, defaultValue } = unwrap(schema);
    let description = meta.description ?? "";
    if (hasDefault && defaultValue !== undefined)
      description += `${description ? " " : ""}Default: \`${JSON.stringify(defaultValue)}\`.`;
    if (description) spec.description = description;
    if (secret) spec.secret = true;
    return spec;
  }

  typeSpec(schema: z.ZodType, hint: { module: string; name: string }): Json {
    const { base } = unwrap(schema);
    const d = defOf(base);
    switch (d.type) {
      case "string":
        return { type: "string" };
      case "number":
        return { type: isIntegerSchema(base) ? "integer" : "number" };
      case "boolean":
        return { type: "boolean" };
      case "enum": {
        const values = Object.values(d.entries ?? {});
        return { type: typeof values[0] === "number" ? "integer" : "string" };
      }
      case "literal":
        return {
          type:
            typeof d.values?.[0] === "number" ? "number" : typeof d.values?.[0] === "boolean" ? "boolean" : "string",
        };
      case "array":
        return { type: "array", items: this.typeSpec(d.element as z.ZodType, hint) };
      case "record":
        return { type: "object", additionalProperties: this.typeSpec(d.valueType as z.ZodType, hint) };
      case "object": {
        const name = metaOf(schema).typeName ?? hint.name;
        const token = `${this.pkg}:${hint.module}:${name}`;
        if (!this.types[token]) {
          this.types[token] = {}; // reserve first: a type may refer to itself
          const shape = shapeOf(base) ?? {};
          const properties: Json = {};
          const required: string[] = [];
          for (const [key, field] of Object.entries(shape)) {
            properties[key] = this.property(field, { module: hint.module, name: name + pascal(key) });
            const u = unwrap(field);
            if (!u.optional && !u.hasDefault) required.push(key);
          }
          this.types[token] = { type: "object", properties, ...(required.length ? { required } : {}) };
          const description = metaOf(schema).description;
          if (description) this.types[token].description = description;
        }
        return { $ref: `#/types/${token}` };
      }
      default:
        return { $ref: "pulumi.json#/Any" };
    }
  }
}

function enumNote(schema: z.ZodType): string {
  const d = defOf(unwrap(schema).base);
  if (d.type !== "enum") return "";
  return ` One of: ${Object.values(d.entries ?? {})
    .map((v) => `\`${String(v)}\``)
    .join(", ")}.`;
}

function objectProperties(
  builder: SchemaBuilder,
  shape: Record<string, z.ZodType>,
  module: string,
  owner: string,
  secrets: Set<string>,
  replaces: Set<string> = new Set(),
) {
  const properties: Json = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const spec = builder.property(field, { module, name: owner + pascal(key) }, secrets.has(key));
    const note = enumNote(field);
    if (note) spec.description = `${spec.description ?? ""}${note}`.trim();
    if (replaces.has(key)) spec.replaceOnChanges = true;
    properties[key] = spec;
    const u = unwrap(field);
    if (!u.optional && !u.hasDefault) required.push(key);
  }
  return { properties, required };
}

/** What `pulumi do <kind> list` takes: the parent's id and the filters (list-facts.ts). */
function listInputsSpec(builder: SchemaBuilder, def: AnyResource, module: string, owner: string): Json {
  const { shape, required } = listInputsOf(def);
  const { properties } = objectProperties(builder, shape, module, owner, new Set());
  // A kind listed with no inputs declares an empty object: the CLI drops empty `properties` when it
  // writes a schema back, and the plugin must serve exactly what schema.json holds.
  return {
    type: "object",
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(required.length ? { required } : {}),
  };
}

/**
 * Builds Pulumi's package schema (schema.json) from the resource and function definitions.
 * `examples` holds each token's "Example Usage" section (scripts/generate.mjs makes them).
 */
export function buildPackageSchema(
  info: PackageInfo,
  resources: readonly AnyResource[],
  functions: readonly AnyFunction[],
  examples: Readonly<Record<string, string>> = {},
): Json {
  const withExamples = (token: string, description: string) =>
    examples[token] ? `${description}\n\n${examples[token]}` : description;
  const builder = new SchemaBuilder(info.name);
  const configSecrets = new Set(info.configSecrets);
  const configShape = info.config.shape as Record<string, z.ZodType>;

  const variables: Json = {};
  for (const [key, field] of Object.entries(configShape)) {
    const spec = builder.property(field, { module: "config", name: pascal(key) }, configSecrets.has(key));
    const env = (field.meta() as { env?: string[] } | undefined)?.env ?? (metaOf(field) as { env?: string[] }).env;
    const u = unwrap(field);
    if (u.hasDefault && u.defaultValue !== undefined) spec.default = u.defaultValue;
    if (env) spec.defaultInfo = { environment: env };
    variables[key] = spec;
  }

  const resourceSpecs: Json = {};
  for (const def of resources) {
    const module = moduleOf(def.token);
    const owner = def.token.split(":")[2] ?? "";
    const secrets = new Set<string>(def.secrets ?? []);
    const replaces = new Set<string>(def.replaceOnChanges ?? []);
    const inputs = objectProperties(
      builder,
      def.args.shape as Record<string, z.ZodType>,
      module,
      owner,
      secrets,
      replaces,
    );
    const outputsOnly = objectProperties(builder, def.state.shape as Record<string, z.ZodType>, module, owner, secrets);
    // Every input is also an output; the provider fills defaults, so defaulted inputs are always
    // present, and so are those a create chooses when the program leaves them unset.
    const outputRequired = [
      ...Object.entries(def.args.shape as Record<string, z.ZodType>)
        .filter(([, f]) => {
          const u = unwrap(f);
          return (!u.optional || u.hasDefault || metaOf(f).keptWhenUnset === true) && u.defaultValue !== null;
        })
        .map(([k]) => k),
      ...outputsOnly.required,
    ];
    const writeOnly = new Set<string>(def.writeOnly ?? []);
    const outputProperties: Json = { ...inputs.properties, ...outputsOnly.properties };
    for (const key of Object.keys(outputProperties)) {
      const { replaceOnChanges: _omit, ...rest } = outputProperties[key];
      outputProperties[key] = rest;
    }
    // Empty lists are left out, as the CLI writes a schema back (`pulumi package get-schema`).
    const required = [...new Set(outputRequired)].filter((k) => !writeOnly.has(k)).sort();
    resourceSpecs[def.token] = {
      description: `${withExamples(def.token, def.holds ? `${def.description}\n\n${deletingDoc(def.holds)}` : def.description)}\n\n${importSection(def)}`,
      properties: outputProperties,
      ...(required.length ? { required } : {}),
      inputProperties: inputs.properties,
      ...(inputs.required.length ? { requiredInputs: inputs.required } : {}),
      ...(def.previousTokens?.length ? { aliases: def.previousTokens.map((type) => ({ type })) } : {}),
      ...(def.list ? { listInputs: listInputsSpec(builder, def, module, owner) } : {}),
    };
  }

  const functionSpecs: Json = {};
  for (const fn of functions) {
    const module = moduleOf(fn.token);
    const owner = pascal(fn.token.split(":")[2] ?? "");
    const args = objectProperties(
      builder,
      fn.args.shape as Record<string, z.ZodType>,
      module,
      `${owner}Args`,
      new Set(),
    );
    const result = objectProperties(
      builder,
      fn.result.shape as Record<string, z.ZodType>,
      module,
      `${owner}Result`,
      new Set<string>(fn.secrets ?? []),
    );
    functionSpecs[fn.token] = {
      description: withExamples(fn.token, fn.description),
      // A function without arguments has no inputs object at all, as the CLI writes it back.
      ...(Object.keys(args.properties).length
        ? { inputs: { properties: args.properties, ...(args.required.length ? { required: args.required } : {}) } }
        : {}),
      outputs: { properties: result.properties, ...(result.required.length ? { required: result.required } : {}) },
    };
  }

  // The provider resource's outputs are its string settings, as other providers expose them.
  const providerOutputs: Json = {};
  for (const [key, spec] of Object.entries(variables)) {
    if ((spec as Json).type === "string") {
      const { default: _d, defaultInfo: _i, ...rest } = spec as Json;
      providerOutputs[key] = rest;
    }
  }

  return {
    name: info.name,
    displayName: info.displayName,
    version: info.version,
    description: info.description,
    keywords: info.keywords,
    homepage: info.homepage,
    repository: info.repository,
    publisher: info.publisher,
    license: info.license,
    ...(info.pluginDownloadURL ? { pluginDownloadURL: info.pluginDownloadURL } : {}),
    meta: { moduleFormat: "(.*)" },
    language: info.language,
    config: { variables },
    provider: {
      description:
        `The provider type for the ${info.name} package. Each explicit instance carries its own ` +
        `credentials, so one program can manage several accounts.`,
      properties: providerOutputs,
      inputProperties: variables,
    },
    resources: resourceSpecs,
    functions: functionSpecs,
    types: builder.types,
  };
}

/**
 * The Import section of a resource's docs: the id as `pulumi stack --show-ids` prints it, and the
 * command that adopts an object by it (and by the composite form, when the shown id is only the
 * object's own part of it).
 */
function importSection(def: {
  token: string;
  importId: string;
  shownId?: { form: string; importable: boolean };
}): string {
  const command = (id: string) => `pulumi import ${def.token} <name> '${id}'`;
  const block = (ids: string[]) => `\`\`\`sh\n${ids.map(command).join("\n")}\n\`\`\`\n`;
  if (!def.shownId)
    return `## Import\n\nBy the id \`pulumi stack --show-ids\` prints for it, \`${def.importId}\`:\n\n${block([def.importId])}`;
  const { form, importable } = def.shownId;
  return importable
    ? `## Import\n\n\`pulumi stack --show-ids\` prints the object's own id, \`${form}\`: import it as it ` +
        `is (the parent is found by listing), or as \`${def.importId}\`:\n\n${block([form, def.importId])}`
    : `## Import\n\n\`pulumi stack --show-ids\` prints the object's own id, \`${form}\`; import it with ` +
        `its parent's id before it, as \`${def.importId}\`:\n\n${block([def.importId])}`;
}
