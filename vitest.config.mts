import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["test/helpers/build-if-stale.ts"],
    include: ["test/**/*.test.ts", "examples/typescript/*.test.ts"],
    exclude: ["test/e2e/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Test files spend most of their time waiting on sockets and child processes (the emulator,
    // the plugin binary), so one worker per core leaves cores idle: one more keeps them busy.
    // Measured on 2 cores (see CONTRIBUTING.md, Tests); `--maxWorkers` or VITEST_MAX_WORKERS
    // overrides it.
    maxWorkers: availableParallelism() + 1,
    // A worker runs its files one after another in one process, sharing the modules they import:
    // importing the provider's definitions again for every file was a third of the run. Every
    // file starts its own emulator, plugin and accounts, and module-level caches are keyed by
    // what they hold (a token, a base URL), so files do not see each other; the suite passes
    // with its files in any order (`--sequence.shuffle.files`) and all in one worker.
    isolate: false,
  },
});
