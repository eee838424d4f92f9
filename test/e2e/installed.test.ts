// nsp as a team installs it: in a fresh temporary directory outside the repository, with a fresh
// PULUMI_HOME, nothing but the artifacts of `npm run release` (dist/release, copied into the
// directory as a download would put them), no `plugins.providers` entry and no path into the
// repository in any file the user writes.
import { execFileSync, spawnSync } from "node:child_process";
import {
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
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const version: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const pulumiSdkVersion: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies[
  "@pulumi/pulumi"
];

let root: string; // the user's directory
let home: string; // the PULUMI_HOME the plugin is installed into
let downloads: string;
let emulator: EmulatorProcess;
let serviceId: string;
const stacks: Stack[] = [];
const written: string[] = []; // every file the user writes

/** The user's PATH: the pulumi CLI and its language hosts, node, go, python, and the system. */
function userPath(): string {
  const which = (tool: string) =>
    dirname(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim());
  const dirs = [which("pulumi"), which("node"), which("go"), which("python3"), "/usr/local/bin", "/usr/bin", "/bin"];
  return [...new Set(dirs)].filter((d) => !d.startsWith(ROOT)).join(":");
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  written.push(path);
}

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, PATH: userPath(), ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A stack of a project in the user's directory, with the given PULUMI_HOME. */
async function userStack(dir: string, pulumiHome?: string, env: NodeJS.ProcessEnv = {}): Promise<Stack> {
  const stack = await Stack.init(dir, {
    env: { PATH: userPath(), ...(pulumiHome ? { PULUMI_HOME: pulumiHome } : {}), ...env },
    sharedPlugin: false,
  });
  stacks.push(stack);
  await stack.useAccount(emulator.baseUrl, emulator.accounts.demo!, { serviceId });
  return stack;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "nsp-installed-"));
  home = join(root, "pulumi-home");
  downloads = join(root, "downloads");
  mkdirSync(home);
  cpSync(join(ROOT, "dist", "release"), downloads, { recursive: true });

  // 1. The plugin, from its archive, into PULUMI_HOME/plugins.
  sh(
    "pulumi",
    [
      "plugin",
      "install",
      "resource",
      "nsp",
      version,
      "--file",
      join(downloads, `pulumi-resource-nsp-v${version}-linux-amd64.tar.gz`),
    ],
    root,
    {
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    },
  );

  // The Node.js packages, installed once for the TypeScript and the dynamic programs below.
  write(
    join(root, "node", "package.json"),
    JSON.stringify({
      name: "nsp-installed",
      private: true,
      dependencies: {
        "@pulumi/pulumi": pulumiSdkVersion,
        "@nsp/pulumi": `file:../downloads/nsp-pulumi-${version}.tgz`,
        "@nsp/pulumi-dynamic": `file:../downloads/nsp-pulumi-dynamic-${version}.tgz`,
        "@nsp/emulator": `file:../downloads/nsp-emulator-${version}.tgz`,
        "@nsp/discover": `file:../downloads/nsp-discover-${version}.tgz`,
        "@nsp/fleet": `file:../downloads/nsp-fleet-${version}.tgz`,
        typescript: "^5.9.3",
        "@types/node": "^20.19.0",
      },
    }),
  );
  sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], join(root, "node"));

  // The emulator from its installed bin, as a user's CI starts it.
  emulator = await startEmulatorProcess([], join(root, "node", "node_modules", ".bin", "nsp-emulator"));
  const authDns = (await emulator.control().services()).find((s) => s.type === "auth_dns")!;
  serviceId = String(authDns.id);
}, 300_000);

afterAll(async () => {
  for (const s of stacks) s.cleanup();
  await emulator?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("nsp installed from its release, outside the repository", () => {
  it("1. `pulumi plugin install --file` puts the plugin in PULUMI_HOME/plugins", () => {
    const plugin = join(home, "plugins", `resource-nsp-v${version}`, "pulumi-resource-nsp");
    expect(statSync(plugin).mode & 0o111).toBe(0o111);
    const listed = JSON.parse(sh("pulumi", ["plugin", "ls", "--json"], root, { PULUMI_HOME: home })) as {
      name: string;
      kind: string;
      version: string;
    }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: "nsp", kind: "resource", version }));
  });

  it("2. TypeScript on the SDK tarball: up, no-change preview, nsp-discover, drift refresh, destroy; one @pulumi/pulumi", async () => {
    const copies = execFileSync(
      "find",
      [join(root, "node", "node_modules"), "-path", "*/@pulumi/pulumi/package.json"],
      { encoding: "utf8" },
    )
      .trim()
      .split("\n");
    expect(copies.map((p) => relative(root, p))).toEqual(["node/node_modules/@pulumi/pulumi/package.json"]);
    // JavaScript and declarations: nothing for the user to compile.
    const sdk = join(root, "node", "node_modules", "@nsp", "pulumi");
    expect(existsSync(join(sdk, "index.js")) && existsSync(join(sdk, "index.d.ts"))).toBe(true);
    expect(readdirSync(sdk).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

    const dir = join(root, "node", "ts");
    write(join(dir, "Pulumi.yaml"), "name: installed-ts\nruntime: nodejs\n");
    write(join(dir, "package.json"), JSON.stringify({ name: "installed-ts", private: true, main: "index.ts" }));
    write(
      join(dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as nsp from "@nsp/pulumi";',
        "const config = new pulumi.Config();",
        'const zone = new nsp.dns.Zone("zone", { serviceId: config.require("serviceId"), name: "installed-ts.example" });',
        'const www = new nsp.dns.Record("www", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.30", ttl: 300 });',
        "export const zoneId = zone.id;",
        "export const wwwTtl = www.ttl;",
        "",
      ].join("\n"),
    );
    const stack = await userStack(dir, home);
    await stack.up();
    const { zoneId } = await stack.outputs();
    const api = emulator.control();
    const records = () => api.list<{ id: number; name: string; ttl: number }>(`/dns/zones/${zoneId as string}/records`);
    const www = (await records()).find((r) => r.name === "www")!;
    expect(www.ttl).toBe(300);
    await stack.preview(["--expect-no-changes"]);

    // nsp-discover, from its installed bin, finds what the program made.
    const discover = join(root, "node", "node_modules", ".bin", "nsp-discover");
    const importFile = JSON.parse(
      sh(discover, [], root, { NSP_API_TOKEN: emulator.accounts.demo!, NSP_BASE_URL: emulator.baseUrl }),
    ) as { resources: { type: string; id: string }[] };
    expect(importFile.resources).toContainEqual(expect.objectContaining({ type: "nsp:dns:Zone", id: String(zoneId) }));
    expect(importFile.resources).toContainEqual(
      expect.objectContaining({ type: "nsp:dns:Record", id: `${String(zoneId)}/${www.id}` }),
    );

    await api.patch(`/dns/zones/${zoneId as string}/records/${www.id}`, { ttl: 900 });
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/~ 1 updated/);
    // A refresh rewrites the resources' state (the stack's outputs change only with the next up).
    const refreshed = (await stack.exportState()).deployment.resources.find((r) => r.type === "nsp:dns:Record")!;
    expect(refreshed.outputs!.ttl).toBe(900);

    await stack.destroy();
    expect((await api.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("installed-ts.example");
  });

  // Python on the wheel and Go on the SDK module, from the release files as a reader does: the
  // getting-started guide's script in test/e2e/docs-commands.test.ts runs both (up, no-change
  // preview, drift, refresh, up, destroy).

  it("3. YAML: the engine finds the plugin in PULUMI_HOME alone", async () => {
    const dir = join(root, "yaml");
    write(
      join(dir, "Pulumi.yaml"),
      [
        "name: installed-yaml",
        "runtime: yaml",
        "variables:",
        "  services:",
        "    fn::invoke:",
        "      function: nsp:dns:getServices",
        "      arguments:",
        "        type: auth_dns",
        "      return: services",
        "resources:",
        "  zone:",
        "    type: nsp:dns:Zone",
        "    properties:",
        "      serviceId: ${services[0].id}",
        "      name: installed-yaml.example",
        "outputs:",
        "  zoneId: ${zone.id}",
        "",
      ].join("\n"),
    );
    const stack = await userStack(dir, home);
    await stack.up();
    const { zoneId } = await stack.outputs();
    expect((await emulator.control().get(`/dns/zones/${zoneId as string}`)).name).toBe("installed-yaml.example");
    await stack.preview(["--expect-no-changes"]);
    await stack.destroy();
  });

  it("4. dynamic mode on the @nsp/pulumi-dynamic tarball, with no plugin installed at all", async () => {
    const dir = join(root, "node", "dynamic");
    write(join(dir, "Pulumi.yaml"), "name: installed-dynamic\nruntime: nodejs\n");
    write(join(dir, "package.json"), JSON.stringify({ name: "installed-dynamic", private: true, main: "index.ts" }));
    write(
      join(dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { dns } from "@nsp/pulumi-dynamic";',
        "const config = new pulumi.Config();",
        'const zone = new dns.Zone("zone", { serviceId: config.require("serviceId"), name: "installed-dynamic.example" });',
        'new dns.Record("www", { zoneId: zone.id, name: "www", type: "A", content: "192.0.2.33", ttl: 300 });',
        "export const zoneId = zone.id;",
        "",
      ].join("\n"),
    );
    const stack = await userStack(dir); // the stack's own, empty PULUMI_HOME
    await stack.up();
    expect(
      existsSync(join(stack.home, "plugins"))
        ? readdirSync(join(stack.home, "plugins")).filter((p) => p.includes("nsp"))
        : [],
    ).toEqual([]);
    const { zoneId } = await stack.outputs();
    expect((await emulator.control().get(`/dns/zones/${zoneId as string}`)).name).toBe("installed-dynamic.example");
    await stack.preview(["--expect-no-changes"]);
    await stack.destroy();
  });

  it("7. nsp-fleet from @nsp/fleet: its commands, the Operator's Stack objects, and a missing database named", () => {
    const fleet = join(root, "node", "node_modules", ".bin", "nsp-fleet");
    expect(sh(fleet, ["--help"], root)).toMatch(
      /enqueue \[--customers FILE\][\s\S]*worker \[--concurrency N\][\s\S]*status \[--run ID\][\s\S]*run --customers FILE[\s\S]*schedule add drift\|up[\s\S]*serve \[--port N\]/,
    );
    write(join(root, "fleet", "customers.json"), JSON.stringify([{ ref: "acme", zone: "acme.example" }]));
    // manifests runs in the customer project, whose Pulumi.yaml names the project the Stack objects run.
    write(join(root, "fleet", "Pulumi.yaml"), "name: customers\nruntime: nodejs\n");
    const manifests = sh(
      fleet,
      ["manifests", "--operator", "--customers", "customers.json", "--repo", "https://github.com/example/nsp"],
      join(root, "fleet"),
    );
    expect(manifests).toMatch(/^---\napiVersion: pulumi\.com\/v1\nkind: Stack\n[\s\S]*stack: acme\n/);
    expect(manifests).toContain("customers:customer");
    const r = spawnSync(fleet, ["status"], {
      cwd: root,
      env: { ...process.env, PATH: userPath(), FLEET_DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/FLEET_DATABASE_URL: not set/);
  });

  it("no file the user wrote mentions the repository or a plugin path", () => {
    const stackConfigs = stacks.flatMap((s) =>
      readdirSync(s.dir)
        .filter((f) => /^Pulumi\..+\.yaml$/.test(f))
        .map((f) => join(s.dir, f)),
    );
    const files = [...written, ...stackConfigs];
    expect(files.length).toBeGreaterThanOrEqual(11); // the TypeScript, YAML and dynamic projects, their stack configs
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toContain(ROOT);
      expect(text, file).not.toMatch(/^plugins:/m);
    }
    expect(relative(ROOT, root).startsWith("..")).toBe(true);
  });
});
