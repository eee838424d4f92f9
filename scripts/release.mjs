// `npm run release`: builds from the tree and writes every artifact of package.json's version
// into dist/release/, as a published provider ships them:
//   pulumi-resource-nsp-v<version>-<os>-<arch>.tar.gz   the plugin, one per os and arch
//   nsp-pulumi-<version>.tgz                            @nsp/pulumi (the Node.js SDK, compiled)
//   pulumi_nsp-<version>-py3-none-any.whl, .tar.gz      pulumi_nsp (the Python SDK)
//   pulumi-nsp-sdk-go-v<version>.tar.gz                 the Go SDK module, with go.mod and go.sum
//   nsp-pulumi-dynamic-<version>.tgz                    @nsp/pulumi-dynamic
//   nsp-emulator-<version>.tgz                          @nsp/emulator (bin nsp-emulator)
//   nsp-discover-<version>.tgz                          @nsp/discover (bin nsp-discover)
//   nsp-fleet-<version>.tgz                             @nsp/fleet (bin nsp-fleet)
//   CHANGELOG.md                                        the changes and upgrade notes of every version
//   manifest.json                                       the list above with sizes and the time taken
// Nothing is published: the archives go to GitHub releases and the packages to npm, PyPI and a
// Go module tag from CI with the project's credentials, which our machines do not have.
// With `--if-stale` it does nothing while dist/release-inputs.json matches the tree (see
// scripts/build-inputs.mjs), and it reuses dist/ when the build is fresh.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RELEASE_INPUTS, RELEASE_STAMP, fingerprint, staleness, writeStamp } from "./build-inputs.mjs";

const started = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "release");
const readJson = (p) => JSON.parse(readFileSync(join(root, p), "utf8"));
const version = readJson("package.json").version;
// The Node.js floor every artifact declares: package.json's, the oldest line the tests run on.
const nodeEngines = readJson("package.json").engines;
const RELEASE_OUTPUTS = ["dist/release"];
const releaseStale = staleness(root, RELEASE_STAMP, RELEASE_INPUTS, RELEASE_OUTPUTS);
if (process.argv.includes("--if-stale") && !releaseStale) {
  process.stderr.write(`release: up to date (${RELEASE_STAMP} matches the tree)\n`);
  process.exit(0);
}
// Taken before building: a source edited meanwhile makes the next check make the release again.
const inputs = fingerprint(root, RELEASE_INPUTS);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", ...opts });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.error?.message})`);
  }
  return r.stdout;
}
const step = (text) => process.stderr.write(`release: ${text}\n`);

// One version: every generated file must carry package.json's, or the artifacts would disagree.
const versions = {
  "schema.json": readJson("schema.json").version,
  "sdk/nodejs/package.json": readJson("sdk/nodejs/package.json").version,
  "sdk/python/pulumi_nsp/pulumi-plugin.json": readJson("sdk/python/pulumi_nsp/pulumi-plugin.json").version,
  "sdk/dynamic/package.json": readJson("sdk/dynamic/package.json").version,
};
const stale = Object.entries(versions).filter(([, v]) => v !== version);
if (stale.length > 0) {
  throw new Error(
    `package.json is at ${version} but ${stale.map(([f, v]) => `${f} says ${v}`).join(", ")}: ` +
      "run `npm run generate` and `bash scripts/gen-sdks.sh` (and set sdk/dynamic/package.json's version)",
  );
}
if (!readJson("schema.json").pluginDownloadURL)
  throw new Error("schema.json has no pluginDownloadURL: run `npm run generate`");

step(`building ${version} from the tree`);
run(process.execPath, [join(root, "scripts", "build.mjs"), "--if-stale"], { stdio: ["ignore", "ignore", "inherit"] });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "nsp-release-"));
const timings = {};
const timed = (name, fn) => {
  const t = Date.now();
  fn();
  timings[name] = Date.now() - t;
};

// A tar.gz of `dir`'s contents with stable owners, order and times: releases of one tree are
// byte-identical, whoever builds them.
function tarGz(dir, file, entries = readdirSync(dir)) {
  run(
    "tar",
    [
      "--sort=name",
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--mtime=@0",
      "-czf",
      file,
      "-C",
      dir,
      ...entries.sort(),
    ],
    { env: { ...process.env, GZIP: "-n" } },
  );
}

// --- the plugin: the launcher at the archive's root, the bundle beside it in plugin/ --------------
timed("plugin archives", () => {
  const plugin = join(work, "plugin");
  mkdirSync(join(plugin, "plugin"), { recursive: true });
  for (const f of readdirSync(join(root, "dist", "plugin"))) {
    if (!f.endsWith(".map")) copyFileSync(join(root, "dist", "plugin", f), join(plugin, "plugin", f));
  }
  for (const [os, launcher] of [
    ["linux", "pulumi-resource-nsp"],
    ["darwin", "pulumi-resource-nsp"],
    ["windows", "pulumi-resource-nsp.cmd"],
  ]) {
    const stage = join(work, `plugin-${os}`);
    cpSync(plugin, stage, { recursive: true });
    copyFileSync(join(root, "bin", launcher), join(stage, launcher));
    chmodSync(join(stage, launcher), 0o755);
    writeFileSync(join(stage, "README.md"), pluginReadme(os));
    // The bundle runs on any architecture Node.js does: one os's archives differ only in name.
    const archive = (arch) => join(out, `pulumi-resource-nsp-v${version}-${os}-${arch}.tar.gz`);
    tarGz(stage, archive("amd64"));
    copyFileSync(archive("amd64"), archive("arm64"));
  }
});

function pluginReadme(os) {
  return [
    `# pulumi-resource-nsp v${version} (${os})`,
    "",
    `The Pulumi resource plugin of the Network Services Platform provider. It needs Node.js ${nodeEngines.node} on PATH.`,
    "",
    "```sh",
    `pulumi plugin install resource nsp ${version} --file pulumi-resource-nsp-v${version}-${os}-<arch>.tar.gz`,
    "```",
    "",
  ].join("\n");
}

// --- npm packages --------------------------------------------------------------------------------
function npmPack(dir) {
  const [{ filename }] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", out], { cwd: dir }));
  return filename;
}

timed("@nsp/pulumi", () => {
  // Pulumi's Node SDKs are published from their compiled folder: JavaScript and declarations.
  const stage = join(work, "sdk-nodejs");
  cpSync(join(root, "sdk", "nodejs", "bin"), stage, { recursive: true });
  copyFileSync(join(root, "sdk", "nodejs", "README.md"), join(stage, "README.md"));
  const pkg = readJson("sdk/nodejs/package.json");
  delete pkg.scripts; // `npm run build` means tsc over sources the package does not carry
  delete pkg.devDependencies;
  pkg.main = "index.js";
  pkg.types = "index.d.ts";
  pkg.engines = nodeEngines;
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  npmPack(stage);
});

timed("@nsp/pulumi-dynamic", () => npmPack(join(root, "sdk", "dynamic")));

/** An npm package of one bundled command-line tool: its bin launcher, its Node.js check, its one-file bundle, and the folders of dist/ it reads at run time (`folders`). */
function toolPackage({ name, bin, bundle, folders = [], description, keywords, usage }) {
  const stage = join(work, bin);
  mkdirSync(join(stage, "bin"), { recursive: true });
  mkdirSync(join(stage, "dist"), { recursive: true });
  copyFileSync(join(root, "bin", bin), join(stage, "bin", bin));
  chmodSync(join(stage, "bin", bin), 0o755);
  // The launcher refuses a Node.js below the package's engines (read from its package.json).
  copyFileSync(join(root, "bin", "node-floor.js"), join(stage, "bin", "node-floor.js"));
  copyFileSync(join(root, "dist", bundle), join(stage, "dist", bundle));
  for (const folder of folders) cpSync(join(root, "dist", folder), join(stage, "dist", folder), { recursive: true });
  const { license, homepage, repository } = readJson("package.json");
  const pkg = {
    name,
    version,
    description,
    keywords,
    license,
    ...(homepage ? { homepage } : {}),
    ...(repository ? { repository } : {}),
    bin: { [bin]: `bin/${bin}` },
    files: [`bin/${bin}`, "bin/node-floor.js", `dist/${bundle}`, ...folders.map((f) => `dist/${f}`)],
    engines: nodeEngines,
  };
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(stage, "README.md"), `# ${name}\n\n${description}\n\n${usage}\n`);
  npmPack(stage);
}

timed("@nsp/emulator", () =>
  toolPackage({
    name: "@nsp/emulator",
    bin: "nsp-emulator",
    bundle: "emulator.js",
    description:
      "A local emulator of the Network Services Platform API, for tests and CI: a real HTTP server on 127.0.0.1.",
    keywords: ["nsp", "emulator", "pulumi", "testing"],
    usage:
      "`npx nsp-emulator [--port N] [--account NAME=TOKEN ...] [--rate-limit PER_MINUTE]` prints one JSON line when ready: " +
      '`{"baseUrl":"http://127.0.0.1:PORT/api/v1","accounts":{"demo":"svc_..."}}`.',
  }),
);

timed("@nsp/discover", () =>
  toolPackage({
    name: "@nsp/discover",
    bin: "nsp-discover",
    bundle: "discover.js",
    description:
      "Reads a whole Network Services Platform account and writes a Pulumi bulk-import file (`pulumi import " +
      "--file`) for the nsp provider.",
    keywords: ["nsp", "pulumi", "import"],
    usage:
      "`NSP_API_TOKEN=svc_... npx nsp-discover > import.json`, then `pulumi import --file import.json --yes " +
      "--out index.ts`. `--help` lists the filters.",
  }),
);

timed("@nsp/fleet", () =>
  toolPackage({
    name: "@nsp/fleet",
    bin: "nsp-fleet",
    bundle: "fleet.js",
    // The page of `nsp-fleet serve`: its script, style sheet and Chart.js (scripts/build.mjs).
    folders: ["fleet-assets"],
    description:
      "One Pulumi stack per customer of the nsp provider, on one machine or on a PostgreSQL queue shared by " +
      "any number of workers.",
    keywords: ["nsp", "pulumi", "fleet", "automation"],
    usage:
      "`FLEET_DATABASE_URL=postgres://... npx nsp-fleet enqueue --customers customers.json`, then `npx " +
      "nsp-fleet worker` on each machine, in the customer project's directory, " +
      ("and `npx nsp-fleet status`. `npx nsp-fleet run --customers customers.json` runs them all from one " +
        "process, without a database. `--help` lists the options."),
  }),
);

// --- the Python SDK: wheel and sdist, built with `build` from a virtualenv kept outside the repo --
timed("pulumi_nsp (wheel, sdist)", () => {
  const venv = join(process.env.NSP_RELEASE_CACHE ?? join(homedir(), ".cache", "nsp-release"), "python-build");
  const python = join(venv, "bin", "python");
  if (!existsSync(join(venv, ".ready"))) {
    step(`creating the Python build environment in ${venv}`);
    rmSync(venv, { recursive: true, force: true });
    run("python3", ["-m", "venv", venv]);
    run(python, [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "build==1.2.2.post1",
      "setuptools>=70",
      "wheel",
    ]);
    writeFileSync(join(venv, ".ready"), "");
  }
  // setuptools writes build/ and *.egg-info into the source folder: build from a copy.
  const stage = join(work, "sdk-python");
  cpSync(join(root, "sdk", "python"), stage, {
    recursive: true,
    filter: (p) => !/__pycache__|\.egg-info|[/\\]build$/.test(p),
  });
  copyFileSync(join(stage, "pulumi_nsp", "README.md"), join(stage, "README.md"));
  run(python, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, stage]);
});

// --- the Go SDK: the module at the path the schema declares, with its own go.mod -----------------
timed("Go SDK module", () => {
  const modulePath = readJson("schema.json").language.go.importBasePath;
  const stage = join(work, "sdk-go");
  const mod = join(stage, "nsp");
  cpSync(join(root, "sdk", "go", "nsp"), mod, { recursive: true });
  const pulumiSdk = readJson("package.json").dependencies["@pulumi/pulumi"];
  writeFileSync(
    join(mod, "go.mod"),
    `module ${modulePath}\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiSdk}\n`,
  );
  // go.sum pins what the SDK imports; resolved from the Go module proxy, cached in GOMODCACHE.
  run("go", ["mod", "tidy"], {
    cwd: mod,
    env: { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" },
  });
  tarGz(stage, join(out, `pulumi-nsp-sdk-go-v${version}.tar.gz`), ["nsp"]);
});

// The changes and upgrade notes of every version, as a release file: the README and
// docs/upgrading.md send a user holding only the release files to it.
copyFileSync(join(root, "CHANGELOG.md"), join(out, "CHANGELOG.md"));

rmSync(work, { recursive: true, force: true });

const artifacts = readdirSync(out)
  .sort()
  .map((name) => ({ name, bytes: statSync(join(out, name)).size }));
const seconds = (Date.now() - started) / 1000;
writeFileSync(
  join(out, "manifest.json"),
  `${JSON.stringify({ version, pluginDownloadURL: readJson("schema.json").pluginDownloadURL, artifacts, seconds, steps: timings }, null, 2)}\n`,
);
writeStamp(root, RELEASE_STAMP, inputs, RELEASE_OUTPUTS);
for (const a of artifacts) step(`${a.name}  ${(a.bytes / 1024).toFixed(0)} KiB`);
step(`wrote ${artifacts.length} artifacts of ${version} to dist/release/ in ${seconds.toFixed(1)} s`);
