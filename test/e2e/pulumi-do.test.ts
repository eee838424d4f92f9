// The account through Pulumi's own commands, with no program: the real `pulumi do` of the pinned
// CLI, the plugin configured from NSP_API_TOKEN and NSP_BASE_URL alone. A function by name; the
// List of a zone of 1,200 records in the API's pages; read, create, patch and delete of a record
// (a secret output shown as a secret); and nsp-discover --skip-tracked --with-state next to a
// stack that manages half of an account, whose import file then imports with no reads.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount } from "../helpers/account-seed";
import type { EmulatorControl } from "../helpers/emulator-control";
import {
  lastJson,
  pulumiDo as runPulumiDo,
  pulumiEnv,
  pulumiHome,
  ROOT,
  Stack,
  startEmulatorProcess,
  type EmulatorProcess,
  type RunResult,
} from "./harness/pulumi-cli";

const execFileAsync = promisify(execFile);
const BIG = 1200;
const PAGE = 500;

let emulator: EmulatorProcess;
let api: EmulatorControl;
let token: string;
let bigZone: number;
let env: NodeJS.ProcessEnv;
let cwd: string;
const stacks: Stack[] = [];

/** `pulumi do` outside any project, configured by the environment only. */
function pulumiDo(args: string[]): Promise<RunResult> {
  return runPulumiDo(args, { cwd, env });
}

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  token = emulator.accounts.demo!;
  api = emulator.control();
  const home = pulumiHome(mkdtempSync(join(tmpdir(), "nsp-e2e-do-home-")));
  cwd = mkdtempSync(join(tmpdir(), "nsp-e2e-do-"));
  env = {
    ...pulumiEnv(home, mkdtempSync(join(tmpdir(), "nsp-e2e-do-state-"))),
    NSP_API_TOKEN: token,
    NSP_BASE_URL: emulator.baseUrl,
  };
  const service = (await api.services()).find((s) => s.type === "auth_dns")!.id;
  bigZone = (await api.post<{ id: number }>("/dns/zones", { service_id: service, name: "big-do.example" })).id;
  const lines = Array.from({ length: BIG }, (_, i) => `h${i} 300 IN A 192.0.2.${(i % 250) + 1}`);
  const imported = await api.post<{ added: number }>(`/dns/zones/${bigZone}/import`, {
    text: `${lines.join("\n")}\n`,
    mode: "apply",
  });
  expect(imported.added).toBe(BIG);
});

afterAll(async () => {
  for (const s of stacks) s.cleanup();
  await emulator?.stop();
});

describe("pulumi do with the plugin configured from NSP_* alone", () => {
  it("calls a function by name", async () => {
    const run = await pulumiDo(["--output", "json", "nsp:dns:getServices", "--type", "auth_dns"]);
    const { services } = lastJson<{ services: { type: string; name: string }[] }>(run.stdout);
    expect(services.map((s) => s.type)).toEqual(["auth_dns"]);
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it("lists a zone of 1,200 records with --all in ceil(1200/500) list requests and the token check", async () => {
    await api.resetStats();
    const all = lastJson<{ id: string; name: string }[]>(
      (await pulumiDo(["--output", "json", "nsp:dns:Record", "list", "--zone-id", String(bigZone), "--all"])).stdout,
    );
    const stats = await api.stats();
    expect(new Set(all.map((r) => r.id)).size).toBe(BIG);
    expect(all.find((r) => r.name === "h17-a")?.id).toMatch(new RegExp(`^${bigZone}/\\d+$`));
    expect(stats.byRoute["GET /dns/zones/:id/records"]).toBe(Math.ceil(BIG / PAGE));
    expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(Math.ceil(BIG / PAGE) + 1);
    console.log(
      `pulumi do nsp:dns:Record list --all of ${BIG} records: ${stats.total} requests (${JSON.stringify(stats.byRoute)})`,
    );
    // Without --all the CLI shows the first page only.
    const first = lastJson<unknown[]>(
      (await pulumiDo(["--output", "json", "nsp:dns:Record", "list", "--zone-id", String(bigZone)])).stdout,
    );
    expect(first).toHaveLength(PAGE);
  });

  it("creates, reads, patches and deletes a record, and shows a secret output as a secret", async () => {
    const count = async (run: () => Promise<RunResult>) => {
      await api.resetStats();
      const result = await run();
      return { result, stats: await api.stats() };
    };
    const created = await count(() =>
      pulumiDo([
        "--stateless",
        "--output",
        "json",
        "nsp:dns:Record",
        "create",
        "--zone-id",
        String(bigZone),
        "--name",
        "www",
        "--type",
        "A",
        "--content",
        "192.0.2.9",
        "--yes",
      ]),
    );
    const record = lastJson<{ id: string; ttl: number }>(created.result.stdout);
    expect(created.stats.mutating).toBe(1);
    const id = `${bigZone}/${record.id.split("/").pop()}`;
    // The record is found by List too, with the id read and patch take.
    const www = lastJson<{ id: string }[]>(
      (
        await pulumiDo([
          "--output",
          "json",
          "nsp:dns:Record",
          "list",
          "--zone-id",
          String(bigZone),
          "--name",
          "www",
          "--all",
        ])
      ).stdout,
    );
    expect(www.map((r) => r.id)).toEqual([id]);
    const read = await count(() => pulumiDo(["--output", "json", "nsp:dns:Record", "read", id]));
    expect(lastJson<{ content: string }>(read.result.stdout).content).toBe("192.0.2.9");
    expect(read.stats.mutating).toBe(0);
    const patched = await count(() =>
      pulumiDo(["--stateless", "--output", "json", "nsp:dns:Record", "patch", id, "--ttl", "600", "--yes"]),
    );
    expect(lastJson<{ ttl: number }>(patched.result.stdout).ttl).toBe(600);
    expect(patched.stats.byMethod.PATCH).toBe(1);
    const deleted = await count(() => pulumiDo(["--stateless", "nsp:dns:Record", "delete", id, "--yes"]));
    expect(deleted.stats.byMethod.DELETE).toBe(1);
    expect((await api.list<{ name: string }>(`/dns/zones/${bigZone}/records`)).some((r) => r.name === "www")).toBe(
      false,
    );
    console.log(
      `pulumi do record requests: create ${created.stats.total}, read ${read.stats.total}, patch ${patched.stats.total}, delete ${deleted.stats.total}`,
    );

    const key = await pulumiDo([
      "--stateless",
      "--output",
      "json",
      "nsp:vod:SigningKey",
      "create",
      "--note",
      "do-key",
      "--yes",
    ]);
    const shown = lastJson<{ id: string; secret: unknown }>(key.stdout);
    expect(shown.secret).toBe("[secret]");
    const { data } = await api.get<{ data: { id: string }[] }>("/vod/keys");
    expect(data.map((k) => k.id)).toContain(shown.id);
  });
});

describe("nsp-discover --skip-tracked", () => {
  it("leaves out what a stack manages: the file holds exactly the other half, which imports with no change", async () => {
    await seedAccount(api, { zones: 2, records: 6, prefix: "half" });
    const work = mkdtempSync(join(tmpdir(), "nsp-e2e-skip-"));
    const discoverIn = async (dir: string, args: string[], stackEnv: NodeJS.ProcessEnv) => {
      const run = await execFileAsync(
        process.execPath,
        [
          join(ROOT, "bin/nsp-discover"),
          "--type",
          "nsp:dns:*,nsp:mail:*",
          "--zone",
          "half0.example,half1.example",
          ...args,
        ],
        {
          cwd: dir,
          env: { ...stackEnv, NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl },
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      expect(run.stdout + run.stderr).not.toContain(token);
      return {
        file: JSON.parse(run.stdout) as { resources: { type: string; name: string; id: string }[] },
        stderr: run.stderr,
      };
    };
    const project = (name: string) => Stack.yamlProject(`${Stack.yamlPluginHead(name)}resources: {}\n`);
    const managing = await Stack.init(project("nsp-half-a"));
    stacks.push(managing);
    await managing.useAccount(emulator.baseUrl, token);
    const whole = (await discoverIn(managing.dir, [], managing.env)).file;
    const half = whole.resources.filter((_, i) => i % 2 === 0);
    const other = whole.resources.filter((_, i) => i % 2 === 1);
    writeFileSync(join(work, "half.json"), JSON.stringify({ resources: half }));
    await managing.run(["import", "--file", join(work, "half.json"), "--yes", "--skip-preview", "--protect=false"]);

    const { file, stderr } = await discoverIn(
      managing.dir,
      ["--skip-tracked", managing.stack, "--with-state"],
      managing.env,
    );
    const key = (r: { type: string; id: string }) => `${r.type} ${r.id}`;
    expect(file.resources.map(key).sort()).toEqual(other.map(key).sort());
    expect(stderr).toContain(`${half.length} objects left out because ${managing.stack} already manage them`);

    const adopting = await Stack.init(project("nsp-half-b"));
    stacks.push(adopting);
    await adopting.useAccount(emulator.baseUrl, token);
    writeFileSync(join(work, "other.json"), JSON.stringify(file));
    // --with-state: every entry without a secret carries its Read's state, and the import reads only those with one.
    const leftToRead = file.resources.filter((r) => !("outputs" in r));
    expect(stderr).toContain(
      `${file.resources.length - leftToRead.length} entries carry their state; ${leftToRead.length} left to the import's read`,
    );
    await api.resetStats();
    await adopting.run([
      "import",
      "--file",
      join(work, "other.json"),
      "--yes",
      "--skip-preview",
      "--protect=false",
      "--out",
      join(work, "other.yaml"),
    ]);
    const stats = await api.stats();
    expect(stats.mutating).toBe(0);
    expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(1 + leftToRead.length);
    console.log(
      `import of ${file.resources.length} objects with their state (${leftToRead.length} left to read): ` +
        `${stats.total} requests ${JSON.stringify(stats.byRoute)}`,
    );
    // The program the import wrote, run as the stack's program, changes nothing.
    writeFileSync(
      join(adopting.dir, "Pulumi.yaml"),
      `${Stack.yamlProgramText(Stack.yamlPluginHead("nsp-half-b"))}\n${readFileSync(join(work, "other.yaml"), "utf8")}`,
    );
    await adopting.preview(["--expect-no-changes"]);
  });
});
