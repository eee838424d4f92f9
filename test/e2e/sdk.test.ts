// The schema and the SDKs, checked with the real pulumi CLI's own tools.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./harness";

const env = { ...process.env, PULUMI_HOME: mkdtempSync(join(tmpdir(), "nsp-sdk-home-")), PULUMI_SKIP_UPDATE_CHECK: "true" };

describe("schema.json and the generated SDKs", () => {
  it("binds in the CLI without warnings, for every language", () => {
    const out = mkdtempSync(join(tmpdir(), "nsp-sdk-"));
    for (const language of ["nodejs", "python", "go"]) {
      const run = spawnSync("pulumi", ["package", "gen-sdk", join(ROOT, "schema.json"), "--language", language, "--out", out], { cwd: ROOT, env, encoding: "utf8" });
      expect(run.status, `${run.error ?? ""} ${run.stderr}`).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/warning/i);
    }
  });

  it("sdk/nodejs, sdk/python and sdk/go are what gen-sdk makes of schema.json today", () => {
    const run = spawnSync("bash", [join(ROOT, "scripts/gen-sdks.sh"), "--check"], { cwd: ROOT, env, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
  });

  it("the plugin serves the same schema as schema.json", () => {
    const run = spawnSync("pulumi", ["package", "get-schema", join(ROOT, "bin/pulumi-resource-nsp")], { cwd: ROOT, env, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
  });

  it("sdk/nodejs compiles", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "sdk/nodejs"), "--noEmit"], { encoding: "utf8" });
    expect(run.status, run.stdout).toBe(0);
  });

  it("reads NSP_API_TOKEN and NSP_BASE_URL in every SDK", () => {
    const sources = ["sdk/nodejs/provider.ts", "sdk/python/pulumi_nsp/provider.py", "sdk/go/nsp/provider.go"].map((f) => readFileSync(join(ROOT, f), "utf8"));
    for (const source of sources) {
      expect(source).toMatch(/["']NSP_API_TOKEN["']/);
      expect(source).toMatch(/NSP_BASE_URL/);
    }
  });
});
