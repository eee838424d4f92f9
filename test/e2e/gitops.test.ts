// examples/gitops: the pipeline's steps, run locally against the emulator by run-locally.sh.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./harness";

it("previews with the policy pack, ups, stays quiet, then raises the drift alarm after a change made outside the pipeline", () => {
  const run = spawnSync("bash", [join(ROOT, "examples/gitops/run-locally.sh")], { encoding: "utf8", timeout: 240_000 });
  const output = run.stdout + run.stderr;
  expect(run.status, output).toBe(0);
  expect(output).toMatch(/== preview: pulumi preview .*--policy-pack "\$POLICY_PACK"/);
  // The pull request's preview ran the policy pack, and the example's stack passes it.
  expect(output).toMatch(/Policy Packs run:\s+Name\s+Version\s+nsp-guardrails\|local\|/);
  expect(output).toContain("== up: pulumi up");
  expect(output).toMatch(/== drift: pulumi refresh .*--expect-no-changes/);
  expect(output).toContain("the drift alarm fired, as it should");
  expect(output).toContain("== done");
});
