// The end-to-end tests of the release (test/e2e/installed.test.ts, release-layout.test.ts) use
// dist/release. Run `npm run release` before any test whenever a source of an artifact is newer
// than the release, so they always test what the tree builds, never an old release.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { newestMtime } from "./build-if-stale";

const ROOT = join(__dirname, "..", "..");
const SOURCES = ["provider/src", "emulator/src", "sdk", "bin", "schema.json", "package.json", "scripts/build.mjs", "scripts/gen-dynamic-types.mjs", "scripts/release.mjs"];
const MANIFEST = join(ROOT, "dist", "release", "manifest.json");

export function releaseIsStale(): boolean {
  if (!existsSync(MANIFEST)) return true;
  const built = statSync(MANIFEST).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(ROOT, s)) > built);
}

export default function setup(): void {
  if (!releaseIsStale()) return;
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "release.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`npm run release failed (exit ${run.status}); the release tests would use an old release`);
}
