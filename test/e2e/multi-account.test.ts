// examples/multi-account: two explicit provider instances with two tokens, two emulator accounts.
import { afterAll, beforeAll, expect, it } from "vitest";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

let emulator: EmulatorProcess;
let stack: Stack;

beforeAll(async () => {
  emulator = await startEmulatorProcess(["--account", "a", "--account", "b"]);
  // Account a's token is a stack secret; account b's comes from the environment, which the
  // generated SDK reads for a provider given no token, so both paths are proven secret.
  stack = await Stack.init(prepareProject("multi-account"), { env: { NSP_API_TOKEN: emulator.accounts.b! } });
  await stack.setConfig("tokenA", emulator.accounts.a!, true);
  await stack.setConfig("baseUrl", emulator.baseUrl);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

it("manages a zone in each account, each seen only by its own token", async () => {
  await stack.up();
  const out = await stack.outputs();
  const a = emulator.control("a");
  const b = emulator.control("b");
  expect((await a.list<{ name: string }>("/dns/zones")).map((z) => z.name)).toEqual(["a.multi.example"]);
  expect((await b.list<{ name: string }>("/dns/zones")).map((z) => z.name)).toEqual(["b.multi.example"]);
  await expect(a.get(`/dns/zones/${out.zoneBId as string}`)).rejects.toThrow(/404/);
  await stack.preview(["--expect-no-changes"]);
  // A refused token: the error says which of the two provider instances it belongs to.
  const wrongToken = `svc_${"0refused9".repeat(4)}`;
  const refused = await stack.run(["preview"], { allowFailure: true, env: { NSP_API_TOKEN: wrongToken } });
  expect(refused.code).not.toBe(0);
  // Refused when the instance is configured, so the preview fails, naming the setting and the instance.
  expect(refused.stdout + refused.stderr).toMatch(
    /does not know the API token in the apiToken of this provider instance .*unauthorized: invalid or unknown bearer token.*\(provider "b"\)/,
  );
  expect(refused.stdout + refused.stderr).not.toContain('(provider "a")');
  expect(refused.stdout + refused.stderr).not.toContain(wrongToken);
  const state = JSON.stringify(await stack.exportState());
  expect(state).toContain("ciphertext");
  const everything = stack.artefacts() + stack.log.map((r) => r.stdout + r.stderr).join("\n");
  expect(everything).not.toContain(emulator.accounts.a!);
  expect(everything).not.toContain(emulator.accounts.b!);
  await stack.destroy();
  expect(await a.list("/dns/zones")).toEqual([]);
  expect(await b.list("/dns/zones")).toEqual([]);
});
