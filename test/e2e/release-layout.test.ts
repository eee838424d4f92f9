// The plugin archives of `npm run release` (dist/release), laid out as Pulumi expects: the
// executable at the archive's root (a .cmd launcher on Windows), the bundle and its schema beside
// it, and the version the plugin reports equal to package.json's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { GetSchemaRequest, type GetSchemaResponse } from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, startPlugin } from "../helpers/plugin";

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
    // Only the launcher of its own OS, and no source maps or sources.
    expect(entries).not.toContain(os === "windows" ? "pulumi-resource-nsp" : "pulumi-resource-nsp.cmd");
    expect(entries.filter((e) => /\.(map|ts)$/.test(e))).toEqual([]);
    const dir = unpack(archive);
    if (os === "windows") {
      const cmd = readFileSync(join(dir, launcher), "utf8");
      expect(cmd).toContain("\r\n"); // cmd.exe reads batch files line by CRLF line
      expect(cmd).toContain('"%~dp0plugin\\provider.mjs"');
      expect(cmd).toMatch(/LSS 20/);
    } else {
      expect(statSync(join(dir, launcher)).mode & 0o111).toBe(0o111);
    }
  });
});

describe("the unpacked linux-amd64 plugin", () => {
  it("reports package.json's version in GetPluginInfo, with nothing but Node.js beside it", async () => {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    // PATH holds node alone: the bundle must need nothing from a node_modules.
    const plugin = await startPlugin({ PATH: `${join(process.execPath, "..")}:/usr/bin:/bin`, NODE_PATH: "" }, join(dir, "pulumi-resource-nsp"));
    try {
      const info = await plugin.call<Empty, PluginInfo>("getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(version);
    } finally {
      await plugin.stop();
    }
  });

  /** The schema the unpacked plugin serves, with the files `remove` names taken out of its plugin/ first. */
  async function servedSchema(remove: (file: string) => boolean): Promise<unknown> {
    const dir = unpack(join(release, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`));
    for (const f of readdirSync(join(dir, "plugin")).filter(remove)) rmSync(join(dir, "plugin", f));
    const plugin = await startPlugin({ PATH: `${join(process.execPath, "..")}:/usr/bin:/bin`, NODE_PATH: "" }, join(dir, "pulumi-resource-nsp"));
    try {
      await plugin.call("cancel", new Empty());
      return JSON.parse((await plugin.call<GetSchemaRequest, GetSchemaResponse>("getSchema", new GetSchemaRequest())).getSchema());
    } finally {
      await plugin.stop();
    }
  }

  it("answers Cancel and GetSchema from the schema.json beside the bundle, without loading the provider", async () => {
    // The provider's chunk is gone: a plugin that loaded it would fail the calls.
    expect(await servedSchema((f) => /^server-.*\.mjs$/.test(f))).toEqual(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
  });

  it("without schema.json beside the bundle, serves the same schema built from its definitions", async () => {
    expect(await servedSchema((f) => f === "schema.json")).toEqual(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
  });

  it("says plainly that Node.js >= 20 is missing, before anything else", () => {
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
    expect(stderr).toMatch(/Node\.js >= 20 is required but 'node' was not found on PATH/);
  });
});
