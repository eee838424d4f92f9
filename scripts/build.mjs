// Bundles the provider plugin and the emulator, so the plugin starts without resolving hundreds
// of modules (the engine waits for its port line). Then compiles
// the generated Node.js SDK and links it as node_modules/@nsp/pulumi, so the examples and the
// end-to-end tests import it exactly as a user's program would, sharing one @pulumi/pulumi.
// Last it records the fingerprint of what it built from (scripts/build-inputs.mjs). With
// `--if-stale` it builds only when that record does not match the tree: `npm ci`'s prepare builds,
// and the test command, the test setups and the release reuse that build while it is fresh.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_INPUTS, BUILD_OUTPUTS, BUILD_STAMP, fingerprint, staleness, writeStamp } from "./build-inputs.mjs";
import { exampleSections, withExampleSections } from "./schema-examples.mjs";
import { bundleOptions, bundlePlugin, preparePlugin } from "./plugin-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = Date.now();
const stale = staleness(root, BUILD_STAMP, BUILD_INPUTS, BUILD_OUTPUTS);
if (process.argv.includes("--if-stale") && !stale) {
  process.stderr.write(`build: up to date (${BUILD_STAMP} matches the tree)\n`);
  process.exit(0);
}
if (stale && process.argv.includes("--if-stale")) process.stderr.write(`build: ${stale}; building\n`);
// Taken before building: a source edited meanwhile makes the next check rebuild.
const inputs = fingerprint(root, BUILD_INPUTS);
const { build } = await import("esbuild");
// The plugin's two files (scripts/plugin-bundle.mjs) go to dist/plugin.next first.
const next = join(root, "dist", "plugin.next");
const entries = [
  { in: "emulator/src/process/cli.ts", out: "dist/emulator.js" },
  { in: "provider/src/discover/cli.ts", out: "dist/discover.js" },
  // pg (under pg-boss) loads its optional native binding only when asked for pg.native, which the fleet never is.
  { in: "fleet/src/cli.ts", out: "dist/fleet.js", options: { external: ["pg-native"] } },
  // @nsp/pulumi-dynamic: also writes its .d.ts and links node_modules/@nsp/pulumi-dynamic (see the script).
  {
    in: "provider/src/dynamic/index.ts",
    out: "sdk/dynamic/dist/index.js",
    options: (await import("./gen-dynamic-types.mjs")).dynamicSdkOptions,
  },
];

rmSync(next, { recursive: true, force: true });
await Promise.all([
  bundlePlugin(root, next),
  ...entries.map((e) =>
    build({ ...bundleOptions, entryPoints: [join(root, e.in)], outfile: join(root, e.out), ...e.options }),
  ),
]);

// The fleet's page (fleet/src/serve) serves its script, its style sheet and Chart.js from files
// beside its bundle, found from there at run time, in dist/ as in the released @nsp/fleet.
const fleetAssets = join(root, "dist", "fleet-assets");
rmSync(fleetAssets, { recursive: true, force: true });
mkdirSync(fleetAssets, { recursive: true });
for (const name of readdirSync(join(root, "fleet", "src", "serve", "assets")))
  copyFileSync(join(root, "fleet", "src", "serve", "assets", name), join(fleetAssets, name));
copyFileSync(join(root, "node_modules", "chart.js", "dist", "chart.umd.min.js"), join(fleetAssets, "chart.umd.min.js"));

// Beside the bundle, made by the bundle itself: its schema and code cache.
preparePlugin(root, next);
// The examples live in schema.json only (scripts/generate.mjs): the schema the bundle makes from
// its definitions gets them from there.
const served = join(next, "schema.json");
const committed = JSON.parse(readFileSync(join(root, "schema.json"), "utf8"));
writeFileSync(
  served,
  JSON.stringify(withExampleSections(JSON.parse(readFileSync(served, "utf8")), exampleSections(committed))),
);

// Swapped in whole, so that a plugin starting meanwhile never finds half of its files.
rmSync(join(root, "dist", "plugin"), { recursive: true, force: true });
renameSync(next, join(root, "dist", "plugin"));

const sdk = join(root, "sdk", "nodejs");
if (existsSync(join(sdk, "tsconfig.json"))) {
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", sdk], {
    stdio: "inherit",
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // Pulumi's Node SDKs are published from their compiled folder, package.json beside the code.
  copyFileSync(join(sdk, "package.json"), join(sdk, "bin", "package.json"));
  const link = join(root, "node_modules", "@nsp", "pulumi");
  mkdirSync(dirname(link), { recursive: true });
  try {
    lstatSync(link);
    rmSync(link, { recursive: true, force: true });
  } catch {}
  symlinkSync(join("..", "..", "sdk", "nodejs", "bin"), link, "dir");
}

// `npm_lifecycle_event` says whether npm ran this (its prepare) and when: the test command's
// summary then shows how long npm ci took before it.
const finished = Date.now();
writeStamp(root, BUILD_STAMP, inputs, BUILD_OUTPUTS, {
  by: process.env.npm_lifecycle_event ?? "node scripts/build.mjs",
  startedAt: new Date(started).toISOString(),
  seconds: (finished - started) / 1000,
});
process.stderr.write(`build: built in ${((finished - started) / 1000).toFixed(1)} s\n`);
