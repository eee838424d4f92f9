// The end-to-end tests of the release (test/e2e/installed.test.ts, release-layout.test.ts) use
// dist/release. Before any test, `scripts/release.mjs --if-stale` makes it again unless the
// fingerprint of its sources it recorded matches the tree (scripts/build-inputs.mjs), so they
// always test what the tree builds, never an old release.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..", "..");

export default function setup(): void {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "release.mjs"), "--if-stale"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (run.status !== 0)
    throw new Error(`npm run release failed (exit ${run.status}); the release tests would use an old release`);
}
