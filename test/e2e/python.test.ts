// examples/python (the generated Python SDK) driven by the real pulumi CLI against the emulator.
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { prepareProject, ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness";

let emulator: EmulatorProcess;
let stack: Stack;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  const dir = prepareProject("python");
  // The virtualenv the program's Pulumi.yaml names, with Pulumi's SDK and the generated one.
  execFileSync("python3", ["-m", "venv", join(dir, "venv")], { stdio: "pipe" });
  // pip builds in the source folder; a copy keeps build output out of the repository.
  const sdk = join(dir, "sdk-python");
  cpSync(join(ROOT, "sdk/python"), sdk, { recursive: true });
  execFileSync(join(dir, "venv/bin/pip"), ["install", "--quiet", "--disable-pip-version-check", "pulumi==3.259.0", sdk], { stdio: "pipe" });
  stack = await Stack.init(dir);
  await stack.setConfig("nsp:apiToken", emulator.accounts.demo!, true);
  await stack.setConfig("nsp:baseUrl", emulator.baseUrl);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

it("runs examples/python: up, a second preview with no change, destroy", async () => {
  await stack.up();
  const out = await stack.outputs();
  const api = emulator.control();
  expect((await api.get(`/dns/zones/${out.zoneId as string}`)).name).toBe("python.example");
  expect(await api.get(`/dns/zones/${out.zoneId as string}/records/${out.wwwId as string}`)).toMatchObject({ name: "www", content: "192.0.2.30", ttl: 300 });
  await stack.preview(["--expect-no-changes"]);
  await stack.destroy();
  expect((await api.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("python.example");
});
