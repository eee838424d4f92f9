// Turns the Pulumi YAML examples beside each definition (provider/src/modules/<module>/<name>.examples.yaml)
// into the same program in TypeScript, Python and Go, using schema.json's types to spell each
// value; gofmt lays out the Go. `pulumi convert --from yaml` (pulumi-converter-yaml of the
// pulumi-yaml version install-pulumi.sh pins) was run on all 95 examples and writes worse programs:
// 49 of its Go programs do not compile (an invoke without arguments gets `map[string]interface{}{}`;
// `ApplyT` closures return `string` as `*string` and assert `StringPtrOutput` where a
// `StringInput` is required, where an output's own accessors serve:
// `authDns.Services().Index(pulumi.Int(0)).Id()`), its TypeScript reads list elements through
// `.apply(x => x.a?.[0]?.b)`, and its Python passes `opts = ...` with spaces. This covers the small
// subset of Pulumi YAML the examples use, and refuses anything else by name:
//
//   variables:  <name>: { fn::invoke: { function: nsp:<module>:<fn>, arguments: {...}, options: { provider: ${p}, dependsOn: [${a}] } } }
//   resources:  <name>: { type: nsp:<module>:<Type> | pulumi:providers:nsp, properties: {...},
//                         options: { dependsOn: [${a}], provider: ${p} } }
//   outputs:    <name>: <value>
//   values:     literals, lists, maps, "${res.id}", "${res.prop.sub[0]}", "${fnResult.list[0].field}",
//               and strings with interpolations ("voicemail:${ext.id}").
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dump, load } from "js-yaml";

// biome-ignore lint/suspicious/noExplicitAny: examples are read from YAML as free JSON and walked by key.
type Json = Record<string, any>;

export interface ExampleSource {
  title: string;
  description?: string;
  program: Program;
}

interface Program {
  variables?: Record<string, { "fn::invoke": { function: string; arguments?: Json; options?: Json } }>;
  resources: Record<string, { type: string; properties?: Json; options?: Json }>;
  outputs?: Record<string, unknown>;
}

export interface RenderedExample {
  title: string;
  description?: string;
  yaml: string;
  typescript: string;
  python: string;
  go: string;
}

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;

const PROVIDER_TYPE = "pulumi:providers:nsp";
const GO_MODULE = "github.com/nsp-platform/pulumi-nsp/sdk/go/nsp";

/** Reads one `<name>.examples.yaml`: a list of examples. */
export function parseExampleSources(text: string, file: string): ExampleSource[] {
  const parsed = load(text) as unknown;
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`${file}: must be a list of examples`);
  for (const [i, e] of parsed.entries()) {
    if (typeof e?.title !== "string" || typeof e?.program?.resources !== "object")
      throw new Error(`${file}: example ${i + 1} needs a title and program.resources`);
    const unknown = Object.keys(e.program).filter((k) => !["variables", "resources", "outputs"].includes(k));
    if (unknown.length)
      throw new Error(`${file}: example ${i + 1}: program.${unknown[0]} is outside the subset the generator handles`);
  }
  return parsed as ExampleSource[];
}

// --- values ------------------------------------------------------------------------------------

type Step = { prop: string } | { index: number } | { key: string };
type Value =
  | { kind: "literal"; value: string | number | boolean | null }
  | { kind: "list"; items: Value[] }
  | { kind: "object"; entries: [string, Value][] }
  | { kind: "ref"; root: string; steps: Step[] }
  | { kind: "interp"; parts: (string | Value)[] };

const REF = /\$\{([^}]+)\}/g;

function parseRef(text: string, where: string): Value {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\["[^"]+"\])*)$/.exec(text.trim());
  if (!m) throw new Error(`${where}: \${${text}} is not a reference the generator handles`);
  const steps: Step[] = [];
  for (const s of m[2]!.match(/\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\["[^"]+"\]/g) ?? []) {
    if (s.startsWith(".")) steps.push({ prop: s.slice(1) });
    else if (s.startsWith('["')) steps.push({ key: s.slice(2, -2) });
    else steps.push({ index: Number(s.slice(1, -1)) });
  }
  return { kind: "ref", root: m[1]!, steps };
}

function parseValue(v: unknown, where: string): Value {
  if (Array.isArray(v)) return { kind: "list", items: v.map((x, i) => parseValue(x, `${where}[${i}]`)) };
  if (v !== null && typeof v === "object") {
    if (Object.keys(v).some((k) => k.startsWith("fn::")))
      throw new Error(`${where}: ${Object.keys(v)[0]} is outside the subset the generator handles`);
    return { kind: "object", entries: Object.entries(v).map(([k, x]) => [k, parseValue(x, `${where}.${k}`)]) };
  }
  if (typeof v === "string" && v.includes("${")) {
    const whole = /^\$\{([^}]+)\}$/.exec(v);
    if (whole) return parseRef(whole[1]!, where);
    const parts: (string | Value)[] = [];
    let last = 0;
    for (const m of v.matchAll(REF)) {
      if (m.index! > last) parts.push(v.slice(last, m.index));
      parts.push(parseRef(m[1]!, where));
      last = m.index! + m[0].length;
    }
    if (last < v.length) parts.push(v.slice(last));
    return { kind: "interp", parts };
  }
  if (v === undefined || typeof v === "function" || typeof v === "symbol" || typeof v === "bigint")
    throw new Error(`${where}: unsupported value`);
  return { kind: "literal", value: v as string | number | boolean | null };
}

// --- types from the schema -----------------------------------------------------------------------

type Spec = Json;
const ANY: Spec = { $ref: "pulumi.json#/Any" };
const STRING: Spec = { type: "string" };

interface Symbol {
  kind: "resource" | "invoke" | "provider";
  token: string;
  /** Output properties and which of them are always present. */
  properties: Json;
  required: string[];
}

class Types {
  constructor(private readonly schema: Json) {}

  resource(token: string): Json {
    if (token === PROVIDER_TYPE) return this.schema.provider;
    const r = this.schema.resources[token];
    if (!r) throw new Error(`unknown resource type ${token}`);
    return r;
  }

  hasResource(token: string): boolean {
    return token in this.schema.resources;
  }

  fn(token: string): Json {
    const f = this.schema.functions[token];
    if (!f) throw new Error(`unknown function ${token}`);
    return f;
  }

  object(spec: Spec): Json | undefined {
    if (typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/"))
      return this.schema.types[spec.$ref.slice("#/types/".length)];
    return undefined;
  }
}

const isAny = (spec: Spec) => spec.$ref === "pulumi.json#/Any";
const refToken = (spec: Spec): string | undefined =>
  typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/") ? spec.$ref.slice("#/types/".length) : undefined;

/** nsp:dns:Zone → { module: "dns", name: "Zone" }; the `index` module is the package's root. */
function tokenParts(token: string): { module: string; name: string } {
  const [, module, name] = token.split(":");
  return { module: module!, name: name! };
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Python's spelling of a schema name, as Pulumi's Python code generator makes it. */
export function pythonName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
  // A keyword gets a trailing underscore (`from` is `from_`).
  return PY_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

const PY_KEYWORDS = new Set(
  (
    "and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/** Go's spelling of a schema property name, as Pulumi's Go code generator makes it. */
export function goName(name: string): string {
  return pascal(name);
}

const TS_RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try typeof " +
    "var void while with as implements interface let package private protected public static yield pulumi " +
    "nsp"
  ).split(" "),
);
const PY_RESERVED = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for " +
    "from global if import in is lambda nonlocal not or pass raise return try while with yield pulumi nsp"
  ).split(" "),
);
const GO_RESERVED = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import interface " +
    "map package range return select struct switch type var ctx err pulumi nsp"
  ).split(" "),
);

// --- the renderer ------------------------------------------------------------------------------

interface Resolved {
  /** What the reference's value is, in the schema's terms. */
  spec: Spec;
  ts: string;
  py: string;
  go: string;
  /** Go: the expression is a pointer output (an optional value), which `.Elem()` dereferences. */
  goPtr: boolean;
  /** Go: the expression is a resource's IDOutput. */
  goId: boolean;
}

class Renderer {
  private readonly symbols = new Map<string, Symbol>();
  private readonly used = new Set<string>();
  private readonly goImports = new Set<string>();

  constructor(
    private readonly types: Types,
    private readonly program: Program,
    private readonly where: string,
  ) {
    for (const [name, v] of Object.entries(program.variables ?? {})) {
      const invoke = v?.["fn::invoke"];
      if (!invoke || Object.keys(v).length !== 1) throw new Error(`${where}: variable ${name} must be one fn::invoke`);
      const f = types.fn(invoke.function);
      this.declare(name, {
        kind: "invoke",
        token: invoke.function,
        properties: f.outputs.properties,
        required: f.outputs.required ?? [],
      });
    }
    for (const [name, r] of Object.entries(program.resources)) {
      const spec = types.resource(r.type);
      this.declare(name, {
        kind: r.type === PROVIDER_TYPE ? "provider" : "resource",
        token: r.type,
        properties: spec.properties ?? {},
        required: spec.required ?? [],
      });
    }
    // Which names the program refers to: Go must not declare a variable it never reads.
    const walk = (v: Value) => {
      if (v.kind === "ref") this.used.add(v.root);
      else if (v.kind === "list") v.items.forEach(walk);
      else if (v.kind === "object") for (const [, x] of v.entries) walk(x);
      else if (v.kind === "interp") for (const p of v.parts) if (typeof p !== "string") walk(p);
    };
    for (const v of Object.values(program.variables ?? {})) walk(parseValue(v["fn::invoke"], where));
    for (const r of Object.values(program.resources)) walk(parseValue([r.properties ?? {}, r.options ?? {}], where));
    walk(parseValue(program.outputs ?? {}, where));
  }

  private declare(name: string, symbol: Symbol) {
    if (this.symbols.has(name)) throw new Error(`${this.where}: ${name} is declared twice`);
    if (
      TS_RESERVED.has(name) ||
      PY_RESERVED.has(pythonName(name)) ||
      GO_RESERVED.has(name) ||
      /^(cdn|compute|dns|index|ix|link|mail|meet|org|pages|partner|registry|rpki|rtc|security|services|sgate|storage|stream|talk|verify|vgate|vod|voice|config)$/.test(
        name,
      )
    ) {
      throw new Error(
        `${this.where}: ${name} is a reserved word or a module name in one of the languages; choose another name`,
      );
    }
    this.symbols.set(name, symbol);
  }

  // References ---------------------------------------------------------------------------------

  private resolve(v: Extract<Value, { kind: "ref" }>): Resolved {
    const symbol = this.symbols.get(v.root);
    if (!symbol) throw new Error(`${this.where}: \${${v.root}} refers to nothing the program declares`);
    let ts = v.root;
    let py = pythonName(v.root);
    let go = v.root;
    let goPtr = false;
    let goId = false;
    let spec: Spec | undefined;
    let objectProps: Json | undefined = symbol.properties;
    let objectRequired: string[] = symbol.required;
    const steps = [...v.steps];
    if (
      symbol.kind !== "invoke" &&
      steps[0] &&
      "prop" in steps[0] &&
      (steps[0].prop === "id" || steps[0].prop === "urn")
    ) {
      const p = steps.shift() as { prop: string };
      ts += `.${p.prop}`;
      py += `.${p.prop}`;
      go += p.prop === "id" ? ".ID()" : ".URN()";
      goId = p.prop === "id";
      spec = STRING;
      if (steps.length) throw new Error(`${this.where}: nothing follows .${p.prop}`);
    }
    let top = true;
    for (const step of steps) {
      if ("prop" in step) {
        const prop = objectProps?.[step.prop];
        if (!prop) throw new Error(`${this.where}: ${v.root} has no property ${step.prop} here`);
        const optional = !objectRequired.includes(step.prop);
        ts += `.${step.prop}`;
        py += `.${pythonName(step.prop)}`;
        // A resource's own outputs are struct fields; everything else is a method of an output.
        go += top && symbol.kind !== "invoke" ? `.${goName(step.prop)}` : `.${goName(step.prop)}()`;
        const scalarOrObject =
          !prop.type || (prop.type !== "array" && !(prop.type === "object" && prop.additionalProperties));
        if (optional && scalarOrObject && !isAny(prop)) goPtr = true;
        spec = prop;
      } else if ("index" in step) {
        if (spec?.type !== "array") throw new Error(`${this.where}: [${step.index}] needs a list`);
        ts += `[${step.index}]`;
        py += `[${step.index}]`;
        go += `.Index(pulumi.Int(${step.index}))`;
        spec = spec.items;
        goPtr = false;
      } else {
        if (!(spec?.type === "object" && spec.additionalProperties))
          throw new Error(`${this.where}: ["${step.key}"] needs a map`);
        ts += `[${JSON.stringify(step.key)}]`;
        py += `[${JSON.stringify(step.key)}]`;
        go += `.MapIndex(pulumi.String(${JSON.stringify(step.key)}))`;
        spec = spec.additionalProperties;
        goPtr = false;
      }
      const obj = this.types.object(spec!);
      objectProps = obj?.properties;
      objectRequired = obj?.required ?? [];
      top = false;
    }
    if (!spec) throw new Error(`${this.where}: \${${v.root}} needs a property (such as .id)`);
    return { spec, ts, py, go, goPtr, goId };
  }

  // TypeScript ---------------------------------------------------------------------------------

  private ts(v: Value, spec: Spec, indent: string): string {
    const inner = `${indent}    `;
    switch (v.kind) {
      case "literal":
        return JSON.stringify(v.value);
      case "ref":
        return this.resolve(v).ts;
      case "interp":
        return `pulumi.interpolate\`${v.parts.map((p) => (typeof p === "string" ? p.replace(/[`\\]|\$\{/g, (c) => `\\${c}`) : `\${${this.resolve(p as Extract<Value, { kind: "ref" }>).ts}}`)).join("")}\``;
      case "list":
        if (v.items.length === 0) return "[]";
        return `[\n${v.items.map((x) => `${inner}${this.ts(x, spec.items ?? ANY, inner)},`).join("\n")}\n${indent}]`;
      case "object": {
        const obj = this.types.object(spec);
        if (v.entries.length === 0) return "{}";
        const lines = v.entries.map(([k, x]) => {
          const propSpec = obj ? this.propOf(obj, k) : (spec.additionalProperties ?? ANY);
          const key = obj || /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k);
          return `${inner}${key}: ${this.ts(x, propSpec, inner)},`;
        });
        return `{\n${lines.join("\n")}\n${indent}}`;
      }
    }
  }

  // Python ---------------------------------------------------------------------------------------

  private py(v: Value, spec: Spec, indent: string): string {
    const inner = `${indent}    `;
    switch (v.kind) {
      case "literal":
        return v.value === null
          ? "None"
          : typeof v.value === "boolean"
            ? v.value
              ? "True"
              : "False"
            : JSON.stringify(v.value);
      case "ref":
        return this.resolve(v).py;
      case "interp":
        return `pulumi.Output.concat(${v.parts.map((p) => (typeof p === "string" ? JSON.stringify(p) : this.resolve(p as Extract<Value, { kind: "ref" }>).py)).join(", ")})`;
      case "list":
        if (v.items.length === 0) return "[]";
        return `[\n${v.items.map((x) => `${inner}${this.py(x, spec.items ?? ANY, inner)},`).join("\n")}\n${indent}]`;
      case "object": {
        const obj = this.types.object(spec);
        if (obj) {
          const { module, name } = tokenParts(refToken(spec)!);
          const cls = `${module === "index" ? "nsp" : `nsp.${module}`}.${name}Args`;
          if (v.entries.length === 0) return `${cls}()`;
          return `${cls}(\n${v.entries.map(([k, x]) => `${inner}${pythonName(k)}=${this.py(x, this.propOf(obj, k), inner)},`).join("\n")}\n${indent})`;
        }
        if (v.entries.length === 0) return "{}";
        return `{\n${v.entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${this.py(x, spec.additionalProperties ?? ANY, inner)},`).join("\n")}\n${indent}}`;
      }
    }
  }

  // Go -----------------------------------------------------------------------------------------

  private goPackage(token: string): string {
    const { module } = tokenParts(token);
    if (module === "index" || token === PROVIDER_TYPE) {
      this.goImports.add(GO_MODULE);
      return "nsp";
    }
    this.goImports.add(`${GO_MODULE}/${module}`);
    return module;
  }

  /** The name of a Go input type of the pulumi package for a type without a schema token: String, IntArray, StringMap, Map, ... */
  private goBuiltin(spec: Spec): string {
    if (isAny(spec)) return "";
    if (spec.type === "array") return `${this.goBuiltin(spec.items ?? ANY)}Array`;
    if (spec.type === "object") return `${this.goBuiltin(spec.additionalProperties ?? ANY)}Map`;
    return this.goScalar(spec);
  }

  private goScalar(spec: Spec): string {
    switch (spec.type) {
      case "integer":
        return "Int";
      case "number":
        return "Float64";
      case "boolean":
        return "Bool";
      default:
        return "String";
    }
  }

  /** The Go input of a value, for a property of the given type (`required`: not a pointer input). */
  private go(v: Value, spec: Spec, indent: string, required: boolean): string {
    const inner = `${indent}\t`;
    if (v.kind === "ref") {
      const r = this.resolve(v);
      if (r.goPtr) return `${r.go}.Elem()`;
      // An IDOutput is a StringInput, but only a StringOutput is also a StringPtrInput.
      if (r.goId && !required && !isAny(spec)) return `${r.go}.ToStringOutput()`;
      return r.go;
    }
    if (v.kind === "interp") {
      const format = v.parts.map((p) => (typeof p === "string" ? p.replace(/%/g, "%%") : "%v")).join("");
      const args = v.parts
        .filter((p): p is Value => typeof p !== "string")
        .map((p) => {
          const r = this.resolve(p as Extract<Value, { kind: "ref" }>);
          return r.goPtr ? `${r.go}.Elem()` : r.go;
        });
      return `pulumi.Sprintf(${JSON.stringify(format)}, ${args.join(", ")})`;
    }
    if (isAny(spec)) {
      if (v.kind === "literal") {
        if (v.value === null) return "nil";
        if (typeof v.value === "number")
          return Number.isInteger(v.value) ? `pulumi.Int(${v.value})` : `pulumi.Float64(${v.value})`;
        return `pulumi.${typeof v.value === "boolean" ? "Bool" : "String"}(${JSON.stringify(v.value)})`;
      }
      if (v.kind === "list")
        return `pulumi.Array{\n${v.items.map((x) => `${inner}${this.go(x, ANY, inner, true)},`).join("\n")}\n${indent}}`;
      return `pulumi.Map{\n${v.entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${this.go(x, ANY, inner, true)},`).join("\n")}\n${indent}}`;
    }
    if (v.kind === "literal") {
      if (v.value === null) return "nil";
      const value = spec.type === "string" ? JSON.stringify(String(v.value)) : String(v.value);
      return `pulumi.${this.goScalar(spec)}(${value})`;
    }
    if (v.kind === "list") {
      const items = spec.items ?? ANY;
      const element = refToken(items);
      const arrayType = element
        ? `${this.goPackage(element)}.${tokenParts(element).name}Array`
        : `pulumi.${this.goBuiltin(items)}Array`;
      if (v.items.length === 0) return `${arrayType}{}`;
      return `${arrayType}{\n${v.items.map((x) => `${inner}${this.go(x, items, inner, true)},`).join("\n")}\n${indent}}`;
    }
    const token = refToken(spec);
    if (token) {
      const obj = this.types.object(spec)!;
      const args = `&${this.goPackage(token)}.${tokenParts(token).name}Args`;
      return `${args}{\n${v.entries.map(([k, x]) => `${inner}${goName(k)}: ${this.go(x, this.propOf(obj, k), inner, (obj.required ?? []).includes(k))},`).join("\n")}\n${indent}}`;
    }
    const values = spec.additionalProperties ?? ANY;
    const mapType = `pulumi.${this.goBuiltin(values)}Map`;
    return `${mapType}{\n${v.entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${this.go(x, values, inner, true)},`).join("\n")}\n${indent}}`;
  }

  private propOf(obj: Json, key: string): Spec {
    const p = obj.properties?.[key];
    if (!p)
      throw new Error(
        `${this.where}: ${key} is not a property of this object (it has ${Object.keys(obj.properties ?? {}).join(", ")})`,
      );
    return p;
  }

  // Programs -----------------------------------------------------------------------------------

  private optionsOf(name: string, options: Json | undefined) {
    const allowed = ["dependsOn", "provider"];
    for (const k of Object.keys(options ?? {}))
      if (!allowed.includes(k))
        throw new Error(`${this.where}: ${name}: option ${k} is outside the subset the generator handles`);
    const refName = (s: unknown) => {
      const v = parseValue(s, name);
      if (v.kind !== "ref" || v.steps.length)
        throw new Error(`${this.where}: ${name}: options refer to a resource as \${name}`);
      if (!this.symbols.has(v.root))
        throw new Error(`${this.where}: ${name}: \${${v.root}} refers to nothing the program declares`);
      return v.root;
    };
    return {
      provider: options?.provider !== undefined ? refName(options.provider) : undefined,
      dependsOn: ((options?.dependsOn as unknown[] | undefined) ?? []).map(refName),
    };
  }

  render(): { typescript: string; python: string; go: string } {
    const ts: string[] = ['import * as pulumi from "@pulumi/pulumi";', 'import * as nsp from "@nsp/pulumi";', ""];
    const py: string[] = ["import pulumi", "import pulumi_nsp as nsp", ""];
    const go: string[] = [];
    let errDeclared = false;

    const emitVariable = (name: string) => {
      const invoke = this.program.variables![name]!["fn::invoke"];
      const f = this.types.fn(invoke.function);
      const args = parseValue(invoke.arguments ?? {}, `${name}.arguments`) as Extract<Value, { kind: "object" }>;
      const inputs = { properties: f.inputs?.properties ?? {}, required: f.inputs?.required ?? [] };
      for (const [k] of args.entries) this.propOf(inputs, k);
      const { provider, dependsOn } = this.optionsOf(name, invoke.options);
      const { module, name: fnName } = tokenParts(invoke.function);
      const tsFn = `${module === "index" ? "nsp" : `nsp.${module}`}.${fnName}Output`;
      const tsOpts = [
        provider ? `provider: ${provider}` : "",
        dependsOn.length ? `dependsOn: [${dependsOn.join(", ")}]` : "",
      ].filter(Boolean);
      // A function without arguments takes its options first.
      const tsArgs = args.entries.length ? this.objectLiteralTs(args, inputs) : tsOpts.length && f.inputs ? "{}" : "";
      ts.push(
        `const ${name} = ${tsFn}(${[tsArgs, tsOpts.length ? `{ ${tsOpts.join(", ")} }` : ""].filter(Boolean).join(", ")});`,
      );
      const pyArgs = args.entries.map(([k, x]) => `${pythonName(k)}=${this.py(x, this.propOf(inputs, k), "")}`);
      const pyOpts = [
        provider ? `provider=${pythonName(provider)}` : "",
        dependsOn.length ? `depends_on=[${dependsOn.map(pythonName).join(", ")}]` : "",
      ].filter(Boolean);
      if (pyOpts.length) pyArgs.push(`opts=pulumi.InvokeOutputOptions(${pyOpts.join(", ")})`);
      py.push(
        `${pythonName(name)} = ${module === "index" ? "nsp" : `nsp.${module}`}.${pythonName(fnName)}_output(${pyArgs.join(", ")})`,
      );
      const pkg = this.goPackage(invoke.function);
      // Pulumi's Go generator names getX LookupX when the module has a resource X.
      const goFn =
        /^get[A-Z]/.test(fnName) && this.types.hasResource(`nsp:${module}:${fnName.slice(3)}`)
          ? `Lookup${fnName.slice(3)}`
          : pascal(fnName);
      const goArgs = [
        "ctx",
        ...(f.inputs
          ? [
              `${pkg}.${goFn}OutputArgs{${args.entries.length ? `\n${args.entries.map(([k, x]) => `\t\t\t${goName(k)}: ${this.go(x, this.propOf(inputs, k), "\t\t\t", inputs.required.includes(k))},`).join("\n")}\n\t\t` : ""}}`,
            ]
          : []),
        ...(provider ? [`pulumi.Provider(${provider})`] : []),
        ...(dependsOn.length ? [`pulumi.DependsOn([]pulumi.Resource{${dependsOn.join(", ")}})`] : []),
      ];
      go.push(`\t\t${this.used.has(name) ? `${name} :=` : "_ ="} ${pkg}.${goFn}Output(${goArgs.join(", ")})`);
    };

    const emitResource = (name: string) => {
      const r = this.program.resources[name]!;
      const spec = this.types.resource(r.type);
      const props = parseValue(r.properties ?? {}, `${name}.properties`) as Extract<Value, { kind: "object" }>;
      const inputs = { properties: spec.inputProperties ?? {}, required: spec.requiredInputs ?? [] };
      for (const k of inputs.required)
        if (!props.entries.some(([p]) => p === k)) throw new Error(`${this.where}: ${name} lacks the required ${k}`);
      const { provider, dependsOn } = this.optionsOf(name, r.options);
      const isProvider = r.type === PROVIDER_TYPE;
      const { module, name: typeName } = isProvider ? { module: "index", name: "Provider" } : tokenParts(r.type);

      const tsOpts = [
        provider ? `provider: ${provider}` : "",
        dependsOn.length ? `dependsOn: [${dependsOn.join(", ")}]` : "",
      ].filter(Boolean);
      ts.push(
        `const ${name} = new ${module === "index" ? "nsp" : `nsp.${module}`}.${typeName}(${JSON.stringify(name)}, ` +
          `${props.entries.length ? this.objectLiteralTs(props, inputs) : "{}"}${tsOpts.length ? `, { ${tsOpts.join(", ")} }` : ""});`,
      );

      const pyArgs = props.entries.map(
        ([k, x]) => `    ${pythonName(k)}=${this.py(x, this.propOf(inputs, k), "    ")},`,
      );
      const pyOpts = [
        provider ? `provider=${pythonName(provider)}` : "",
        dependsOn.length ? `depends_on=[${dependsOn.map(pythonName).join(", ")}]` : "",
      ].filter(Boolean);
      if (pyOpts.length) pyArgs.push(`    opts=pulumi.ResourceOptions(${pyOpts.join(", ")}),`);
      py.push(
        `${pythonName(name)} = ${module === "index" ? "nsp" : `nsp.${module}`}.${typeName}(${JSON.stringify(name)}${pyArgs.length ? `,\n${pyArgs.join("\n")}\n` : ""})`,
      );

      const pkg = this.goPackage(isProvider ? PROVIDER_TYPE : r.type);
      const goFields = props.entries.map(
        ([k, x]) => `\t\t\t${goName(k)}: ${this.go(x, this.propOf(inputs, k), "\t\t\t", inputs.required.includes(k))},`,
      );
      const goOpts = [
        provider ? `pulumi.Provider(${provider})` : "",
        dependsOn.length ? `pulumi.DependsOn([]pulumi.Resource{${dependsOn.join(", ")}})` : "",
      ].filter(Boolean);
      const target = this.used.has(name) ? `${name}, err :=` : errDeclared ? "_, err =" : "_, err :=";
      errDeclared = true;
      go.push(
        `\t\t${target} ${pkg}.New${typeName}(ctx, ${JSON.stringify(name)}, &${pkg}.${typeName}Args{${goFields.length ? `\n${goFields.join("\n")}\n\t\t` : ""}}${goOpts.map((o) => `, ${o}`).join("")})`,
      );
      go.push("\t\tif err != nil {", "\t\t\treturn err", "\t\t}");
    };

    // Each declaration after those it refers to (a lookup may need a resource the program makes).
    for (const name of this.declarationOrder()) {
      if (this.program.variables?.[name]) emitVariable(name);
      else emitResource(name);
    }

    for (const [name, value] of Object.entries(this.program.outputs ?? {})) {
      const v = parseValue(value, `outputs.${name}`);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || TS_RESERVED.has(name))
        throw new Error(`${this.where}: output ${name} needs a plain identifier`);
      // TypeScript exports outputs as constants beside the program's own.
      if (this.symbols.has(name))
        throw new Error(`${this.where}: output ${name} has the name of a variable or resource; choose another`);
      ts.push(`export const ${name} = ${this.ts(v, ANY, "")};`);
      py.push(`pulumi.export(${JSON.stringify(name)}, ${this.py(v, ANY, "")})`);
      go.push(`\t\tctx.Export(${JSON.stringify(name)}, ${this.go(v, ANY, "\t\t", true)})`);
    }

    const imports = [...this.goImports].sort().map((i) => `\t"${i}"`);
    const goProgram = [
      "package main",
      "",
      "import (",
      ...imports,
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      ...go,
      "\t\treturn nil",
      "\t})",
      "}",
      "",
    ];
    return { typescript: `${ts.join("\n")}\n`, python: `${py.join("\n")}\n`, go: goProgram.join("\n") };
  }

  private declarationOrder(): string[] {
    const roots = (v: Value, out: Set<string>) => {
      if (v.kind === "ref") out.add(v.root);
      else if (v.kind === "list") for (const x of v.items) roots(x, out);
      else if (v.kind === "object") for (const [, x] of v.entries) roots(x, out);
      else if (v.kind === "interp") for (const p of v.parts) if (typeof p !== "string") roots(p, out);
      return out;
    };
    const pending = new Map<string, Set<string>>();
    for (const [name, v] of Object.entries(this.program.variables ?? {}))
      pending.set(name, roots(parseValue(v["fn::invoke"], name), new Set()));
    for (const [name, r] of Object.entries(this.program.resources))
      pending.set(name, roots(parseValue([r.properties ?? {}, r.options ?? {}], name), new Set()));
    const order: string[] = [];
    while (pending.size) {
      const next = [...pending].find(([, deps]) => [...deps].every((d) => !pending.has(d)));
      if (!next) throw new Error(`${this.where}: ${[...pending.keys()].join(", ")} refer to each other in a cycle`);
      order.push(next[0]);
      pending.delete(next[0]);
    }
    return order;
  }

  private objectLiteralTs(v: Extract<Value, { kind: "object" }>, inputs: Json): string {
    const lines = v.entries.map(([k, x]) => `    ${k}: ${this.ts(x, this.propOf(inputs, k), "    ")},`);
    return `{\n${lines.join("\n")}\n}`;
  }
}

/**
 * The Go programs as gofmt lays them out (aligned fields, as `go fmt` would leave a user's copy):
 * one gofmt run over all of them, since starting a process per program costs more than the work.
 */
function gofmtAll(programs: { where: string; source: string }[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "nsp-gofmt-"));
  try {
    const files = programs.map((_, i) => join(dir, `example${i}.go`));
    programs.forEach((p, i) => {
      writeFileSync(files[i]!, p.source);
    });
    const run = spawnSync("gofmt", ["-w", dir], { encoding: "utf8" });
    if (run.error) throw new Error(`gofmt (part of Go) is needed to write the Go examples: ${run.error.message}`);
    if (run.status !== 0) {
      const named = run.stderr.replace(/\S*example(\d+)\.go/g, (_, i: string) => programs[Number(i)]!.where);
      throw new Error(`gofmt refused a Go program: ${named}`);
    }
    return files.map((f) => readFileSync(f, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Pulumi.yaml of an example, as a user would save it. */
function yamlProgram(projectName: string, program: Program): string {
  return `name: ${projectName}\nruntime: yaml\n${dump(program, { lineWidth: -1, noRefs: true, quotingType: '"' })}`;
}

/** The project name of a token's n-th example: nsp:dns:Zone → dns-zone, dns-zone-2, ... */
export function exampleProjectName(token: string, n: number): string {
  const { module, name } = tokenParts(token);
  return `${module}-${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}${n > 0 ? `-${n + 1}` : ""}`;
}

/** Renders every example of one token in the four languages. */
export function renderExamples(schema: Json, token: string, sources: ExampleSource[]): RenderedExample[] {
  return renderAllExamples(schema, { [token]: sources })[token]!;
}

/** Renders the examples of many tokens (token → its sources) in the four languages. */
export function renderAllExamples(
  schema: Json,
  sourcesByToken: Readonly<Record<string, ExampleSource[]>>,
): Record<string, RenderedExample[]> {
  const types = new Types(schema);
  const rendered = Object.entries(sourcesByToken).map(([token, sources]) =>
    sources.map((source, i) => {
      const where = `${token} example "${source.title}"`;
      return {
        where,
        example: {
          title: source.title,
          ...(source.description ? { description: source.description.trim() } : {}),
          yaml: yamlProgram(exampleProjectName(token, i), source.program),
          ...new Renderer(types, source.program, where).render(),
        } as RenderedExample,
      };
    }),
  );
  const all = rendered.flat();
  gofmtAll(all.map(({ where, example }) => ({ where, source: example.go }))).forEach((go, i) => {
    all[i]!.example.go = go;
  });
  return Object.fromEntries(Object.keys(sourcesByToken).map((token, i) => [token, rendered[i]!.map((r) => r.example)]));
}

/** The definition file a token's examples sit beside: nsp:dns:ZoneDnssec → dns/zone-dnssec.examples.yaml. */
export function exampleSourcePath(token: string): string {
  const { module, name } = tokenParts(token);
  return `provider/src/modules/${module}/${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.examples.yaml`;
}

/** Pulumi's examples section of a schema description: one fenced block per language. */
export function examplesMarkdown(examples: readonly RenderedExample[]): string {
  if (examples.length === 0) return "";
  const blocks = examples.map((e) =>
    [
      "{{% example %}}",
      `### ${e.title}`,
      "",
      ...(e.description ? [e.description, ""] : []),
      ...LANGUAGES.flatMap((lang) => [`\`\`\`${lang}`, e[lang].trimEnd(), "```"]),
      "{{% /example %}}",
    ].join("\n"),
  );
  return ["{{% examples %}}", "## Example Usage", "", blocks.join("\n\n"), "{{% /examples %}}"].join("\n");
}
