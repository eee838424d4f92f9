// The plugin archives of `npm run release` (dist/release), laid out as Pulumi expects: the
// executable at the archive's root (a .cmd launcher on Windows), the bundle and its schema beside
// it, and the version the plugin reports equal to package.json's.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { GetSchemaRequest, type GetSchemaResponse } from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, startPlugin } from "../helpers/plugin";
import { withoutExampleSections } from "../../scripts/schema-examples.mjs";

const version: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const release = join(ROOT, "dist", "release");
const unpacked: string[] = [];

afterAll(() => {
  for (const d of unpacked) rmSync(d, { recursive: true, force: true });
});

function unpack(archive: string): string {
  const dir = mkdtempSync(join(tmpdir(), "nsp-archive-"));
  unpacked.push(dir);
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return dir;
}

describe.each(["linux", "darwin", "windows"])("the %s plugin archives", (os) => {
  it.each(["amd64", "arm64"])(`%s: the launcher at the root, the bundle beside it`, (arch) => {
    const archive = join(release, `pulumi-resource-nsp-v${version}-${os}-${arch}.tar.gz`);
    const entries = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n");
    const launcher = os === "windows" ? "pulumi-resource-nsp.cmd" : "pulumi-resource-nsp";
    expect(entries).toContain(launcher);
    expect(entries).toContain("plugin/provider.mjs");
    expect(entries).toContain("plugin/schema.json");
    expect(entries).toContain("plugin/plugin.cjs");
    expect(entries).toContain("plugin/plugin.cjs.cache");
    // Only the launcher of its own OS, and no source maps or sources.
    expect(entries).not.toContain(os === "windows" ? "pulumi-resource-nsp" : "pulumi-resource-nsp.cmd");
    expect(entries.filter((e) => /\.(map|ts)$/.test(e))).toEqual([]);
    const dir = unpack(archive);
    if (os === "windows") {
      const cmd = readFileSync(join(dir, launcher), "utf8");
      expect(cmd).toContain("\r\n"); // cmd.exe reads batch files line by CRLF line
      expect(cmd).toContain('"%~dp0plugin\\provider.mjs"');
      // The floor of package.json's engines, as the POSIX launcher checks it.
      expect(cmd).toContain(
        `LSS ${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).engines.node.replace(">=", "")}`,
      );
    } else {
      expect(statSync(join(dir, launcher)).mode & 0o111).toBe(0o111);
    }
  });
});

describe("the release's CHANGELOG.md", () => {
  it("is the repository's, listed in the manifest, with a section for the release's version", () => {
    // The README and docs/upgrading.md send a reader with only the release files to it.
    expect(readFileSync(join(release, "CHANGELOG.md"), "utf8")).toBe(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"));
    const manifest = JSON.parse(readFileSync(join(release, "manifest.json"), "utf8")) as {
      artifacts: { name: string }[];
    };
    expect(manifest.artifacts.map((a) => a.name)).toContain("CHANGELOG.md");
    expect(readFileSync(join(release, "CHANGELOG.md"), "utf8")).toMatch(
      new RegExp(`^## ${version.replaceAll(".", "\\.")}$`, "m"),
    );
  });
});

describe("the unpacked linux-amd64 plugin", () => {
  it("reports package.json's version in GetPluginInfo, with nothing but Node.js beside it", async () => {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    // PATH holds node alone: the bundle must need nothing from a node_modules.
    const plugin = await startPlugin(
      { PATH: `${join(process.execPath, "..")}:/usr/bin:/bin`, NODE_PATH: "" },
      join(dir, "pulumi-resource-nsp"),
    );
    try {
      const info = await plugin.call<Empty, PluginInfo>("getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(version);
    } finally {
      await plugin.stop();
    }
  });

  /**
   * The unpacked linux-amd64 plugin, its plugin/ folder first changed by `change`: the schema it
   * serves after a Cancel, and what it wrote to stderr under NSP_DEBUG.
   */
  async function servedSchema(change: (pluginDir: string) => void): Promise<{ schema: unknown; stderr: string }> {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    change(join(dir, "plugin"));
    const plugin = await startPlugin(
      { PATH: `${join(process.execPath, "..")}:/usr/bin:/bin`, NODE_PATH: "", NSP_DEBUG: "1" },
      join(dir, "pulumi-resource-nsp"),
    );
    let schema: unknown;
    try {
      // The engine cancels every plugin it stops, this one before its provider ever loaded.
      await plugin.call("cancel", new Empty());
      schema = JSON.parse(
        (await plugin.call<GetSchemaRequest, GetSchemaResponse>("getSchema", new GetSchemaRequest())).getSchema(),
      );
    } finally {
      await plugin.stop();
    }
    return { schema, stderr: plugin.stderr() };
  }
  const schemaJson = () =>
    JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")) as {
      description: string;
      resources: Record<string, { description: string }>;
      functions: Record<string, { description: string }>;
    };
  // Under NSP_DEBUG the launcher names a code cache V8 refused; under its own flags V8 takes the one the release ships.
  const REFUSAL = /refused/;

  it("answers GetSchema with the schema.json beside the bundle as it stands, without building one", async () => {
    const marked = { ...schemaJson(), description: "read from the file beside the bundle" };
    const served = await servedSchema((plugin) => writeFileSync(join(plugin, "schema.json"), JSON.stringify(marked)));
    expect(served.schema).toEqual(marked);
    expect(served.stderr).not.toMatch(REFUSAL);
  });

  it(
    "without schema.json beside the bundle, serves the schema built from its definitions: schema.json but " +
      "for the examples, which only that file holds",
    async () => {
      const served = await servedSchema((plugin) => rmSync(join(plugin, "schema.json")));
      expect(served.schema).toEqual(withoutExampleSections(schemaJson()));
      expect(JSON.stringify(served.schema)).not.toContain("{{% examples %}}");
      expect(served.stderr).not.toMatch(REFUSAL);
    },
  );

  it("starts without the code cache, or with one V8 refuses, and says so under NSP_DEBUG", async () => {
    const uncached = await servedSchema((plugin) => rmSync(join(plugin, "plugin.cjs.cache")));
    expect(uncached.schema).toEqual(schemaJson());
    expect(uncached.stderr).not.toMatch(REFUSAL);
    const refused = await servedSchema((plugin) => writeFileSync(join(plugin, "plugin.cjs.cache"), "not a code cache"));
    expect(refused.schema).toEqual(schemaJson());
    expect(refused.stderr).toMatch(/V8 refused .*plugin\.cjs\.cache/);
  });

  it("says plainly that Node.js >= 22 is missing, before anything else", () => {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    // A PATH with the shell tools the launcher uses and no node (which lives in /usr/bin here).
    const tools = mkdtempSync(join(tmpdir(), "nsp-no-node-"));
    unpacked.push(tools);
    for (const tool of ["bash", "readlink", "dirname"]) {
      symlinkSync(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(tools, tool));
    }
    let stderr = "";
    try {
      execFileSync(join(dir, "pulumi-resource-nsp"), [], { env: { PATH: tools }, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      stderr = (e as { stderr: string }).stderr;
    }
    expect(stderr).toMatch(/Node\.js >= 22 is required but 'node' was not found on PATH/);
  });
});

describe("on a Node.js below package.json's engines floor", () => {
  // The last release of the line before the floor: what a machine that has not moved on runs.
  const OLD_NODE = "20.20.2";
  const floor = Number(/^>=(\d+)$/.exec(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).engines.node)![1]);
  const oldNode = () =>
    join(
      execFileSync("bash", [join(ROOT, "scripts", "install-node.sh"), OLD_NODE], { encoding: "utf8" }).trim(),
      "node",
    );

  /** Runs `argv`: its exit status, and what it wrote to stdout and to stderr. */
  function run(argv: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(argv[0]!, argv.slice(1), { env, encoding: "utf8", timeout: 30_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it.each(["emulator", "discover", "fleet"])(
    "nsp-%s from its package stops at once, naming the version it needs and the one it found",
    (tool) => {
      expect(Number(OLD_NODE.split(".")[0])).toBeLessThan(floor);
      const dir = unpack(join(release, `nsp-${tool}-${version}.tgz`));
      const launcher = join(dir, "package", "bin", `nsp-${tool}`);
      const old = run([oldNode(), launcher, "--help"], { PATH: "/usr/bin:/bin" });
      expect(old).toEqual({
        status: 1,
        stdout: "",
        stderr:
          `nsp-${tool}: Node.js >= ${floor} is required but this is Node.js v${OLD_NODE} (${oldNode()}); ` +
          `install Node.js ${floor} or later (https://nodejs.org)\n`,
      });
      // On this suite's Node.js (a tested one) the same file runs the tool.
      const current = run([process.execPath, launcher, "--help"], { PATH: "/usr/bin:/bin" });
      expect(current.status).toBe(0);
      expect(current.stdout + current.stderr).toMatch(new RegExp(`^usage: nsp-${tool} `, "im"));
    },
  );

  it("the plugin's launcher stops at once, naming the version it needs and the one on PATH", () => {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    expect(run([join(dir, "pulumi-resource-nsp")], { PATH: `${dirname(oldNode())}:/usr/bin:/bin` })).toEqual({
      status: 1,
      stdout: "",
      stderr: `pulumi-resource-nsp: Node.js >= ${floor} is required but 'node' on PATH is v${OLD_NODE} (${oldNode()}); install Node.js ${floor} or later\n`,
    });
  });
});
