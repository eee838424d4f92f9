// examples/gitops: the pipeline's steps, run locally against the emulator by run-locally.sh.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./harness";

it("previews, ups, stays quiet, then raises the drift alarm after a change made outside the pipeline", () => {
  const run = spawnSync("bash", [join(ROOT, "examples/gitops/run-locally.sh")], { encoding: "utf8", timeout: 240_000 });
  const output = run.stdout + run.stderr;
  expect(run.status, output).toBe(0);
  expect(output).toContain("== preview: pulumi preview");
  expect(output).toContain("== up: pulumi up");
  expect(output).toMatch(/== drift: pulumi refresh .*--expect-no-changes/);
  expect(output).toContain("the drift alarm fired, as it should");
  expect(output).toContain("== done");
});
