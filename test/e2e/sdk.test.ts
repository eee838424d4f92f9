// The schema and the SDKs, checked with the real pulumi CLI's own tools, and each SDK's explicit
// provider taking its settings from the environment in a program the CLI runs.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  goProgram,
  PULUMI_SDK_VERSION,
  ROOT,
  Stack,
  startEmulatorProcess,
  treeSdkVirtualenv,
  type EmulatorProcess,
} from "./harness/pulumi-cli";

const env = {
  ...process.env,
  PULUMI_HOME: mkdtempSync(join(tmpdir(), "nsp-sdk-home-")),
  PULUMI_SKIP_UPDATE_CHECK: "true",
};

/** What `pulumi package gen-sdk` makes of schema.json for each language, generated once for the two tests below. */
let generated: { out: string; runs: Record<string, SpawnSyncReturns<string>> } | undefined;
function generateSdks() {
  if (generated) return generated;
  const out = mkdtempSync(join(tmpdir(), "nsp-sdk-"));
  const runs = Object.fromEntries(
    ["nodejs", "python", "go"].map((language) => [
      language,
      spawnSync("pulumi", ["package", "gen-sdk", join(ROOT, "schema.json"), "--language", language, "--out", out], {
        cwd: ROOT,
        env,
        encoding: "utf8",
      }),
    ]),
  );
  return (generated = { out, runs });
}

describe("schema.json and the generated SDKs", () => {
  it("binds in the CLI without warnings, for every language", () => {
    for (const run of Object.values(generateSdks().runs)) {
      expect(run.status, `${run.error ?? ""} ${run.stderr}`).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/warning/i);
    }
  });

  it("sdk/nodejs, sdk/python and sdk/go are what gen-sdk makes of schema.json today", () => {
    // What scripts/gen-sdks.sh --check compares, with the SDKs generated above.
    const { out } = generateSdks();
    const run = spawnSync(
      "diff",
      [
        "-r",
        "-q",
        out,
        join(ROOT, "sdk"),
        "--exclude=bin",
        "--exclude=node_modules",
        "--exclude=__pycache__",
        "--exclude=dynamic",
      ],
      { encoding: "utf8" },
    );
    expect(
      run.status,
      `the SDKs in sdk/ are stale against schema.json: run scripts/gen-sdks.sh\n${run.stdout}${run.stderr}`,
    ).toBe(0);
  });

  it("the plugin serves the same schema as schema.json", () => {
    const run = spawnSync("pulumi", ["package", "get-schema", join(ROOT, "bin/pulumi-resource-nsp")], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
  });

  it("sdk/nodejs compiles", () => {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "sdk/nodejs"), "--noEmit"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stdout).toBe(0);
  });
});

/**
 * One tiny program per SDK: an explicit provider given no settings at all, and a function call
 * through it. The plugin also falls back to the environment, so the call alone would not show
 * what the SDK did: the provider's inputs in the state are what the SDK sent the engine.
 */
const programs: Record<string, { runtime: string; prepare(dir: string): void }> = {
  nodejs: {
    runtime: "nodejs",
    prepare(dir) {
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "sdk-env", private: true, main: "index.js" }));
      writeFileSync(
        join(dir, "index.js"),
        [
          'const nsp = require("@nsp/pulumi");',
          'const fromEnv = new nsp.Provider("fromEnv");',
          'exports.services = nsp.dns.getServicesOutput({ type: "auth_dns" }, { provider: fromEnv }).services;',
          "",
        ].join("\n"),
      );
    },
  },
  python: {
    runtime: "python\n  options:\n    virtualenv: venv",
    prepare(dir) {
      symlinkSync(treeSdkVirtualenv(), join(dir, "venv"), "dir");
      writeFileSync(
        join(dir, "__main__.py"),
        [
          "import pulumi",
          "import pulumi_nsp as nsp",
          "",
          'from_env = nsp.Provider("fromEnv")',
          'found = nsp.dns.get_services_output(type="auth_dns", opts=pulumi.InvokeOutputOptions(provider=from_env))',
          'pulumi.export("services", found.services)',
          "",
        ].join("\n"),
      );
    },
  },
  go: {
    runtime: "go\n  options:\n    binary: ./sdk-env",
    prepare(dir) {
      const modulePath: string = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")).language.go.importBasePath;
      // The program and its modules in a folder of their own: goProgram keys its build on every
      // file there, and the project folder holds a Pulumi.yaml naming this checkout's path.
      const src = mkdtempSync(join(tmpdir(), "nsp-sdk-env-go-src-"));
      // The SDK as scripts/release.mjs ships it: the generated package with a go.mod of its own.
      const sdk = join(src, "sdk-go");
      mkdirSync(sdk);
      cpSync(join(ROOT, "sdk/go/nsp"), sdk, { recursive: true });
      writeFileSync(
        join(sdk, "go.mod"),
        `module ${modulePath}\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_VERSION}\n`,
      );
      writeFileSync(
        join(src, "go.mod"),
        `module example.com/sdk-env\n\ngo 1.24\n\nrequire (\n\t${modulePath} ` +
          `v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_VERSION}\n)\n\nreplace ${modulePath} => ./sdk-go\n`,
      );
      writeFileSync(
        join(src, "main.go"),
        [
          "package main",
          "",
          "import (",
          `\t"${modulePath}"`,
          `\t"${modulePath}/dns"`,
          '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
          ")",
          "",
          "func main() {",
          "\tpulumi.Run(func(ctx *pulumi.Context) error {",
          '\t\tfromEnv, err := nsp.NewProvider(ctx, "fromEnv", nil)',
          "\t\tif err != nil {",
          "\t\t\treturn err",
          "\t\t}",
          '\t\tfound := dns.GetServicesOutput(ctx, dns.GetServicesOutputArgs{Type: pulumi.String("auth_dns")}, ' +
            "pulumi.Provider(fromEnv))",
          '\t\tctx.Export("services", found.Services())',
          "\t\treturn nil",
          "\t})",
          "}",
          "",
        ].join("\n"),
      );
      // The same SDK and program as the last run: the binary that run built (goProgram).
      symlinkSync(goProgram("sdk-env", src), join(dir, "sdk-env"));
      rmSync(src, { recursive: true, force: true });
    },
  },
};

describe("an explicit provider given no settings takes NSP_API_TOKEN and NSP_BASE_URL from the environment, in every SDK", () => {
  let emulator: EmulatorProcess;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    emulator = await startEmulatorProcess();
  });

  afterAll(async () => {
    for (const s of stacks) s.cleanup();
    await emulator?.stop();
  });

  it.each(Object.keys(programs))(
    "%s",
    async (language) => {
      const program = programs[language]!;
      const dir = mkdtempSync(join(tmpdir(), `nsp-sdk-env-${language}-`));
      writeFileSync(
        join(dir, "Pulumi.yaml"),
        Stack.yamlProgramText(
          `name: sdk-env-${language}\nruntime:\n  name: ${program.runtime}\nplugins:\n  providers:\n    - name: nsp\n      path: ../../bin\n`,
        ),
      );
      program.prepare(dir);
      const token = emulator.accounts.demo!;
      // No nsp:* stack configuration: the settings are in the environment only.
      const stack = await Stack.init(dir, { env: { NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl } });
      stacks.push(stack);
      await stack.up();

      const state = JSON.parse((await stack.run(["stack", "export", "--show-secrets"])).stdout) as {
        deployment: { resources: { type: string; urn: string; inputs?: Record<string, unknown> }[] };
      };
      const provider = state.deployment.resources.find(
        (r) => r.type === "pulumi:providers:nsp" && r.urn.endsWith("::fromEnv"),
      );
      expect(provider, "the explicit provider in the state").toBeDefined();
      expect(plaintext(provider!.inputs!.apiToken)).toBe(token);
      expect(provider!.inputs!.baseUrl).toBe(emulator.baseUrl);
      // Kept as a secret in the state file itself.
      expect(JSON.stringify((await stack.exportState()).deployment)).not.toContain(token);

      // And the call through that provider reached the emulator with them.
      const services = (await stack.outputs()).services as { id: string | number }[];
      const expected = (await emulator.control().services())
        .filter((s) => s.type === "auth_dns")
        .map((s) => String(s.id));
      expect(services.map((s) => String(s.id)).sort()).toEqual(expected.sort());
      expect(expected.length).toBeGreaterThan(0);
      await stack.destroy();
      // A cold Go build cache compiles Pulumi's Go SDK first (minutes on a loaded 2-core machine).
    },
    900_000,
  );
});

/** A value of `pulumi stack export --show-secrets`: a secret is an envelope with its plaintext as JSON. */
function plaintext(value: unknown): unknown {
  if (value !== null && typeof value === "object" && "plaintext" in value)
    return JSON.parse((value as { plaintext: string }).plaintext);
  return value;
}
