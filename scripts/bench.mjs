// `npm run bench [-- P1 P4 ...]`: builds the plugin and the emulator (scripts/build.mjs), bundles
// the benchmark (bench/*.ts) with esbuild into dist/bench/, and runs it. See bench/index.ts.
// --no-build skips scripts/build.mjs (the bench bundles are always rebuilt).
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const skipBuild = args.includes("--no-build");
const passOn = args.filter((a) => a !== "--no-build");

if (!skipBuild) {
  const res = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "inherit" });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

// dist/bench/ is two levels below the root, as test/helpers/ is: the helpers find the root (and
// bin/, dist/) from their own directory. The bare gRPC server is bundled exactly as the plugin is.
const out = join(root, "dist", "bench");
await Promise.all(
  ["index", "bare-grpc-server", "bare-http-server", "loadgen"].map((name) =>
    build({
      entryPoints: [join(root, "bench", `${name}.ts`)],
      outfile: join(out, `${name}.js`),
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      sourcemap: "linked",
      logLevel: "warning",
    }),
  ),
);

const run = spawnSync(process.execPath, ["--enable-source-maps", join(out, "index.js"), ...passOn], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
