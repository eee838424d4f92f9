// Every YAML example of schema.json, as a user would copy it from a registry page: each runs
// `up`, `preview --expect-no-changes` and `destroy` on its own fresh emulator account, with only
// NSP_BASE_URL and NSP_API_TOKEN set. One emulator; several stacks at a time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { NAME_SERVERS } from "./every-resource-table";
import { examplesOfSchema, type SchemaExample } from "./examples-of-schema";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness";

const examples = examplesOfSchema(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
const nameOf = (e: SchemaExample) => `${e.token.replace(/^nsp:/, "").replace(/:/g, "-")}-${e.index + 1}`;

/** Stacks run at a time: each waits mostly on its CLI, plugin and language host processes. */
const CONCURRENCY = 4;

/**
 * What the world outside the API does while an example's \`up\` runs, for the examples that wait
 * for it: the registrar delegates a zone, the hostname's DNS shows a site's CNAME. Runs until
 * \`done\` says the \`up\` ended.
 */
const WORLD: Record<string, (account: EmulatorControl, done: () => boolean) => Promise<void>> = {
  "nsp:dns:ZoneVerification": async (account) => {
    await account.setPublicDns("verified-example.example", NAME_SERVERS);
  },
  "nsp:cdn:SiteVerification": async (account, done) => {
    while (!done()) {
      const site = (await account.list<{ hostname: string; target: string | null }>("/cdn/sites")).find((s) => s.target);
      if (site) {
        await fetch(`${account.root}/_emulator/public-dns`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: site.hostname, cname: site.target }) });
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  },
};

describe("YAML examples: each runs up, a no-change preview and destroy on a fresh account", () => {
  let emulator: EmulatorProcess;
  let api: EmulatorControl;

  beforeAll(async () => {
    emulator = await startEmulatorProcess();
    api = emulator.control();
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("all of them", async () => {
    const failures: string[] = [];
    const queue = [...examples];
    const runOne = async (e: SchemaExample) => {
      const token = await api.addAccount(`example-${nameOf(e)}`);
      const program = e.code.yaml!.replace(/^runtime: yaml\n/m, `runtime: yaml\nplugins:\n  providers:\n    - name: nsp\n      path: ${join(ROOT, "bin")}\n`);
      // The two settings as environment variables, which explicit provider instances read too
      // (partner mode's example), and which spare two CLI runs per example.
      const stack = await Stack.init(Stack.yamlProject(program), { env: { NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl } });
      try {
        let upEnded = false;
        const world = WORLD[e.token]?.(new EmulatorControl(emulator.baseUrl, token), () => upEnded);
        await stack.up().finally(() => (upEnded = true));
        await world;
        await stack.preview(["--expect-no-changes"]);
        await stack.destroy();
      } catch (err) {
        failures.push(`${e.token} "${e.title}": ${(err as Error).message}`);
      } finally {
        stack.cleanup();
      }
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) await runOne(e);
      }),
    );
    expect(failures).toEqual([]);
  }, 1_800_000);
});
