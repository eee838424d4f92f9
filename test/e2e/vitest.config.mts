import { basename } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each of the longest files takes on a quiet 2-core machine (vitest prints each file's
 * time in the output of `npm test`). Two workers end together only if the long files start first:
 * vitest orders by the timings of earlier runs, which a fresh clone has none of, and otherwise by
 * file size, which put the 20,000-record zone near the end. A stale figure only changes the order.
 */
const EXPECTED_SECONDS: Record<string, number> = {
  fleet: 330,
  "docs-commands": 210,
  "node-versions": 81,
  "examples-run": 69,
  "killed-run": 44,
  "large-zone": 43,
  reliability: 41,
  adopt: 40,
  dynamic: 40,
  "docs-fleet": 110,
  "fleet-page": 30,
  "every-resource": 37,
  "plain-clone": 30,
  typescript: 27,
  partner: 22,
  interrupted: 22,
  installed: 20,
  sdk: 13,
  yaml: 13,
  "design-card": 13,
  upgrade: 10,
  gitops: 10,
  "multi-account": 8,
  "pulumi-do": 8,
  python: 8,
  "parent-gone": 8,
  examples: 7,
  policy: 7,
  "force-destroy": 5,
  "fleet-serve": 3,
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = (f: TestSpecification) => EXPECTED_SECONDS[basename(f.moduleId, ".test.ts")] ?? 0;
    return (await super.sort(files)).sort((a, b) => expected(b) - expected(a));
  }
}

// End-to-end tests drive the real pulumi CLI; scripts/test.sh puts it on PATH first and runs
// them from the repository root.
export default defineConfig({
  test: {
    globalSetup: ["test/helpers/build-if-stale.ts", "test/e2e/harness/release-if-stale.ts", "test/e2e/harness/plugin-home.ts", "test/e2e/harness/vault-transit.ts"],
    include: ["test/e2e/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
