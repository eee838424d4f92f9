// Bundles the provider plugin and the emulator into one file each, so the plugin starts
// without resolving hundreds of modules (the engine waits for its port line).
import { build } from "esbuild";
import { existsSync } from "node:fs";

const entries = [
  { in: "provider/src/main.ts", out: "dist/provider.js" },
  { in: "emulator/src/cli.ts", out: "dist/emulator.js" },
].filter((e) => existsSync(e.in));

await Promise.all(
  entries.map((e) =>
    build({
      entryPoints: [e.in],
      outfile: e.out,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      sourcemap: "linked",
      logLevel: "warning",
    }),
  ),
);
