// Writes what is derived from the resource definitions (the single source of truth):
// schema.json (with the examples beside each definition, in four languages: their only copy, which
// the build adds to the plugin's schema), docs/resources/*.md, docs/functions/*.md and the
// resource table in docs/_index.md.
// Usage: node scripts/generate.mjs [--check]   (--check fails when any of them is stale)
import { build } from "esbuild";
import { existsSync, readFileSync, writeFileSync, mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "nsp-gen-"));
const outfile = join(dir, "schema.cjs");
await build({
  stdin: {
    contents: `
      import { buildPackageSchema } from "./provider/src/framework/engine/schema";
      import { packageInfo } from "./provider/src/config/package-info";
      import { resources, functions } from "./provider/src/modules/all-definitions";
      import { notDiscovered } from "./provider/src/discover/not-discovered";
      export { exampleSourcePath, examplesMarkdown, goName, LANGUAGES, parseExampleSources, pythonName, renderAllExamples } from "./scripts/example-programs";
      export const baseSchema = buildPackageSchema(packageInfo, resources, functions);
      export const withExamples = (examples) => buildPackageSchema(packageInfo, resources, functions, examples);
      export const adoption = Object.fromEntries(
        resources.map((r) => [r.token, { oneTime: r.oneTime ?? [], writeOnly: r.writeOnly ?? [], notDiscovered: notDiscovered[r.token] }]),
      );`,
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  outfile,
  logLevel: "warning",
});
const {
  baseSchema,
  withExamples,
  adoption,
  exampleSourcePath,
  examplesMarkdown,
  goName,
  LANGUAGES,
  parseExampleSources,
  pythonName,
  renderAllExamples,
} = createRequire(import.meta.url)(outfile);
rmSync(dir, { recursive: true, force: true });

// Each token's examples, from the Pulumi YAML beside its definition, in the four languages.
const sources = {};
for (const token of [...Object.keys(baseSchema.resources), ...Object.keys(baseSchema.functions)]) {
  const source = join(root, exampleSourcePath(token));
  if (existsSync(source)) sources[token] = parseExampleSources(readFileSync(source, "utf8"), exampleSourcePath(token));
}
const rendered = renderAllExamples(baseSchema, sources);
const sections = Object.fromEntries(
  Object.entries(rendered).map(([token, examples]) => [token, examplesMarkdown(examples)]),
);
const schema = withExamples(sections);

function typeText(spec) {
  if (!spec) return "any";
  if (spec.$ref) {
    if (!spec.$ref.startsWith("#/types/")) return "any";
    const name = spec.$ref.slice("#/types/".length).split(":").pop();
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (spec.type === "array") return `${typeText(spec.items)}[]`;
  if (spec.type === "object" && spec.additionalProperties) return `map of ${typeText(spec.additionalProperties)}`;
  return spec.type;
}

const cell = (text) => (text ?? "").replace(/\n/g, " ").replace(/\|/g, "\\|");

/** One row per property, named as TypeScript and YAML, Python and Go spell it. */
function propertyTable(props, required = []) {
  const rows = Object.entries(props).map(([name, spec]) => {
    const notes = [
      required.includes(name) ? "required" : "",
      spec.replaceOnChanges ? "replaces" : "",
      spec.secret ? "secret" : "",
    ]
      .filter(Boolean)
      .join(", ");
    return `| \`${name}\` | \`${pythonName(name)}\` | \`${goName(name)}\` | ${typeText(spec)} | ${notes} | ${cell(spec.description)} |`;
  });
  return [
    "| property (TypeScript, YAML) | Python | Go | type | notes | description |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Every object type the properties use, nested ones included, each with its own table. */
function typesSection(...propertyLists) {
  const seen = new Set();
  const visit = (spec) => {
    if (!spec) return;
    if (spec.$ref?.startsWith("#/types/")) {
      const token = spec.$ref.slice("#/types/".length);
      if (seen.has(token)) return;
      seen.add(token);
      for (const p of Object.values(schema.types[token].properties ?? {})) visit(p);
    }
    visit(spec.items);
    visit(spec.additionalProperties);
  };
  for (const props of propertyLists) for (const p of Object.values(props ?? {})) visit(p);
  if (seen.size === 0) return [];
  const lines = ["## Types", ""];
  for (const token of seen) {
    const t = schema.types[token];
    lines.push(
      `### ${token.split(":").pop()}`,
      "",
      ...(t.description ? [t.description, ""] : []),
      propertyTable(t.properties ?? {}, t.required ?? []),
      "",
    );
  }
  return lines;
}

const LANGUAGE_TITLES = { typescript: "TypeScript", python: "Python", go: "Go", yaml: "YAML" };

/** The page's examples: the same programs as schema.json's, as plain Markdown. */
function examplesSection(token) {
  const examples = rendered[token] ?? [];
  if (examples.length === 0) return [];
  const lines = ["## Example Usage", ""];
  for (const e of examples) {
    lines.push(`### ${e.title}`, "", ...(e.description ? [e.description, ""] : []));
    for (const lang of LANGUAGES)
      lines.push(`**${LANGUAGE_TITLES[lang]}**`, "", `\`\`\`${lang}`, e[lang].trimEnd(), "```", "");
  }
  return lines;
}

/** A description without its schema-only examples section (the page renders its own). */
const withoutExamples = (description) => description.split("\n\n{{% examples %}}")[0];

function resourceDoc(token, spec) {
  const [, mod, name] = token.split(":");
  const [described, importPart] = spec.description.split("\n\n## Import\n\n");
  const description = withoutExamples(described);
  const outputsOnly = Object.fromEntries(Object.entries(spec.properties).filter(([k]) => !(k in spec.inputProperties)));
  return [
    "<!-- Generated by scripts/generate.mjs from the resource definition; do not edit. -->",
    `# ${token}`,
    "",
    description,
    "",
    ...examplesSection(token),
    "## Inputs",
    "",
    propertyTable(spec.inputProperties, spec.requiredInputs),
    "",
    "## Outputs",
    "",
    "Every input is also an output, and:",
    "",
    propertyTable(outputsOnly, spec.required),
    "",
    ...typesSection(spec.inputProperties, outputsOnly),
    "## Import",
    "",
    importPart.trim(),
    "",
    ...adoptionNotes(token, spec),
    ...listingNote(token, spec),
    `Module \`${mod}\`, resource \`${name}\`.`,
    "",
  ].join("\n");
}

/**
 * What `pulumi import` (and nsp-discover) cannot bring back for this resource: outputs the API
 * shows once, inputs it never returns, and the rotation input that issues a fresh secret.
 */
function adoptionNotes(token, spec) {
  const { oneTime, writeOnly, notDiscovered } = adoption[token];
  const lines = [];
  // The rotation triggers are named <secret>Rotation (keyRotation, tsigRotation, ...).
  const rotation = Object.keys(spec.inputProperties).find((k) => /^[a-z]+Rotation$/.test(k));
  for (const name of oneTime) {
    lines.push(
      `- \`${name}\` is shown by the API once, so an imported object has it empty. ${rotation ? `Set or change \`${rotation}\` to get a fresh one (the old one stops working).` : "The API has no way to issue it again; replace the object to get a new one."}`,
    );
  }
  for (const name of writeOnly.filter((n) => n !== rotation && n !== "forceDestroy")) {
    lines.push(
      `- \`${name}\` is never returned by the API, so the import leaves it out of the program; setting it afterwards shows one update, which sends it.`,
    );
  }
  if (writeOnly.includes("forceDestroy"))
    lines.push(
      "- `forceDestroy` is the provider's own setting, never sent to the API: an imported object has it false, and setting it afterwards is an update that sends nothing.",
    );
  if (notDiscovered) lines.push(`- \`nsp-discover\` does not list it: ${notDiscovered}.`);
  return lines.length ? ["### What import cannot read back", "", ...lines, ""] : [];
}

/** How `pulumi do` lists the kind's objects (docs/guides/pulumi-do.md), from its `listInputs`. */
function listingNote(token, spec) {
  if (!spec.listInputs) return [];
  // `pulumi do` spells each input as a kebab-case flag: zoneId -> --zone-id.
  const flag = (k) => `--${k.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()} <${k}>`;
  const required = spec.listInputs.required ?? [];
  const optional = Object.keys(spec.listInputs.properties ?? {}).filter((k) => !required.includes(k));
  return [
    "### Listing",
    "",
    "```sh",
    ["pulumi do", token, "list", ...required.map(flag), ...optional.map((k) => `[${flag(k)}]`), "--all"].join(" "),
    "```",
    "",
    `Each result is an id \`pulumi import\` takes. See [pulumi do](../guides/pulumi-do.md).${optional.length ? ` Optional filters: ${optional.map((k) => `\`${k}\``).join(", ")}.` : ""}`,
    "",
  ];
}

function functionDoc(token, spec) {
  return [
    "<!-- Generated by scripts/generate.mjs from the function definition; do not edit. -->",
    `# ${token}`,
    "",
    withoutExamples(spec.description),
    "",
    ...examplesSection(token),
    "## Arguments",
    "",
    spec.inputs ? propertyTable(spec.inputs.properties, spec.inputs.required) : "None.",
    "",
    "## Result",
    "",
    propertyTable(spec.outputs.properties, spec.outputs.required),
    "",
    ...typesSection(spec.inputs?.properties, spec.outputs.properties),
  ].join("\n");
}

function resourceTable() {
  const rows = Object.entries(schema.resources).map(([token, spec]) => {
    // Every id the Import section shows: the one `pulumi stack --show-ids` prints first.
    const importIds = [...spec.description.matchAll(/^pulumi import \S+ <name> '([^']*)'$/gm)].map(
      (m) => `\`${m[1]}\``,
    );
    const file = token.split(":").slice(1).join("-");
    return `| [\`${token}\`](resources/${file}.md) | ${cell(spec.description.split("\n")[0].split(". ")[0].replace(/\.$/, ""))}. | ${importIds.join(" or ")} |`;
  });
  const fns = Object.keys(schema.functions).map(
    (token) => `[\`${token}\`](functions/${token.split(":").slice(1).join("-")}.md)`,
  );
  return ["| resource | what it is | import id |", "|---|---|---|", ...rows, "", `Functions: ${fns.join(", ")}.`].join(
    "\n",
  );
}

const files = new Map();
files.set(join(root, "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);
for (const [token, spec] of Object.entries(schema.resources))
  files.set(join(root, "docs/resources", `${token.split(":").slice(1).join("-")}.md`), resourceDoc(token, spec));
for (const [token, spec] of Object.entries(schema.functions))
  files.set(join(root, "docs/functions", `${token.split(":").slice(1).join("-")}.md`), functionDoc(token, spec));
// The table lives in the registry's index page, beside the pages it links (the README links it).
const indexPath = join(root, "docs", "_index.md");
const index = readFileSync(indexPath, "utf8");
const START = "<!-- resources:start (generated by scripts/generate.mjs) -->";
const END = "<!-- resources:end -->";
if (index.includes(START) && index.includes(END)) {
  files.set(
    indexPath,
    `${index.slice(0, index.indexOf(START) + START.length)}\n${resourceTable()}\n${index.slice(index.indexOf(END))}`,
  );
}

const check = process.argv.includes("--check");
const stale = [];
for (const [path, text] of files) {
  let current = null;
  try {
    current = readFileSync(path, "utf8");
  } catch {}
  if (current === text) continue;
  if (check) stale.push(path.slice(root.length + 1));
  else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
if (check && stale.length) {
  console.error(`stale generated files (run \`npm run generate\`): ${stale.join(", ")}`);
  process.exit(1);
}
if (!check)
  console.error(
    `generated schema.json and docs (${Object.keys(schema.resources).length} resources, ${Object.keys(schema.functions).length} functions)`,
  );
