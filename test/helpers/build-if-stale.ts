// Provider and e2e tests spawn the bundles in dist/ (the plugin binary, the emulator) and the
// compiled SDKs. Before any test runs, `scripts/build.mjs --if-stale` rebuilds them unless the
// fingerprint the last build recorded matches the sources in the tree and the outputs on disk
// (scripts/build-inputs.mjs): a green run always proves the code in the tree, never an old build,
// and a build that is fresh (npm ci's prepare, the test command's) is not repeated.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

export default function setup(): void {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--if-stale"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (run.status !== 0) throw new Error(`the build failed (exit ${run.status}); tests would run against an old bundle`);
}
