// Every example of schema.json, as a user would copy it from a registry page: each YAML program
// runs `up`, `preview --expect-no-changes` and `destroy` on its own fresh emulator account (one
// emulator, several stacks at a time); all TypeScript programs type-check against the generated
// SDK in one tsc run; all Python programs compile (python.test.ts runs one); all Go programs
// build and vet in one module.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { examplesOfSchema, type SchemaExample } from "./examples-of-schema";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness";

const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
const examples = examplesOfSchema(schema);
/** Stacks run at a time: each waits mostly on its CLI, plugin and language host processes. */
const CONCURRENCY = 4;

/** The name servers of the emulator's authoritative DNS service. */
const NAME_SERVERS = ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"];

/**
 * What the world outside the API does while an example's \`up\` runs, for the examples that wait
 * for it: the registrar delegates a zone, the hostname's DNS shows a site's CNAME. Runs until
 * \`done\` says the \`up\` ended.
 */
const WORLD: Record<string, (account: EmulatorControl, done: () => boolean) => Promise<void>> = {
  "nsp:dns:ZoneVerification": async (account) => {
    await account.setPublicDns("verified-example.example", NAME_SERVERS);
  },
  "nsp:cdn:SiteVerification": async (account, done) => {
    while (!done()) {
      const site = (await account.list<{ hostname: string; target: string | null }>("/cdn/sites")).find((s) => s.target);
      if (site) {
        await fetch(`${account.root}/_emulator/public-dns`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: site.hostname, cname: site.target }) });
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  },
};

const work = mkdtempSync(join(tmpdir(), "nsp-examples-"));
const fileOf = (e: SchemaExample, ext: string) => `${e.token.replace(/^nsp:/, "").replace(/:/g, "-")}-${e.index + 1}.${ext}`;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the examples of schema.json", () => {
  it("cover every resource and function, with four languages each", () => {
    const tokens = new Set(examples.map((e) => e.token));
    expect(tokens.size).toBeGreaterThan(0);
    for (const e of examples) expect(Object.keys(e.code).sort(), `${e.token} ${e.title}`).toEqual(["go", "python", "typescript", "yaml"]);
  });

  it("TypeScript: all of them type-check against the generated SDK (one tsc run)", () => {
    const dir = join(work, "typescript");
    mkdirSync(dir);
    for (const e of examples) writeFileSync(join(dir, fileOf(e, "ts")), e.code.typescript!);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true, noEmit: true, types: ["node"] }, include: ["*.ts"] }),
    );
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("Python: all of them compile", () => {
    const dir = join(work, "python");
    mkdirSync(dir);
    const files = examples.map((e) => join(dir, fileOf(e, "py").replace(/-/g, "_")));
    examples.forEach((e, i) => writeFileSync(files[i]!, e.code.python!));
    const run = spawnSync("python3", ["-m", "py_compile", ...files], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("Go: all of them build and vet in one module", () => {
    const dir = join(work, "go");
    const modulePath = "github.com/nsp-platform/pulumi-nsp/sdk/go/nsp";
    const pulumiSdk: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies["@pulumi/pulumi"];
    // The SDK as a module of its own, as the release packs it (scripts/release.mjs).
    cpSync(join(ROOT, "sdk/go/nsp"), join(dir, "sdk"), { recursive: true });
    writeFileSync(join(dir, "sdk", "go.mod"), `module ${modulePath}\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiSdk}\n`);
    writeFileSync(join(dir, "go.mod"), `module example.com/nsp-examples\n\ngo 1.24\n\nrequire (\n\t${modulePath} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${pulumiSdk}\n)\n\nreplace ${modulePath} => ./sdk\n`);
    for (const e of examples) {
      const pkg = join(dir, fileOf(e, "go").replace(/\.go$/, ""));
      mkdirSync(pkg);
      writeFileSync(join(pkg, "main.go"), e.code.go!);
    }
    const env = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" };
    const go = (...args: string[]) => execFileSync("go", args, { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
    go("mod", "tidy");
    go("build", "./...");
    go("vet", "./...");
    // A cold Go build cache compiles Pulumi's Go SDK first (minutes on a loaded 2-core machine).
  }, 1_200_000);

  describe("YAML: each runs up, a no-change preview and destroy on a fresh account", () => {
    let emulator: EmulatorProcess;
    let api: EmulatorControl;

    beforeAll(async () => {
      emulator = await startEmulatorProcess();
      api = emulator.control();
    });
    afterAll(async () => {
      await emulator?.stop();
    });

    it("all of them", async () => {
      const failures: string[] = [];
      const queue = [...examples];
      const runOne = async (e: SchemaExample) => {
        const token = await api.addAccount(`example-${fileOf(e, "").replace(/\W/g, "-").slice(0, 50)}`);
        const program = e.code.yaml!.replace(/^runtime: yaml\n/m, `runtime: yaml\nplugins:\n  providers:\n    - name: nsp\n      path: ${join(ROOT, "bin")}\n`);
        const stack = await Stack.init(Stack.yamlProject(program));
        try {
          await stack.setConfig("nsp:apiToken", token, true);
          await stack.setConfig("nsp:baseUrl", emulator.baseUrl);
          let upEnded = false;
          const world = WORLD[e.token]?.(new EmulatorControl(emulator.baseUrl, token), () => upEnded);
          await stack.up().finally(() => (upEnded = true));
          await world;
          await stack.preview(["--expect-no-changes"]);
          await stack.destroy();
        } catch (err) {
          failures.push(`${e.token} "${e.title}": ${(err as Error).message}`);
        } finally {
          stack.cleanup();
        }
      };
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let e = queue.shift(); e; e = queue.shift()) await runOne(e);
        }),
      );
      expect(failures).toEqual([]);
    }, 1_800_000);
  });
});
