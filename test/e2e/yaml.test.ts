// examples/yaml driven by the real pulumi CLI against the emulator, step by step.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness";
import type { EmulatorControl } from "../helpers/emulator";

let emulator: EmulatorProcess;
let api: EmulatorControl;
let stack: Stack;
let token: string;
let zoneId: string;
let originalProgram: string;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  token = emulator.accounts.demo!;
  api = emulator.control();
  stack = await Stack.init(prepareProject("yaml"));
  await stack.setConfig("nsp:apiToken", token, true);
  await stack.setConfig("nsp:baseUrl", emulator.baseUrl);
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

const recordPath = (id: string) => `/dns/zones/${zoneId}/records/${id}`;

describe("examples/yaml with the pulumi CLI", () => {
  it("1. up, then preview --expect-no-changes", async () => {
    await stack.up();
    const out = await stack.outputs();
    zoneId = out.zoneId as string;
    expect(zoneId).toMatch(/^\d+$/);
    expect(out.tsigKey).toBe("[secret]");
    expect((await api.get(`/dns/zones/${zoneId}`)).name).toBe("yaml.example");
    expect(await api.list(`/dns/zones/${zoneId}/records`)).toHaveLength(3);
    await stack.preview(["--expect-no-changes"]);
  });

  it("2. a change made through the API: refresh reports it, up puts it back", async () => {
    const wwwId = (await stack.outputs()).wwwId as string;
    await api.patch(recordPath(wwwId), { content: "203.0.113.99", ttl: 60 });
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/~ 1 updated/);
    expect((await stack.preview(["--expect-no-changes"], true)).code).not.toBe(0);
    await stack.up();
    expect(await api.get(recordPath(wwwId))).toMatchObject({ content: "192.0.2.2", ttl: 600 });
    await stack.preview(["--expect-no-changes"]);
  });

  it("3. a delete made through the API: refresh drops it, up recreates it", async () => {
    const before = await api.list<{ id: number; type: string }>(`/dns/zones/${zoneId}/records`);
    const txt = before.find((r) => r.type === "TXT")!;
    await api.delete(recordPath(String(txt.id)));
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/- 1 deleted/);
    await stack.up();
    const after = await api.list<{ id: number; type: string; content: string }>(`/dns/zones/${zoneId}/records`);
    expect(after.filter((r) => r.type === "TXT").map((r) => r.content)).toEqual(["v=spf1 -all"]);
    await stack.preview(["--expect-no-changes"]);
  });

  it("4. pulumi import of an object made through the API; the generated code runs with no change", async () => {
    const made = await api.post<{ id: number }>(`/dns/zones/${zoneId}/records`, { name: "adopted", type: "A", content: "203.0.113.7", ttl: 900 });
    const out = join(stack.dir, "imported.yaml");
    await stack.run(["import", "nsp:dns:Record", "adopted", `${zoneId}/${made.id}`, "--yes", "--out", out]);
    const generated = readFileSync(out, "utf8");
    expect(generated).toMatch(/type: nsp:dns:Record/);
    expect(generated).toMatch(/content: 203\.0\.113\.7/);
    // Add the generated resource to the program, as the CLI tells a user to.
    originalProgram = readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8");
    const body = generated.slice(generated.indexOf("resources:") + "resources:".length).replace(/^\n+/, "");
    const program = readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8").replace(/^resources:\n/m, `resources:\n${body.trimEnd()}\n\n`);
    writeFileSync(join(stack.dir, "Pulumi.yaml"), program);
    await stack.preview(["--expect-no-changes"]);
  });

  it("5. destroy leaves the account without what the stack made", async () => {
    await stack.run(["state", "unprotect", "--all", "--yes"]);
    await stack.destroy();
    const zones = await api.list<{ name: string }>("/dns/zones");
    expect(zones.map((z) => z.name)).not.toContain("yaml.example");
    await expect(api.get(`/dns/zones/${zoneId}`)).rejects.toThrow(/404/);
  });

  it("6. no plaintext token or one-time secret in the state, config or logs", async () => {
    // Bring the stack up again (without the imported record, whose zone is gone) to have a live
    // one-time secret to look for.
    writeFileSync(join(stack.dir, "Pulumi.yaml"), originalProgram);
    await stack.up();
    const tsigKey = (await stack.outputs(true)).tsigKey as string;
    expect(tsigKey.length).toBeGreaterThan(16);
    const everything = [stack.artefacts(), ...stack.log.filter((r) => !r.stdout.includes('"tsigKey"')).map((r) => r.stdout + r.stderr)].join("\n");
    expect(everything).toContain("ciphertext");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(tsigKey);
    await stack.destroy();
  });
});
