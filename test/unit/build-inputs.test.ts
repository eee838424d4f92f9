// The build's staleness check (scripts/build-inputs.mjs) decides whether the tests may reuse
// dist/: every way the tree can differ from what was built must count as stale.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fingerprint, staleness, writeStamp } from "../../scripts/build-inputs.mjs";

const INPUTS = ["src", "package.json"];
const OUTPUTS = ["dist/out.js"];
const STAMP = "dist/stamp.json";
let root: string;

function write(rel: string, text: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "nsp-build-inputs-"));
  write("src/a.ts", "export const a = 1;\n");
  write("src/lib/b.ts", "export const b = 2;\n");
  write("package.json", "{}\n");
  write("dist/out.js", "built\n");
  writeStamp(root, STAMP, fingerprint(root, INPUTS), OUTPUTS);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("staleness of a build", () => {
  it("is fresh right after the build recorded its stamp", () => {
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toBeUndefined();
  });

  it("is stale without a stamp", () => {
    rmSync(join(root, STAMP));
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/no dist\/stamp.json/);
  });

  it("is stale when a source changes, even with its old modification time", () => {
    write("src/a.ts", "export const a = 3;\n");
    utimesSync(join(root, "src/a.ts"), new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/sources differ/);
  });

  it("is stale when a source is deleted or added", () => {
    rmSync(join(root, "src/lib/b.ts"));
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/sources differ/);
    write("src/lib/b.ts", "export const b = 2;\n");
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toBeUndefined();
    write("src/lib/c.ts", "");
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/sources differ/);
  });

  it("is stale when an output is edited or removed after the build", () => {
    write("dist/out.js", "edited\n");
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/outputs differ/);
    rmSync(join(root, "dist/out.js"));
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toMatch(/outputs differ/);
  });

  it("ignores generated folders inside sources (node_modules, bin, dist, build)", () => {
    write("src/node_modules/x.js", "");
    write("src/bin/x.js", "");
    write("src/build/x.js", "");
    expect(staleness(root, STAMP, INPUTS, OUTPUTS)).toBeUndefined();
  });
});
