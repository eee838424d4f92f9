// Every example of schema.json, as a user would copy it from a registry page: all TypeScript
// programs type-check against the generated SDK in one tsc run; all Python programs compile
// (python.test.ts runs one); all Go programs are gofmt'd and build and vet as files of one
// package in one module. examples-run.test.ts runs every YAML program.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { examplesOfSchema, type SchemaExample } from "./harness/examples-of-schema";
import { GO_ENV, ROOT } from "./harness/pulumi-cli";

const schema = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
const examples = examplesOfSchema(schema);
const work = mkdtempSync(join(tmpdir(), "nsp-examples-"));
const fileOf = (e: SchemaExample, ext: string) =>
  `${e.token.replace(/^nsp:/, "").replace(/:/g, "-")}-${e.index + 1}.${ext}`;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the examples of schema.json", () => {
  it("cover every resource and function, with four languages each", () => {
    const tokens = new Set(examples.map((e) => e.token));
    expect(tokens.size).toBeGreaterThan(0);
    for (const e of examples)
      expect(Object.keys(e.code).sort(), `${e.token} ${e.title}`).toEqual(["go", "python", "typescript", "yaml"]);
  });

  it("TypeScript: all of them type-check against the generated SDK (one tsc run)", () => {
    const dir = join(work, "typescript");
    mkdirSync(dir);
    for (const e of examples) writeFileSync(join(dir, fileOf(e, "ts")), e.code.typescript!);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "commonjs",
          moduleResolution: "node",
          esModuleInterop: true,
          skipLibCheck: true,
          noEmit: true,
          types: ["node"],
        },
        include: ["*.ts"],
      }),
    );
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], {
      encoding: "utf8",
    });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("Python: all of them compile", () => {
    const dir = join(work, "python");
    mkdirSync(dir);
    const files = examples.map((e) => join(dir, fileOf(e, "py").replace(/-/g, "_")));
    examples.forEach((e, i) => {
      writeFileSync(files[i]!, e.code.python!);
    });
    const run = spawnSync("python3", ["-m", "py_compile", ...files], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("Go: all of them build and vet in one module", () => {
    const dir = join(work, "go");
    const modulePath = "github.com/nsp-platform/pulumi-nsp/sdk/go/nsp";
    const pulumiSdk: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies[
      "@pulumi/pulumi"
    ];
    // The SDK as a module of its own, as the release packs it (scripts/release.mjs).
    cpSync(join(ROOT, "sdk/go/nsp"), join(dir, "sdk"), { recursive: true });
    writeFileSync(
      join(dir, "sdk", "go.mod"),
      `module ${modulePath}\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiSdk}\n`,
    );
    writeFileSync(
      join(dir, "go.mod"),
      `module example.com/nsp-examples\n\ngo 1.24\n\nrequire (\n\t${modulePath} ` +
        `v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${pulumiSdk}\n)\n\nreplace ${modulePath} => ./sdk\n`,
    );
    // All examples as files of one main package, so Go links one binary instead of one per
    // example. Imports belong to a file, so each file compiles as printed but for one change:
    // its `func main()` gets a name of its own, and the package's main calls none of them.
    const examplesDir = join(dir, "examples");
    mkdirSync(examplesDir);
    examples.forEach((e, i) => {
      const program = e.code.go!;
      expect(program.match(/^func main\(\) \{$/gm), `${e.token} "${e.title}": one func main()`).toHaveLength(1);
      writeFileSync(
        join(examplesDir, fileOf(e, "go").replace(/-/g, "_")),
        program.replace(/^func main\(\) \{$/m, `func example${i}() {`),
      );
    });
    writeFileSync(join(examplesDir, "main.go"), "package main\n\nfunc main() {}\n");
    // As `go fmt` would leave a user's copy (the renamed main changes no layout).
    expect(execFileSync("gofmt", ["-l", examplesDir], { encoding: "utf8" })).toBe("");
    const env = { ...process.env, ...GO_ENV };
    const go = (...args: string[]) => execFileSync("go", args, { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
    go("mod", "tidy");
    go("build", "-o", join(dir, "examples.bin"), "./examples");
    go("vet", "./examples");
    // A cold Go build cache compiles Pulumi's Go SDK first (minutes on a loaded 2-core machine);
    // the cache is Go's default (GOCACHE, GOMODCACHE), shared by every run.
  }, 1_200_000);
});
