// The plugin's bundle: the launcher the engine runs, the plugin it compiles, and beside them the
// package schema and the V8 code cache the bundle makes itself. scripts/build.mjs builds it into
// dist/plugin; bench P9 builds an earlier commit's the same way, to compare against.
// `node scripts/plugin-bundle.mjs <tree> <out dir>` bundles <tree>'s provider/src (its
// node_modules resolved from <tree>) into <out dir>.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** What every bundle of the build shares. */
export const bundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  logLevel: "warning",
};

/**
 * The plugin is one CommonJS bundle behind a small launcher: what prints the port (gRPC and the
 * protocol) runs at once, the provider itself (definitions, zod, the HTTP client) on the first
 * call that needs it, and each module's definitions on the first call that names one of its
 * tokens (esbuild wraps a module imported with import() in a function run then).
 */
export async function bundlePlugin(root, outDir) {
  const { build } = await import("esbuild");
  await Promise.all([
    // The file the engine runs, and the plugin it compiles from the code cache made below.
    build({
      ...bundleOptions,
      entryPoints: [join(root, "provider/src/plugin/launcher.ts")],
      outfile: join(outDir, "provider.mjs"),
      format: "esm",
    }),
    build({
      ...bundleOptions,
      entryPoints: [join(root, "provider/src/plugin/main.ts")],
      outfile: join(outDir, "plugin.cjs"),
    }),
  ]);
}

/**
 * Made by the bundle itself: the package schema, which the plugin serves without loading the
 * provider (provider/src/plugin/startup-calls.ts), and the V8 code cache it starts from
 * (provider/src/plugin/launcher.ts). V8 takes a cache only under the flags it was made with: the
 * launcher's, read from <root>/bin/pulumi-resource-nsp.
 */
export function preparePlugin(root, outDir) {
  const launcher = readFileSync(join(root, "bin", "pulumi-resource-nsp"), "utf8");
  const flags = /^exec node (.*) "\$bundle" "\$@"$/m.exec(launcher)?.[1]?.split(" ");
  if (!flags) throw new Error('build: no `exec node <flags> "$bundle" "$@"` line in bin/pulumi-resource-nsp');
  const prepared = spawnSync(process.execPath, [...flags, join(outDir, "provider.mjs"), "--prepare"], {
    encoding: "utf8",
  });
  if (prepared.status !== 0) throw new Error(`build: the plugin's schema and code cache: ${prepared.stderr}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [tree, out] = process.argv.slice(2);
  if (!tree || !out) {
    process.stderr.write("usage: node scripts/plugin-bundle.mjs <tree> <out dir>\n");
    process.exit(2);
  }
  await bundlePlugin(resolve(tree), resolve(out));
  preparePlugin(resolve(tree), resolve(out));
}
