// Every YAML example of schema.json, as a user would copy it from a registry page: each runs
// `up`, `preview --expect-no-changes` and `destroy` on its own fresh emulator account. Most run
// several to a stack, each example's names prefixed and every one of its resources and invokes
// on an explicit provider of its own account, so one CLI run covers several examples; the
// examples that need the world outside the API or declare providers of their own run alone, with
// only NSP_BASE_URL and NSP_API_TOKEN set. One emulator; several stacks at a time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dump, load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { NAME_SERVERS } from "./harness/every-resource-table";
import { examplesOfSchema, type SchemaExample } from "./harness/examples-of-schema";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const examples = examplesOfSchema(JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8")));
const nameOf = (e: SchemaExample) => `${e.token.replace(/^nsp:/, "").replace(/:/g, "-")}-${e.index + 1}`;

/** Stacks run at a time: each waits mostly on its CLI, plugin and language host processes. */
const CONCURRENCY = 4;
/** Examples that share one stack: each still starts a plugin of its own per command. */
const BATCH_SIZE = 12;

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
      const site = (await account.list<{ hostname: string; target: string | null }>("/cdn/sites")).find(
        (s) => s.target,
      );
      if (site) {
        await fetch(`${account.root}/_emulator/public-dns`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: site.hostname, cname: site.target }),
        });
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  },
};

/** An example whose `up` the world outside the API takes part in, or which declares providers. */
const runsAlone = (e: SchemaExample) => e.token in WORLD || /type: pulumi:providers:nsp\b/.test(e.code.yaml!);

type Yaml = unknown;
type YamlMap = Record<string, Yaml>;
const isMap = (v: Yaml): v is YamlMap => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * One YAML program of several examples. Example i's resources, variables and outputs get the
 * prefix `e<i>` (so `zone` becomes `e3Zone`, and `${zone.id}` becomes `${e3Zone.id}`), and all of
 * its resources and invokes use the explicit provider `e<i>_account` holding its account's token.
 */
function batchProgram(members: { example: SchemaExample; token: string }[], baseUrl: string): string {
  const resources: YamlMap = {};
  const variables: YamlMap = {};
  const outputs: YamlMap = {};
  members.forEach(({ example, token }, i) => {
    const program = load(example.code.yaml!) as { resources?: YamlMap; variables?: YamlMap; outputs?: YamlMap };
    const own = new Set([...Object.keys(program.resources ?? {}), ...Object.keys(program.variables ?? {})]);
    const renamed = (name: string) => `e${i}${name[0]!.toUpperCase()}${name.slice(1)}`;
    const provider = `\${e${i}_account}`;
    const rewrite = (v: Yaml): Yaml => {
      if (typeof v === "string")
        return v.replace(/\$\{([A-Za-z_][\w]*)/g, (ref, name: string) => (own.has(name) ? `\${${renamed(name)}` : ref));
      if (Array.isArray(v)) return v.map(rewrite);
      if (!isMap(v)) return v;
      const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [rewrite(k) as string, rewrite(x)]));
      if (isMap(out["fn::invoke"]))
        out["fn::invoke"] = { ...out["fn::invoke"], options: { ...(out["fn::invoke"].options as YamlMap), provider } };
      return out;
    };
    resources[`e${i}_account`] = {
      type: "pulumi:providers:nsp",
      properties: { apiToken: { "fn::secret": token }, baseUrl },
    };
    for (const [name, resource] of Object.entries(program.resources ?? {})) {
      const r = rewrite(resource) as YamlMap;
      resources[renamed(name)] = { ...r, options: { ...(r.options as YamlMap), provider } };
    }
    for (const [name, variable] of Object.entries(program.variables ?? {}))
      variables[renamed(name)] = rewrite(variable);
    for (const [name, output] of Object.entries(program.outputs ?? {})) outputs[renamed(name)] = rewrite(output);
  });
  // This tree's plugin, as Stack.yamlProject places it (installed for the run, or by path).
  const plugins = { providers: [{ name: "nsp", path: "../../bin" }] };
  return dump({ name: "examples", runtime: "yaml", plugins, variables, resources, outputs }, { lineWidth: -1 });
}

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
    const alone = examples.filter(runsAlone);
    const shared = examples.filter((e) => !runsAlone(e));
    const queue: SchemaExample[][] = alone.map((e) => [e]);
    for (let i = 0; i < shared.length; i += BATCH_SIZE) queue.push(shared.slice(i, i + BATCH_SIZE));
    const runOne = async (e: SchemaExample) => {
      const token = await api.addAccount(`example-${nameOf(e)}`);
      const program = e.code.yaml!.replace(
        /^runtime: yaml\n/m,
        "runtime: yaml\nplugins:\n  providers:\n    - name: nsp\n      path: ../../bin\n",
      );
      // The two settings as environment variables, which explicit provider instances read too
      // (partner mode's example), and which spare two CLI runs per example.
      const stack = await Stack.init(Stack.yamlProject(program), {
        env: { NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl },
      });
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
    const runBatch = async (batch: SchemaExample[]) => {
      const members = await Promise.all(
        batch.map(async (example) => ({ example, token: await api.addAccount(`example-${nameOf(example)}`) })),
      );
      const stack = await Stack.init(Stack.yamlProject(batchProgram(members, emulator.baseUrl)));
      try {
        // Every example's resources and its account's provider, plus the stack itself.
        const expected =
          1 +
          members.reduce(
            (n, { example }) =>
              n + 1 + Object.keys((load(example.code.yaml!) as { resources?: YamlMap }).resources ?? {}).length,
            0,
          );
        const created = /\+ (\d+) created/.exec((await stack.up()).stdout)?.[1];
        if (Number(created) !== expected) throw new Error(`up created ${created} resources, expected ${expected}`);
        await stack.preview(["--expect-no-changes"]);
        await stack.destroy();
      } catch (err) {
        failures.push(`${batch.map((e, i) => `e${i}: ${e.token} "${e.title}"`).join(", ")}: ${(err as Error).message}`);
      } finally {
        stack.cleanup();
      }
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let batch = queue.shift(); batch; batch = queue.shift())
          await (batch.length === 1 && runsAlone(batch[0]!) ? runOne(batch[0]!) : runBatch(batch));
      }),
    );
    expect(failures).toEqual([]);
  }, 1_800_000);
});
