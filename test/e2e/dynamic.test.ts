// examples/dynamic (@nsp/pulumi-dynamic, every resource as a pulumi.dynamic.Resource) driven by
// the real pulumi CLI against the emulator, with no nsp plugin anywhere the engine could find it.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorControl } from "../helpers/emulator-control";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const ZONE = "dynamic.example";
// PATH without any directory that holds the plugin.
const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((d) => d && !existsSync(join(d, "pulumi-resource-nsp")))
  .join(delimiter);

let emulator: EmulatorProcess;
let api: EmulatorControl;
let stack: Stack;
let token: string;
let zoneId: string;
let wwwId: string;
let tsigKey: string;

type State = Awaited<ReturnType<Stack["exportState"]>>;
const recordPath = (id: string) => `/dns/zones/${zoneId}/records/${id}`;
const programPath = () => join(stack.dir, "index.ts");

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  token = emulator.accounts.demo!;
  api = emulator.control();
  const authDns = (await api.services()).find((s) => s.type === "auth_dns")!;
  stack = await Stack.init(prepareProject("dynamic"), { env: { PATH }, sharedPlugin: false });
  await stack.useAccount(emulator.baseUrl, token, { serviceId: String(authDns.id) });
});

afterAll(async () => {
  stack?.cleanup();
  await emulator?.stop();
});

describe("examples/dynamic: dynamic resources with the pulumi CLI, no plugin", () => {
  it("0. the nsp plugin is not reachable from the CLI's environment", () => {
    expect(spawnSync("which", ["pulumi-resource-nsp"], { env: { PATH } }).status).not.toBe(0);
    expect(spawnSync("which", ["pulumi"], { env: { PATH } }).status).toBe(0);
    expect(readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8")).not.toMatch(/plugins:/);
  });

  it("1. up creates the objects; preview --expect-no-changes", async () => {
    await stack.up();
    const out = await stack.outputs();
    zoneId = out.zoneId as string;
    wwwId = out.wwwId as string;
    expect(zoneId).toMatch(/^\d+$/);
    expect(out.tsigKey).toBe("[secret]");
    expect(out.status).toBe("pending");
    expect((await api.get(`/dns/zones/${zoneId}`)).name).toBe(ZONE);
    const records = await api.list<{ id: number; name: string; type: string; content: string; ttl: number }>(
      `/dns/zones/${zoneId}/records`,
    );
    expect(records.map((r) => [r.name, r.type, r.content]).sort()).toEqual([
      ["@", "TXT", "v=spf1 -all"],
      ["www", "A", "192.0.2.20"],
    ]);
    expect(await api.get(recordPath(wwwId))).toMatchObject({ content: "192.0.2.20", ttl: 600 });
    await stack.preview(["--expect-no-changes"]);
  });

  it("2. the state holds dynamic resources only, each with a small serialized provider", async () => {
    const state: State = await stack.exportState();
    const types = state.deployment.resources.map((r) => r.type);
    expect(types).toContain("pulumi-nodejs:dynamic/dns:Zone");
    expect(types.filter((t) => t === "pulumi-nodejs:dynamic/dns:Record")).toHaveLength(2);
    expect(types.filter((t) => t.startsWith("nsp:") || t === "pulumi:providers:nsp")).toEqual([]);
    for (const r of state.deployment.resources.filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/"))) {
      const provider = r.outputs!.__provider as string;
      expect(provider.length).toBeLessThan(4096);
      expect(provider).toContain('require("@nsp/pulumi-dynamic")');
      expect(provider).not.toContain(token);
      expect(r.inputs!.__provider).toBe(provider);
    }
    const transfer = state.deployment.resources.find((r) => r.type === "pulumi-nodejs:dynamic/dns:ZoneTransfer")!;
    // Declared secret in the definition: stored encrypted (additionalSecretOutputs).
    expect(JSON.stringify(transfer.outputs!.tsigKey)).toContain("ciphertext");
  });

  it("3. a change made through the API: refresh reports it, up puts it back", async () => {
    await api.patch(recordPath(wwwId), { content: "203.0.113.99", ttl: 60 });
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/~ 1 updated/);
    expect((await stack.preview(["--expect-no-changes"], true)).code).not.toBe(0);
    await stack.up();
    expect(await api.get(recordPath(wwwId))).toMatchObject({ content: "192.0.2.20", ttl: 600 });
    await stack.preview(["--expect-no-changes"]);
  });

  it("4. a delete made through the API: refresh drops it, up recreates it", async () => {
    const txt = (await api.list<{ id: number; type: string }>(`/dns/zones/${zoneId}/records`)).find(
      (r) => r.type === "TXT",
    )!;
    await api.delete(recordPath(String(txt.id)));
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/- 1 deleted/);
    await stack.up();
    const after = await api.list<{ type: string; content: string }>(`/dns/zones/${zoneId}/records`);
    expect(after.filter((r) => r.type === "TXT").map((r) => r.content)).toEqual(["v=spf1 -all"]);
    await stack.preview(["--expect-no-changes"]);
  });

  it("5. program changes: a TTL updates in place, a new name replaces the record", async () => {
    const original = readFileSync(programPath(), "utf8");
    writeFileSync(programPath(), original.replace("ttl: 600", "ttl: 900"));
    const update = await stack.up();
    expect(update.stdout).toMatch(/~ 1 updated/);
    expect((await stack.outputs()).wwwId).toBe(wwwId);
    expect(await api.get(recordPath(wwwId))).toMatchObject({ ttl: 900 });

    writeFileSync(programPath(), original.replace('name: "www"', 'name: "web"'));
    const replace = await stack.up();
    expect(replace.stdout).toMatch(/\+-1 replaced/);
    const newId = (await stack.outputs()).wwwId as string;
    expect(newId).not.toBe(wwwId);
    expect(await api.get(recordPath(newId))).toMatchObject({ name: "web", ttl: 600 });
    await expect(api.get(recordPath(wwwId))).rejects.toThrow(/404/);
    await stack.preview(["--expect-no-changes"]);
    tsigKey = (await stack.outputs(true)).tsigKey as string;
    expect(tsigKey.length).toBeGreaterThan(16);
  });

  it("6. destroy leaves the account without what the stack made", async () => {
    await stack.destroy();
    const zones = await api.list<{ name: string }>("/dns/zones");
    expect(zones.map((z) => z.name)).not.toContain(ZONE);
    await expect(api.get(`/dns/zones/${zoneId}`)).rejects.toThrow(/404/);
    const state: State = await stack.exportState();
    expect(state.deployment.resources ?? []).toEqual([]);
  });

  it("7. no plaintext token or one-time secret in the state, history, config or logs", () => {
    const logs = stack.log.filter((r) => !r.stdout.includes(tsigKey)).map((r) => r.stdout + r.stderr);
    expect(stack.log.length - logs.length).toBe(1); // only the --show-secrets output shows it
    const everything = [stack.artefacts(), ...logs].join("\n");
    expect(everything).toContain("ciphertext");
    expect(everything).toContain("pulumi-nodejs:dynamic/dns:Zone");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(tsigKey);
  });
});
