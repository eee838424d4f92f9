import { defineConfig } from "vitest/config";

// End-to-end tests drive the real pulumi CLI; scripts/test.sh puts it on PATH first and runs
// them from the repository root.
export default defineConfig({
  test: {
    globalSetup: ["test/setup/build-if-stale.ts", "test/setup/release-if-stale.ts"],
    include: ["test/e2e/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
