// The whole suite runs on the first of package.json's testedNodeVersions (scripts/test.sh puts it
// on PATH). On each of the others, a smoke test from the release files alone: the packages
// installed as the pages print it (no engine warning), the emulator from its package, and the
// plugin from its archive through a YAML stack's up, no-change preview and destroy, with that
// Node.js first on PATH, so that the plugin, npm and the emulator all run on it.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { pulumiEnv, pulumiHome, ROOT } from "./harness/pulumi-cli";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  engines: { node: string };
  testedNodeVersions: string[];
};
const VERSION = pkg.version;
const OTHERS = execFileSync("bash", [join(ROOT, "scripts", "install-node.sh"), "others"], { encoding: "utf8" })
  .trim()
  .split("\n")
  .filter(Boolean);
const TOKEN = "svc_0123456789abcdef0123456789abcdef";

const dirs: string[] = [];
const emulators: number[] = [];
afterAll(() => {
  for (const group of emulators) {
    try {
      process.kill(-group);
    } catch {
      // already gone
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the supported Node.js versions", () => {
  it("package.json tests every version it lists, the oldest of them its engines floor", () => {
    expect(OTHERS).toEqual(pkg.testedNodeVersions.slice(1));
    const majors = pkg.testedNodeVersions.map((v) => Number(v.split(".")[0]));
    expect(pkg.engines.node).toBe(`>=${Math.min(...majors)}`);
    // The suite itself runs on the first (scripts/test.sh); this file runs on it too.
    if (process.env.NSP_TEST_RESULTS) expect(process.version).toBe(`v${pkg.testedNodeVersions[0]}`);
  });

  it.each(OTHERS)(
    "Node.js %s: the printed installs warn of no engine, and the plugin from its archive brings a YAML " +
      "stack up, previews no change and destroys it",
    async (nodeVersion) => {
      const nodeBin = execFileSync("bash", [join(ROOT, "scripts", "install-node.sh"), nodeVersion], {
        encoding: "utf8",
      }).trim();
      const dir = mkdtempSync(join(tmpdir(), `nsp-node-${nodeVersion}-`));
      dirs.push(dir);
      const app = join(dir, "app");
      cpSync(join(ROOT, "dist", "release"), app, { recursive: true, filter: (src) => !src.endsWith("manifest.json") });
      const which = (tool: string) =>
        dirname(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim());
      // That Node.js first; the system's node (another version, perhaps) only after it.
      const path = [...new Set([nodeBin, which("pulumi"), which("npm"), "/usr/local/bin", "/usr/bin", "/bin"])].join(
        ":",
      );
      const env = {
        ...pulumiEnv(pulumiHome(join(dir, "home")), join(dir, "backend")),
        PATH: path,
        PULUMI_CONFIG_PASSPHRASE: "",
      };
      mkdirSync(join(dir, "backend"));
      const bash = (command: string, cwd = app) => {
        const r = spawnSync("bash", ["-e", "-c", command], { cwd, env, encoding: "utf8", timeout: 600_000 });
        expect(r.status, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
        return r.stdout + r.stderr;
      };
      expect(bash("node --version").trim()).toBe(`v${nodeVersion}`);

      const installs = [
        `npm install @pulumi/pulumi ./nsp-pulumi-${VERSION}.tgz`,
        `npm install --save-dev ./nsp-emulator-${VERSION}.tgz`,
      ].map((c) => bash(c));
      for (const output of installs) expect(output).not.toContain("EBADENGINE");
      bash(`pulumi plugin install resource nsp ${VERSION} --file pulumi-resource-nsp-v${VERSION}-linux-amd64.tar.gz`);

      // The emulator from its package, on that Node.js, on a free port it picks itself.
      const emulator = spawn("bash", ["-c", `exec npx nsp-emulator --account smoke=${TOKEN}`], {
        cwd: app,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      emulators.push(emulator.pid!);
      let stderr = "";
      emulator.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        emulator.stdout.on("data", (d: Buffer) => (out += d.toString()).includes("\n") && resolve(out.split("\n")[0]!));
        emulator.on("exit", (code) => reject(new Error(`nsp-emulator exited ${code}: ${stderr}`)));
      });
      const { baseUrl } = JSON.parse(line) as { baseUrl: string };

      const project = join(app, "smoke");
      mkdirSync(project);
      writeFileSync(
        join(project, "Pulumi.yaml"),
        [
          "name: node-smoke",
          "runtime: yaml",
          "variables:",
          "  authDns:",
          "    fn::invoke:",
          "      function: nsp:dns:getServices",
          "      arguments: { type: auth_dns }",
          "      return: services",
          "resources:",
          "  zone:",
          "    type: nsp:dns:Zone",
          "    properties: { serviceId: '${authDns[0].id}', name: node-smoke.example }",
          "  www:",
          "    type: nsp:dns:Record",
          "    properties: { zoneId: '${zone.id}', name: www, type: A, content: 192.0.2.40, ttl: 300 }",
          "",
        ].join("\n"),
      );
      const inProject = (command: string) => bash(command, project);
      inProject("pulumi stack init smoke");
      inProject(`pulumi config set nsp:baseUrl ${baseUrl}`);
      inProject(`pulumi config set --secret nsp:apiToken ${TOKEN}`);
      inProject("pulumi up --yes");
      const api = new EmulatorControl(baseUrl, TOKEN);
      const zones = () => api.list<{ name: string }>("/dns/zones").then((all) => all.map((z) => z.name));
      expect(await zones()).toContain("node-smoke.example");
      inProject("pulumi preview --expect-no-changes");
      inProject("pulumi destroy --yes");
      expect(await zones()).not.toContain("node-smoke.example");
    },
    900_000,
  );
});
