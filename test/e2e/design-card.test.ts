// The design-card examples (mail, tunnel, PBX) with the real pulumi CLI: up, no change on a
// second preview or after a refresh, one-time secrets kept as secrets, destroy.
import { describe, expect, it } from "vitest";
import { emulatorOfFile, prepareProject, Stack } from "./harness/pulumi-cli";

const emulator = emulatorOfFile(["--rate-limit", "0"]);

/** Every string inside a value (a secret may be a map of passwords). */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}

describe.each([
  ["mail", ["appPassword"]],
  ["tunnel", ["credential"]],
  ["pbx", ["sipPasswords"]],
])("examples/%s", (example, secretOutputs) => {
  it("goes up, stays unchanged through a refresh, keeps its secrets, and is destroyed", async () => {
    const token = await emulator.process.control().addAccount(`example-${example}`);
    const stack = await Stack.init(prepareProject(example));
    emulator.stacks.push(stack);
    await stack.useAccount(emulator.process.baseUrl, token);
    await stack.up();
    const masked = await stack.outputs();
    const revealed = await stack.outputs(true);
    for (const key of secretOutputs) {
      expect(masked[key], key).toBe("[secret]");
      expect(JSON.stringify(revealed[key]).length, key).toBeGreaterThan(10);
    }
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh();
    await stack.preview(["--expect-no-changes"]);
    // No one-time secret reads back empty after the refresh.
    expect(await stack.outputs(true)).toEqual(revealed);
    const artefacts = stack.artefacts();
    for (const key of secretOutputs)
      for (const secret of leaves(revealed[key])) expect(artefacts.includes(secret), `${key} in plaintext`).toBe(false);
    await stack.destroy();
  });
});
