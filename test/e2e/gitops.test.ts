// examples/gitops: the pipeline's steps, run locally against the emulator by run-locally.sh, with
// the emulator looked at between the steps (the script's checkpoints).
import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { ROOT } from "./harness/pulumi-cli";

interface Checkpoint {
  phase: string;
  api: EmulatorControl;
}

/** Runs run-locally.sh; `next()` waits for its next checkpoint, `resume()` lets it go on. */
function startPipeline() {
  const fifos = mkdtempSync(join(tmpdir(), "nsp-gitops-checkpoints-"));
  const at = join(fifos, "at");
  const go = join(fifos, "go");
  execFileSync("mkfifo", [at, go]);
  const child = spawn("bash", [join(ROOT, "examples/gitops/run-locally.sh")], {
    env: { ...process.env, GITOPS_CHECKPOINTS: fifos },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a failed check stops the script with its emulator and pulumi.
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number>((resolve) =>
    child.on("close", (code) => {
      // A checkpoint still awaited would block on the fifo forever: open its other end once.
      try {
        closeSync(openSync(at, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // nobody is waiting on it
      }
      resolve(code ?? -1);
    }),
  );
  return {
    output: () => output,
    exited,
    async next(): Promise<Checkpoint> {
      const line = (await readFile(at, "utf8")).trim();
      if (!line) throw new Error(`run-locally.sh ended (exit ${await exited}) before its next checkpoint:\n${output}`);
      const [phase, baseUrl, token] = line.split(" ");
      return { phase: phase!, api: new EmulatorControl(baseUrl!, token!) };
    },
    resume: () => writeFile(go, "\n"),
    cleanup() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
      rmSync(fifos, { recursive: true, force: true });
    },
  };
}

it(
  "previews with the policy pack and ups (the zone, its signing and www are in the API), stays quiet, " +
    "raises the drift alarm after a change made through the API, and converges again",
  async () => {
    const pipeline = startPipeline();
    try {
      // After preview, up and a quiet drift check: what the program declares is in the API.
      let at = await pipeline.next();
      expect(at.phase).toBe("deployed");
      const zones = (await at.api.list<{ id: number; name: string }>("/dns/zones")).filter(
        (z) => z.name === "gitops.example",
      );
      expect(zones).toHaveLength(1);
      const zonePath = `/dns/zones/${zones[0]!.id}`;
      expect(await at.api.get(`${zonePath}/dnssec`)).toMatchObject({ enabled: true });
      const records = () =>
        at.api.list<{ id: number; name: string; type: string; content: string }>(`${zonePath}/records`);
      const www = (await records()).filter((r) => r.name === "www" && r.type === "A");
      expect(www.map((r) => r.content)).toEqual(["192.0.2.50"]);
      const wwwPath = `${zonePath}/records/${www[0]!.id}`;
      await pipeline.resume();

      // The change the alarm is about is really in the API.
      at = await pipeline.next();
      expect(at.phase).toBe("changed-outside");
      expect(await at.api.get(wwwPath)).toMatchObject({ content: "203.0.113.66" });
      await pipeline.resume();

      // The alarm (a refresh that expects no changes) fired and changed nothing in the API.
      at = await pipeline.next();
      expect(at.phase).toBe("alarmed");
      expect(await at.api.get(wwwPath)).toMatchObject({ content: "203.0.113.66" });
      await pipeline.resume();

      // The next up put the same record back, and the alarm is quiet again.
      at = await pipeline.next();
      expect(at.phase).toBe("converged");
      expect(await at.api.get(wwwPath)).toMatchObject({ content: "192.0.2.50" });
      expect((await records()).filter((r) => r.name === "www").map((r) => r.id)).toEqual([www[0]!.id]);
      expect(await at.api.get(`${zonePath}/dnssec`)).toMatchObject({ enabled: true });
      await pipeline.resume();

      at = await pipeline.next();
      expect(at.phase).toBe("destroyed");
      expect((await at.api.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("gitops.example");
      await pipeline.resume();

      const code = await pipeline.exited;
      const output = pipeline.output();
      expect(code, output).toBe(0);
      expect(output).toMatch(/== preview: pulumi preview .*--policy-pack "\$POLICY_PACK"/);
      // The pull request's preview ran the policy pack, and the example's stack passes it.
      expect(output).toMatch(/Policy Packs run:\s+Name\s+Version\s+nsp-guardrails\|local\|/);
      expect(output).toContain("== up: pulumi up");
      expect(output).toMatch(/== drift: pulumi refresh .*--expect-no-changes/);
      expect(output).toContain("the drift alarm fired, as it should");
      expect(output).toContain("== done");
    } finally {
      pipeline.cleanup();
    }
  },
);
