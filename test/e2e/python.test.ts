// examples/python (the generated Python SDK) driven by the real pulumi CLI against the emulator.
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { examplesOfSchema } from "./harness/examples-of-schema";
import {
  prepareProject,
  ROOT,
  Stack,
  startEmulatorProcess,
  treeSdkVirtualenv,
  type EmulatorProcess,
} from "./harness/pulumi-cli";

let emulator: EmulatorProcess;
let stack: Stack;
let venv: string;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  const dir = prepareProject("python");
  // The virtualenv the program's Pulumi.yaml names (`venv`), with Pulumi's SDK and the generated one.
  venv = treeSdkVirtualenv();
  symlinkSync(venv, join(dir, "venv"), "dir");
  stack = await Stack.init(dir);
  await stack.useAccount(emulator.baseUrl, emulator.accounts.demo!);
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
  expect(await api.get(`/dns/zones/${out.zoneId as string}/records/${out.wwwId as string}`)).toMatchObject({
    name: "www",
    content: "192.0.2.30",
    ttl: 300,
  });
  await stack.preview(["--expect-no-changes"]);
  await stack.destroy();
  expect((await api.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("python.example");
});

// test/e2e/examples.test.ts compiles every Python example of schema.json; this runs one, with the
// virtualenv above, on a fresh account.
it("runs the first Python example of nsp:dns:Zone's page: up, a no-change preview, destroy", async () => {
  const example = examplesOfSchema(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"))).find(
    (e) => e.token === "nsp:dns:Zone",
  )!;
  const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-python-example-"));
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    `name: zone-example\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\nplugins:\n  ` +
      `providers:\n    - name: nsp\n      path: ${join(ROOT, "bin")}\n`,
  );
  writeFileSync(join(dir, "__main__.py"), example.code.python!);
  const token = await emulator.control().addAccount("python-example");
  const api = new EmulatorControl(emulator.baseUrl, token);
  const exampleStack = await Stack.init(dir);
  try {
    await exampleStack.useAccount(emulator.baseUrl, token);
    await exampleStack.up();
    const { zoneId } = await exampleStack.outputs();
    expect((await api.get(`/dns/zones/${zoneId as string}`)).name).toBe("zone-example.example");
    await exampleStack.preview(["--expect-no-changes"]);
    await exampleStack.destroy();
  } finally {
    exampleStack.cleanup();
  }
});
