// The "Example Usage" sections of a package schema's descriptions. scripts/generate.mjs writes the
// examples into schema.json and nowhere else; the build copies them from there into the schema the
// plugin's own definitions make (scripts/build.mjs), so the plugin bundles no copy of its own.

const SECTION = /\n\n\{\{% examples %\}\}[\s\S]*?\{\{% \/examples %\}\}/;
const KINDS = ["resources", "functions"];

/** Each token's examples section, as buildPackageSchema takes them (its `examples` argument). */
export function exampleSections(schema) {
  const sections = {};
  for (const kind of KINDS) {
    for (const [token, spec] of Object.entries(schema[kind] ?? {})) {
      const found = SECTION.exec(spec.description ?? "");
      if (found) sections[token] = found[0].slice(2);
    }
  }
  return sections;
}

/**
 * The schema with each token's section placed where buildPackageSchema places it: at the end of a
 * function's description, before a resource's closing "## Import" section.
 */
export function withExampleSections(schema, sections) {
  const copy = structuredClone(schema);
  for (const kind of KINDS) {
    for (const [token, spec] of Object.entries(copy[kind] ?? {})) {
      const section = sections[token];
      if (!section) continue;
      const at = kind === "resources" ? spec.description.lastIndexOf("\n\n## Import\n\n") : spec.description.length;
      if (at < 0) throw new Error(`${token}: its description has no "## Import" section to place the examples before`);
      spec.description = `${spec.description.slice(0, at)}\n\n${section}${spec.description.slice(at)}`;
    }
  }
  return copy;
}

/** The schema without any examples section. */
export function withoutExampleSections(schema) {
  const copy = structuredClone(schema);
  for (const kind of KINDS)
    for (const spec of Object.values(copy[kind] ?? {})) spec.description = spec.description.replace(SECTION, "");
  return copy;
}
