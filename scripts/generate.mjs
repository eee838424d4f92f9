// Writes schema.json from the resource definitions (the single source of truth).
// Usage: node scripts/generate.mjs [--check]   (--check fails when schema.json is stale)
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
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
      import { buildPackageSchema } from "./provider/src/framework/schema";
      import { packageInfo } from "./provider/src/package-info";
      import { resources, functions } from "./provider/src/registry";
      export const schema = buildPackageSchema(packageInfo, resources, functions);`,
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  outfile,
  logLevel: "warning",
});
const { schema } = createRequire(import.meta.url)(outfile);
rmSync(dir, { recursive: true, force: true });

const text = JSON.stringify(schema, null, 2) + "\n";
const target = join(root, "schema.json");
if (process.argv.includes("--check")) {
  let current = "";
  try { current = readFileSync(target, "utf8"); } catch {}
  if (current !== text) {
    console.error("schema.json is stale: run `npm run generate`");
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.error(`wrote schema.json (${Object.keys(schema.resources).length} resources, ${Object.keys(schema.functions).length} functions)`);
}
