// Provider and e2e tests spawn the bundles in dist/ (the plugin binary, the emulator) and the
// compiled SDKs. Rebuild them before any test runs whenever a source is newer than the bundle,
// so a green run always proves the code in the tree, never an old build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const SOURCES = ["provider/src", "emulator/src", "scripts/build.mjs", "scripts/gen-dynamic-types.mjs", "sdk/nodejs", "package.json"];
const OUTPUTS = ["dist/plugin/provider.mjs", "dist/emulator.js", "dist/discover.js", "sdk/dynamic/dist/index.js"];
const SKIP = new Set(["node_modules", "bin", "dist"]);

export function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) if (!SKIP.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when a bundle is missing or older than one of the sources it is built from. */
export function buildIsStale(root = ROOT): boolean {
  const built = OUTPUTS.map((o) => join(root, o));
  if (built.some((o) => !existsSync(o))) return true;
  const oldestOutput = Math.min(...built.map((o) => statSync(o).mtimeMs));
  return SOURCES.some((s) => newestMtime(join(root, s)) > oldestOutput);
}

export default function setup(): void {
  if (!buildIsStale()) return;
  const started = Date.now();
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`the build failed (exit ${run.status}); tests would run against an old bundle`);
  process.stderr.write(`build-if-stale: sources changed, rebuilt dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
