import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["test/setup/build-if-stale.ts"],
    include: ["test/**/*.test.ts", "examples/typescript/*.test.ts", "examples/fleet/*.test.ts"],
    exclude: ["test/e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
