import { readFileSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

// The file the engine runs. The engine starts a plugin for every command and for every explicit
// provider, and compiling the plugin's 4 MB of JavaScript was about a fifth of the CPU of each
// start: the plugin (plugin.cjs, main.ts bundled) is compiled from the V8 code cache the build
// made beside it (plugin.cjs.cache). V8 refuses a cache made by another Node.js version or with
// other flags, and the code is then compiled as usual.

interface PluginBundle {
  run(): void;
  prepare(): Promise<string>;
}

const here = dirname(process.argv[1] ?? ".");
const file = join(here, "plugin.cjs");
const cacheFile = `${file}.cache`;
/** The build's step: write the code cache and the package schema beside the bundle, then exit. */
const preparing = process.argv[2] === "--prepare";

let cachedData: Buffer | undefined;
if (!preparing) {
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache beside the bundle: compiled as usual.
  }
}
const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
if (cachedData && script.cachedDataRejected && process.env.NSP_DEBUG) {
  process.stderr.write(
    `pulumi-resource-nsp: V8 refused ${cacheFile} (made by another Node.js, or with other flags); compiling\n`,
  );
}
const bundle = { exports: {} as PluginBundle };
(script.runInThisContext() as (...args: unknown[]) => void)(bundle.exports, createRequire(file), bundle, file, here);

if (preparing) {
  bundle.exports.prepare().then(
    (schema) => {
      writeFileSync(join(here, "schema.json"), schema);
      writeFileSync(cacheFile, script.createCachedData());
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `pulumi-resource-nsp --prepare: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
} else {
  bundle.exports.run();
}
