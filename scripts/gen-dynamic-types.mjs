// The dynamic-provider SDK, @nsp/pulumi-dynamic (sdk/dynamic). scripts/build.mjs bundles
// provider/src/dynamic/index.ts into sdk/dynamic/dist/index.js with the options below; when that
// bundle is written, this writes its declarations (dist/index.d.ts, generated from the resource
// definitions, so a consumer needs no zod) and links node_modules/@nsp/pulumi-dynamic to
// sdk/dynamic, as the examples and end-to-end tests import it.
// Standalone: `node scripts/gen-dynamic-types.mjs` does the same (bundle included).
import { build } from "esbuild";
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sdk = join(root, "sdk", "dynamic");

/** The declarations, rendered by provider/src/dynamic/declarations.ts from the registry. */
export async function renderDeclarations() {
  const dir = mkdtempSync(join(tmpdir(), "nsp-dyn-types-"));
  try {
    const outfile = join(dir, "render.cjs");
    await build({
      stdin: {
        contents: `
          import { renderDeclarations } from "./provider/src/dynamic/declarations";
          import { resources } from "./provider/src/modules/all-definitions";
          import { PROVIDER_VERSION } from "./provider/src/config/package-info";
          export const text = renderDeclarations(resources, PROVIDER_VERSION);`,
        resolveDir: root,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile,
      logLevel: "warning",
    });
    return createRequire(import.meta.url)(outfile).text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function writeDeclarationsAndLink() {
  mkdirSync(join(sdk, "dist"), { recursive: true });
  writeFileSync(join(sdk, "dist", "index.d.ts"), await renderDeclarations());
  const link = join(root, "node_modules", "@nsp", "pulumi-dynamic");
  mkdirSync(dirname(link), { recursive: true });
  try {
    lstatSync(link);
    rmSync(link, { recursive: true, force: true });
  } catch {}
  symlinkSync(join("..", "..", "sdk", "dynamic"), link, "dir");
}

/**
 * esbuild options of the sdk/dynamic entry. @pulumi/pulumi stays the program's own (one runtime
 * per program); @nsp/pulumi-dynamic is the package itself, which the serialized providers
 * require by name at run time.
 */
export const dynamicSdkOptions = {
  external: ["@pulumi/pulumi", "@pulumi/pulumi/*", "@nsp/pulumi-dynamic"],
  plugins: [
    {
      name: "nsp-dynamic-sdk",
      setup(b) {
        b.onEnd(async (result) => {
          if (result.errors.length === 0) await writeDeclarationsAndLink();
        });
      },
    },
  ],
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build({
    entryPoints: [join(root, "provider/src/dynamic/index.ts")],
    outfile: join(sdk, "dist", "index.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: "linked",
    logLevel: "warning",
    ...dynamicSdkOptions,
  });
}
