// What the build (scripts/build.mjs) and the release (scripts/release.mjs) are made from, and a
// fingerprint of it: the hash of every file's path and content. Each writes the fingerprints it
// was made from beside its outputs, so that `--if-stale` rebuilds exactly when the tree differs
// from what the outputs were built from. Contents, not modification times: a source restored
// with an old time (cp -p, tar, rsync -a), a deleted source, or an output edited or removed
// after the build all count as stale, and a build that is fresh is never repeated.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Generated or installed files inside the source folders, which no build reads.
const SKIP = new Set(["node_modules", "bin", "dist", "build", "__pycache__"]);
const skipped = (name) => SKIP.has(name) || name.endsWith(".egg-info");

/** What dist/ and the compiled SDKs are built from. */
export const BUILD_INPUTS = [
  "provider/src",
  "emulator/src",
  "fleet/src",
  "sdk/nodejs",
  "scripts/build.mjs",
  "scripts/plugin-bundle.mjs",
  "scripts/build-inputs.mjs",
  "scripts/schema-examples.mjs",
  // The examples the plugin serves come from it (scripts/build.mjs).
  "schema.json",
  "scripts/gen-dynamic-types.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];
/** What the build writes: the bundles (and the fleet page's files), the compiled Node.js SDK and its link, @nsp/pulumi-dynamic. */
export const BUILD_OUTPUTS = [
  "dist/plugin",
  "dist/emulator.js",
  "dist/discover.js",
  "dist/fleet.js",
  "dist/fleet-assets",
  "sdk/nodejs/bin",
  "node_modules/@nsp/pulumi",
  "sdk/dynamic/dist",
  "node_modules/@nsp/pulumi-dynamic",
];
/** What dist/release is made from: the build's inputs, the SDKs, the launchers, the changelog and the release script. */
export const RELEASE_INPUTS = [...new Set([...BUILD_INPUTS, "sdk", "bin", "CHANGELOG.md", "scripts/release.mjs"])];

export const BUILD_STAMP = "dist/build-inputs.json";
export const RELEASE_STAMP = "dist/release-inputs.json";

function addTree(hash, root, rel) {
  const abs = join(root, rel);
  if (!existsSync(abs) && !isLink(abs)) return void hash.update(`missing\0${rel}\0`);
  const st = lstatSync(abs);
  if (st.isSymbolicLink()) return void hash.update(`link\0${rel}\0${readlinkSync(abs)}\0`);
  if (st.isFile()) return void hash.update(`file\0${rel}\0${st.size}\0`).update(readFileSync(abs));
  hash.update(`dir\0${rel}\0`);
  for (const entry of readdirSync(abs).sort()) if (!skipped(entry)) addTree(hash, root, join(rel, entry));
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The sha256 of the paths (files or folders, walked in a fixed order) under root. */
export function fingerprint(root, paths) {
  const hash = createHash("sha256");
  // A folder given by name is hashed even when its name is one of the generated folders' above
  // (sdk/nodejs/bin is an output); inside any folder they are left out.
  for (const p of paths) addTree(hash, root, p);
  return hash.digest("hex");
}

/**
 * Why the outputs recorded in `stamp` are not what `inputs` build now, or undefined when they
 * are: the stamp is missing, a source differs, or an output was changed or removed since.
 */
export function staleness(root, stamp, inputs, outputs) {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(root, stamp), "utf8"));
  } catch {
    return `no ${stamp}`;
  }
  if (recorded.inputs !== fingerprint(root, inputs)) return "the sources differ from those of the last build";
  if (recorded.outputs !== fingerprint(root, outputs)) return "the outputs differ from those the last build wrote";
  return undefined;
}

/** Records what the outputs were built from; `inputs` is the fingerprint taken before building. */
export function writeStamp(root, stamp, inputs, outputs, extra = {}) {
  writeFileSync(
    join(root, stamp),
    `${JSON.stringify({ inputs, outputs: fingerprint(root, outputs), ...extra }, null, 2)}\n`,
  );
}
