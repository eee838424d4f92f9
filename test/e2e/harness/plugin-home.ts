// This tree's plugin, installed once for the run as a user installs a release archive, for the
// YAML programs of the stacks the harness makes.
//
// For a YAML program the engine needs the package's schema. From a plugin named by `path:` it asks
// for it in every command, from a plugin process started for that alone (0.17 CPU-s); an installed
// plugin's schema it keeps in PULUMI_HOME/schemas and reads from there. Each Stack's PULUMI_HOME
// links its plugins/ and schemas/ to the ones made here (pulumi-cli.ts), and Stack.yamlProgramText
// leaves out the `path:`. The archive is the one `scripts/release.mjs --if-stale` (the globalSetup
// before this one) made from this tree, so the plugin is this tree's.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..", "..");
const PLATFORMS: Record<string, string> = {
  "linux-x64": "linux-amd64",
  "linux-arm64": "linux-arm64",
  "darwin-x64": "darwin-amd64",
  "darwin-arm64": "darwin-arm64",
};

/** vitest globalSetup: installs the plugin and leaves the folder in NSP_E2E_PLUGIN_HOME. */
export default function setup(): (() => void) | undefined {
  const platform = PLATFORMS[`${process.platform}-${process.arch}`];
  const version = (require(join(ROOT, "package.json")) as { version: string }).version;
  const archive = platform && join(ROOT, "dist", "release", `pulumi-resource-nsp-v${version}-${platform}.tar.gz`);
  // Elsewhere the programs keep naming this tree's bin/ by path.
  if (!archive || !existsSync(archive)) return undefined;
  const home = mkdtempSync(join(tmpdir(), "nsp-e2e-plugin-home-"));
  writeFileSync(join(home, "logs"), "");
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
  const install = spawnSync(
    "pulumi",
    ["plugin", "install", "resource", "nsp", version, "--file", archive, "--non-interactive"],
    { env, encoding: "utf8" },
  );
  if (install.status !== 0) throw new Error(`pulumi plugin install of ${archive} failed: ${install.stderr}`);
  // What the engine writes there after its first GetSchema: the plugin's schema as it serves it,
  // the schema.json beside its bundle (release-layout.test.ts checks that it serves that file).
  mkdirSync(join(home, "schemas"));
  copyFileSync(
    join(home, "plugins", `resource-nsp-v${version}`, "plugin", "schema.json"),
    join(home, "schemas", `nsp-${version}.json`),
  );
  process.env.NSP_E2E_PLUGIN_HOME = home;
  return () => rmSync(home, { recursive: true, force: true });
}
