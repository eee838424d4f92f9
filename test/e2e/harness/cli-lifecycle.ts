// The end-to-end scenario every example goes through with the real pulumi CLI, step by step.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorControl } from "../../helpers/emulator-control";
import { prepareProject, Stack, startEmulatorProcess, type EmulatorProcess } from "./pulumi-cli";

export interface LifecycleOptions {
  example: string;
  /** The zone the example's program creates. */
  zoneName: string;
  /** The program file that receives the code `pulumi import` generates. */
  programFile: string;
  /** Adds the code `pulumi import` generated to the program, as a user would. */
  addImported(program: string, generated: string): string;
  /** Checks that the program with the generated code compiles (throws if not). */
  compile?(dir: string): void;
  /** The www record the program makes: its content and TTL, restored by `up` after drift. */
  www: { content: string; ttl: number };
  /** A one-time secret output of the program (kept in state as a secret). */
  oneTimeSecret: string;
}

export function describeLifecycle(opts: LifecycleOptions): void {
  let emulator: EmulatorProcess;
  let api: EmulatorControl;
  let stack: Stack;
  let token: string;
  let zoneId: string;
  let originalProgram: string;
  const recordPath = (id: string) => `/dns/zones/${zoneId}/records/${id}`;

  beforeAll(async () => {
    emulator = await startEmulatorProcess();
    token = emulator.accounts.demo!;
    api = emulator.control();
    stack = await Stack.init(prepareProject(opts.example));
    await stack.useAccount(emulator.baseUrl, token);
  });

  afterAll(async () => {
    stack?.cleanup();
    await emulator?.stop();
  });

  describe(`examples/${opts.example} with the pulumi CLI`, () => {
    it("1. up, then preview --expect-no-changes", async () => {
      await stack.up();
      const out = await stack.outputs();
      zoneId = out.zoneId as string;
      expect(zoneId).toMatch(/^\d+$/);
      expect(out[opts.oneTimeSecret]).toBe("[secret]");
      expect((await api.get(`/dns/zones/${zoneId}`)).name).toBe(opts.zoneName);
      await stack.preview(["--expect-no-changes"]);
    });

    it("2. a change made through the API: refresh reports it, up puts it back", async () => {
      const wwwId = (await stack.outputs()).wwwId as string;
      await api.patch(recordPath(wwwId), { content: "203.0.113.99", ttl: 60 });
      const refresh = await stack.refresh();
      expect(refresh.stdout).toMatch(/~ 1 updated/);
      expect((await stack.preview(["--expect-no-changes"], true)).code).not.toBe(0);
      await stack.up();
      expect(await api.get(recordPath(wwwId))).toMatchObject(opts.www);
      await stack.preview(["--expect-no-changes"]);
    });

    it("3. a delete made through the API: refresh drops it, up recreates it", async () => {
      const before = await api.list<{ id: number; type: string; content: string }>(`/dns/zones/${zoneId}/records`);
      const txt = before.find((r) => r.type === "TXT")!;
      await api.delete(recordPath(String(txt.id)));
      const refresh = await stack.refresh();
      expect(refresh.stdout).toMatch(/- 1 deleted/);
      await stack.up();
      const after = await api.list<{ type: string; content: string }>(`/dns/zones/${zoneId}/records`);
      expect(after.filter((r) => r.type === "TXT").map((r) => r.content)).toEqual([txt.content]);
      await stack.preview(["--expect-no-changes"]);
    });

    it("4. pulumi import of an object made through the API; the generated code compiles and previews with no change", async () => {
      const made = await api.post<{ id: number }>(`/dns/zones/${zoneId}/records`, {
        name: "adopted",
        type: "A",
        content: "203.0.113.7",
        ttl: 900,
      });
      const out = join(stack.dir, "imported.txt");
      await stack.run(["import", "nsp:dns:Record", "adopted", `${zoneId}/${made.id}`, "--yes", "--out", out]);
      const generated = readFileSync(out, "utf8");
      expect(generated).toContain("203.0.113.7");
      const programPath = join(stack.dir, opts.programFile);
      originalProgram = readFileSync(programPath, "utf8");
      writeFileSync(programPath, opts.addImported(originalProgram, generated));
      opts.compile?.(stack.dir);
      await stack.preview(["--expect-no-changes"]);
    });

    it("5. destroy leaves the account without what the stack made", async () => {
      await stack.run(["state", "unprotect", "--all", "--yes"]);
      await stack.destroy();
      const zones = await api.list<{ name: string }>("/dns/zones");
      expect(zones.map((z) => z.name)).not.toContain(opts.zoneName);
      await expect(api.get(`/dns/zones/${zoneId}`)).rejects.toThrow(/404/);
    });

    it("6. no plaintext token or one-time secret in the state, config or logs", async () => {
      // Up again, without the imported record (its zone is gone), for a live one-time secret.
      writeFileSync(join(stack.dir, opts.programFile), originalProgram);
      await stack.up();
      const secret = (await stack.outputs(true))[opts.oneTimeSecret] as string;
      expect(secret.length).toBeGreaterThan(16);
      const logs = stack.log.filter((r) => !r.stdout.includes(secret)).map((r) => r.stdout + r.stderr);
      expect(stack.log.length - logs.length).toBe(1); // only the --show-secrets output shows it
      const everything = [stack.artefacts(), ...logs].join("\n");
      expect(everything).toContain("ciphertext");
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(secret);
      await stack.destroy();
    });
  });
}
