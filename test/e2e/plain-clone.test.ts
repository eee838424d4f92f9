// The README's test command must pass in a clone with nothing beside it. The project's own
// checkout has ../shared (the API documents, Pulumi's metaschema) beside the repository, which
// once made the unit tests read outside it unnoticed. This copies the repository's files (as a
// clone of the working tree would hold them) into a folder of their own and runs the unit tests
// there, with the packages of this tree's `npm ci` linked in, not installed again.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const parent = mkdtempSync(join(tmpdir(), "nsp-clone-"));
const copy = join(parent, "nsp");

afterAll(() => rmSync(parent, { recursive: true, force: true }));

interface JsonReport {
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numPassedTests: number;
  testResults: { name: string; assertionResults: { title: string; status: string }[] }[];
}

it("passes the unit tests in a copy of the repository with no ../shared beside it", () => {
  // Tracked files and new ones not ignored: what the tree would hold once committed and cloned.
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(copy, f));
  }
  // The packages of this tree's `npm ci`, each linked, in a node_modules of the copy's own: the
  // copy's build links its own @nsp packages there, and vitest keeps its cache there, neither of
  // which may reach this tree's.
  mkdirSync(join(copy, "node_modules"));
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry === "@nsp" || (entry.startsWith(".") && entry !== ".bin")) continue;
    symlinkSync(join(ROOT, "node_modules", entry), join(copy, "node_modules", entry));
  }
  expect(readdirSync(parent)).toEqual(["nsp"]);
  expect(existsSync(join(copy, "dist"))).toBe(false);

  // A vitest run inside this one would otherwise take this worker's settings as its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$)/.test(k)));
  const report = join(parent, "unit.json");
  const run = spawnSync(
    process.execPath,
    [
      join(copy, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "test/unit",
      "--reporter=dot",
      "--reporter=json",
      `--outputFile.json=${report}`,
    ],
    {
      cwd: copy,
      env,
      encoding: "utf8",
    },
  );
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);

  const result = JSON.parse(readFileSync(report, "utf8")) as JsonReport;
  const unitFiles = readdirSync(join(ROOT, "test", "unit")).filter((f) => f.endsWith(".test.ts"));
  expect(result.testResults.map((r) => r.name.slice(copy.length + 1)).sort()).toEqual(
    unitFiles.map((f) => `test/unit/${f}`).sort(),
  );
  expect({ failed: result.numFailedTests, skipped: result.numPendingTests, todo: result.numTodoTests }).toEqual({
    failed: 0,
    skipped: 0,
    todo: 0,
  });
  expect(result.numPassedTests).toBeGreaterThan(500);
  // The copies of what ../shared holds were what the tests used there.
  const titles = result.testResults.flatMap((r) => r.assertionResults.map((a) => a.title));
  expect(titles).toContain(
    "is the endpoint tables of both API documents (as the repository keeps them: no ../shared/api beside it)",
  );
  expect(titles).toContain(
    "validates against Pulumi's package metaschema (the repository's copy: no ../shared/pulumi beside it)",
  );
}, 120_000);
