// Adds up vitest's JSON reports into the one closing line CI reads: "N passed, N failed", then on
// the same line each phase's time as scripts/test.sh recorded it (`--phases FILE`, lines of
// name TAB seconds, or name TAB "failed" for a phase that failed outside vitest).
//
// `--npm-ci` prints the phase line of the `npm ci` that ran just before, if one did: npm ci
// empties and recreates node_modules first and runs the build (its prepare) last, and the build
// records when it started and who ran it (dist/build-inputs.json). Nothing is printed when the
// last build was not npm's prepare or finished more than a minute ago.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const args = process.argv.slice(2);

if (args[0] === "--npm-ci") {
  try {
    const stamp = JSON.parse(readFileSync(join(root, "dist", "build-inputs.json"), "utf8"));
    const buildStart = Date.parse(stamp.startedAt);
    const buildEnd = buildStart + stamp.seconds * 1000;
    const installStart = statSync(join(root, "node_modules")).birthtimeMs;
    if (stamp.by === "prepare" && installStart > 0 && installStart <= buildStart && Date.now() - buildEnd < 60_000) {
      console.log(`npm ci\t${((buildEnd - installStart) / 1000).toFixed(1)}`);
    }
  } catch {
    // No build record or no birth time on this file system: the phase is not measured.
  }
  process.exit(0);
}

let phases = [];
const phasesAt = args.indexOf("--phases");
if (phasesAt >= 0) {
  const [, file] = args.splice(phasesAt, 2);
  try {
    phases = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("\t"));
  } catch {
    console.error(`no phase times at ${file}`);
  }
}

let passed = 0,
  failed = 0,
  skipped = 0;
for (const file of args) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    console.error(`no test report at ${file}; counting that run as failed`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  failed +=
    (report.numFailedTests ?? 0) +
    (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
// A phase that failed outside vitest (the typecheck) counts as one failed test.
failed += phases.filter(([, seconds]) => seconds === "failed").length;
const times = phases
  .map(([name, seconds]) => (seconds === "failed" ? `${name} failed` : `${name} ${seconds} s`))
  .join(", ");
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${times ? ` (${times})` : ""}`);
process.exit(failed > 0 ? 1 : 0);
