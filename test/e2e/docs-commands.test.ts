// Every shell command that the README and docs/ show, run with bash exactly as printed, as a
// newcomer copies it: in a fresh directory outside the repository that holds the files of
// `npm run release` (as a download leaves them), with a fresh PULUMI_HOME and a file backend.
// The pages a reader follows top to bottom in one terminal (getting-started, the API page, and the
// fleet's in test/e2e/docs-fleet.test.ts) run as one script each: their shell blocks as printed, and each file they show written under the
// name printed above it. A command that cannot run here is listed below with the reason, so that
// a command added to a page is either run or explained, never skipped silently.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import {
  blocksOf,
  commandsOf,
  FLEET_PAGE,
  FLEET_PAGE_NOT_HERE,
  freePort,
  onPort as onPortOf,
  outputsByMarker,
  PAGES,
  scriptLines,
  VERSION,
} from "./harness/doc-pages";
import { GO_ENV, isRunning, pulumiEnv, ROOT } from "./harness/pulumi-cli";

const RELEASE_ARCH = process.platform === "linux" && process.arch === "x64" ? "linux-amd64" : undefined;
const PLUGIN_FROM_FILE = `pulumi plugin install resource nsp ${VERSION} --file pulumi-resource-nsp-v${VERSION}-linux-amd64.tar.gz`;
const EMULATOR_BLOCK = [
  "npx nsp-emulator --port 8787 --account ci=svc_0123456789abcdef0123456789abcdef &",
  "pulumi config set nsp:baseUrl http://127.0.0.1:8787/api/v1",
  "pulumi config set --secret nsp:apiToken svc_0123456789abcdef0123456789abcdef",
];
/** The README's adoption block, run as printed in the Pulumi YAML project it shows (but its `export` line, a placeholder). */
const DISCOVER_BLOCK = [
  "pulumi stack init dev",
  "npx nsp-discover --report left-out.json > import.json",
  "npx nsp-discover --import import.json --out Main.yaml",
  "pulumi preview --expect-no-changes",
];
/** The same import by hand (the README), and with --import (docs/guides/pulumi-do.md), in the reader's TypeScript project. */
const IMPORT_TS = [
  "PULUMI_SKIP_CHECKPOINTS=true pulumi import --file import.json --yes --skip-preview --out index.ts",
  "npx nsp-discover --import import.json --out index.ts",
];
/** docs/guides/pulumi-do.md: a function and a list, configured from the variables alone. */
const DO_BLOCK = ["pulumi do nsp:dns:getServices --type auth_dns", "pulumi do nsp:dns:Zone list --all"];
/** The pages run as one script each, top to bottom (see scriptOf). */
const GUIDE = "docs/guides/getting-started.md";
const API_PAGE = "docs/api.md";
/** The emulator moving-a-zone and the API page use: the guide's, started again. */
const GUIDE_EMULATOR = "npx nsp-emulator --port 8787 --account demo=svc_0123456789abcdef0123456789abcdef";
/** docs/guides/moving-a-zone.md, steps 2 and 3. */
const LOAD_BLOCK = [
  "zone=$(pulumi stack output zoneId)",
  "mode=preview",
  `jq -n --rawfile text example.com.zone --arg mode "$mode" '{text: $text, mode: $mode}' | curl -fsS -X ` +
    `POST -H "Authorization: Bearer $NSP_API_TOKEN" -H 'Content-Type: application/json' --data @- ` +
    `"$NSP_BASE_URL/dns/zones/$zone/import"`,
];
const ADOPT_BLOCK = [
  "npx nsp-discover --zone example.com --zone-records --type nsp:dns:ZoneRecords > import.json",
  "npx nsp-discover --import import.json --out records.yaml",
  "tail -n +2 records.yaml >> Pulumi.yaml",
  "pulumi preview --expect-no-changes",
];
/** Run below, in this order. */
const RUN = [
  PLUGIN_FROM_FILE,
  `npm install @pulumi/pulumi ./nsp-pulumi-${VERSION}.tgz`,
  `npm install @pulumi/pulumi ./nsp-pulumi-dynamic-${VERSION}.tgz`,
  `npm install --save-dev ./nsp-emulator-${VERSION}.tgz`,
  ...EMULATOR_BLOCK,
  `npm install --save-dev ./nsp-discover-${VERSION}.tgz`,
  ...DISCOVER_BLOCK,
  ...IMPORT_TS,
  ...DO_BLOCK,
  ...LOAD_BLOCK,
  ...ADOPT_BLOCK,
];

const PUBLISHED =
  "the published package: nothing is published from these machines (the README says so); its local-file " +
  "twin beside it is run";
const PLACEHOLDER = "a placeholder (`svc_...`, `PORT`, `<name>`) the reader replaces";
const NOT_HERE: Record<string, string> = {
  [`pulumi plugin install resource nsp ${VERSION}`]: PUBLISHED,
  "npm install @pulumi/pulumi @nsp/pulumi": PUBLISHED,
  "pip install pulumi_nsp": PUBLISHED,
  [`go get github.com/nsp-platform/pulumi-nsp/sdk/go/nsp@v${VERSION}`]: PUBLISHED,
  "npm install @pulumi/pulumi @nsp/pulumi-dynamic": PUBLISHED,
  "npm install --save-dev @nsp/emulator": PUBLISHED,
  "npm install --save-dev @nsp/discover": PUBLISHED,
  [`pip install ./pulumi_nsp-${VERSION}-py3-none-any.whl`]:
    "the README's form of the guide's Python step, which the guide's script runs in the project's virtual environment",
  [`mkdir -p third_party && tar -xzf pulumi-nsp-sdk-go-v${VERSION}.tar.gz -C third_party`]:
    "the README's form of the guide's Go step, which the guide's script runs (from the project folder, " +
    "`../` before the file)",
  "npm ci && npm run demo":
    "a contributor's command on a clone; the demo is the quickstart that test/e2e/yaml.test.ts runs",
  "npm ci && npm test": "a contributor's command on a clone: the whole suite, this test included",
  "pulumi config set --secret nsp:apiToken svc_...": PLACEHOLDER,
  "pulumi config set nsp:baseUrl http://127.0.0.1:PORT/api/v1": PLACEHOLDER,
  "export NSP_API_TOKEN=svc_... NSP_BASE_URL=https://.../api/v1": `${PLACEHOLDER}; the test sets both to the emulator's before the lines after it`,
  "export NSP_API_TOKEN=svc_...": PLACEHOLDER,
  "find <backend-dir> -name '*.attrs' -empty -delete": `${PLACEHOLDER}; the recovery after a killed up is test/e2e/interrupted.test.ts`,
  "pulumi cancel --yes":
    "needs a run killed outright; test/e2e/killed-run.test.ts kills `up` at three points and runs this recovery",
  "pulumi up --yes": "as above (test/e2e/killed-run.test.ts)",
  "npx nsp-emulator [--port N] [--account NAME=TOKEN ...] [--rate-limit PER_MINUTE] [--alternative NAME ...] [--outlive-parent]":
    "a synopsis of the options, not a command",
  "pulumi login --local":
    "logs in to the real ~/.pulumi (pulumi finds `~` in the user database, not in HOME), which a test " +
    "must not touch; the guide's script leaves it out and its stacks use their own file backend " +
    "(PULUMI_BACKEND_URL) instead",
  "pulumi config set --secret shopToken svc_...": PLACEHOLDER,
  "pulumi config set --secret blogToken svc_...": PLACEHOLDER,
  "pulumi preview --policy-pack policy":
    "needs the repository's examples/policy-pack (not a release file) with @pulumi/policy installed; " +
    "test/e2e/policy.test.ts runs previews with that pack",
  ...Object.fromEntries(
    [
      "pulumi do --stateless nsp:dns:Record create --zone-id <zoneId> --name www --type A --content 192.0.2.10 --yes",
      "pulumi do nsp:dns:Record list --zone-id <zoneId> --name www --all",
      "pulumi do nsp:dns:Record read <zoneId>/<recordId>",
      "pulumi do --stateless nsp:dns:Record patch <zoneId>/<recordId> --ttl 600 --yes",
      "pulumi do --stateless nsp:dns:Record delete <zoneId>/<recordId> --yes",
    ].map((c) => [c, `${PLACEHOLDER}; test/e2e/pulumi-do.test.ts runs each with a real zone and record`]),
  ),
  "npx nsp-discover --skip-tracked prod --with-state > import.json":
    "needs a stack named prod that manages part of the account; test/e2e/pulumi-do.test.ts runs it beside such a stack",
  ...FLEET_PAGE_NOT_HERE,
  "nsp-discover --pending-creates":
    "needs a run killed outright; test/e2e/killed-run.test.ts kills `up` at three points and runs this recovery",
};
if (!RELEASE_ARCH) NOT_HERE[PLUGIN_FROM_FILE] = "names the linux-amd64 archive, and this machine is not linux on x64";

/** The `n`th YAML block of a page: the program the guide has the reader save. */
function yamlOf(page: string, n: number): string {
  const blocks = [...readFileSync(join(ROOT, page), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)];
  return blocks[n]![1]!;
}

/** A BIND export as another provider gives it: its SOA and apex NS are ignored by the import. */
const ZONE_FILE = `$ORIGIN example.com.
$TTL 3600
@    IN SOA ns1.old-provider.net. hostmaster.example.com. 2024010101 7200 3600 1209600 3600
@    IN NS  ns1.old-provider.net.
@    IN A   192.0.2.1
www  IN CNAME example.com.
@    IN MX  10 mail.example.com.
`;

let dir: string;
/** The process group of the emulator block: npx and the emulator it starts. */
let emulatorGroup: number | undefined;
/** The process group of the guide's script (and the emulator it starts), then of the emulator after it. */
let guideGroup: number | undefined;
let guideEmulatorGroup: number | undefined;

/** Whether any process of the group is still running. */
const alive = (group: number) => isRunning(-group);

afterAll(() => {
  for (const group of [emulatorGroup, guideGroup, guideEmulatorGroup]) if (group && alive(group)) process.kill(-group);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts `command` in its own process group and resolves with the first line it prints. */
async function firstLineOf(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ group: number; line: string }> {
  const child = spawn("bash", ["-e", "-c", command], { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()).includes("\n") && resolve(stdout.split("\n")[0]!));
    child.on("exit", (code) => reject(new Error(`${command} exited ${code} before printing a line: ${stderr}`)));
  });
  return { group: child.pid!, line };
}

describe("the shell commands of the README and docs/", () => {
  it("each one runs here as printed, or is listed with the reason it cannot", async () => {
    const shown = new Set(PAGES.flatMap(commandsOf));
    // The pages run as one script each run every command they show, but the ones listed here.
    // The fleet's page runs in test/e2e/docs-fleet.test.ts, as one script but for FLEET_PAGE_NOT_HERE.
    const scripted = new Set([GUIDE, API_PAGE, FLEET_PAGE].flatMap(commandsOf));
    const unexplained = [...shown].filter((c) => !RUN.includes(c) && !(c in NOT_HERE) && !scripted.has(c));
    expect(unexplained, "commands on a page that this test neither runs nor explains").toEqual([]);
    // Nothing listed here that no page shows any more.
    expect([...RUN, ...Object.keys(NOT_HERE)].filter((c) => !shown.has(c))).toEqual([]);

    dir = mkdtempSync(join(tmpdir(), "nsp-docs-commands-"));
    const app = join(dir, "app");
    mkdirSync(app);
    cpSync(join(ROOT, "dist", "release"), app, { recursive: true, filter: (src) => !src.endsWith("manifest.json") });
    mkdirSync(join(dir, "home"));
    mkdirSync(join(dir, "backend"));
    // The reader's project: what the README assumes exists before its commands.
    writeFileSync(join(app, "Pulumi.yaml"), "name: app\nruntime: nodejs\n");
    writeFileSync(join(app, "index.ts"), "");
    const env = { ...pulumiEnv(join(dir, "home"), join(dir, "backend")), PULUMI_CONFIG_PASSPHRASE: "" };
    const bash = (command: string, extra: NodeJS.ProcessEnv = {}, cwd = app) => {
      const r = spawnSync("bash", ["-e", "-c", command], {
        cwd,
        env: { ...env, ...extra },
        encoding: "utf8",
        timeout: 600_000,
      });
      expect(r.status, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
      return r.stdout + r.stderr;
    };
    bash("pulumi stack init dev");
    // The commands as printed but for the emulator's port.
    const port = String(await freePort());
    const onPort = (command: string) => onPortOf(command, port);
    const baseUrl = `http://127.0.0.1:${port}/api/v1`;

    const runnable = RUN.filter((c) => !(c in NOT_HERE));
    for (const command of runnable.slice(0, runnable.indexOf(EMULATOR_BLOCK[0]!))) bash(command);
    if (RELEASE_ARCH)
      expect(bash("pulumi plugin ls")).toMatch(new RegExp(`nsp\\s+resource\\s+${VERSION.replaceAll(".", "\\.")}\\s`));

    // The emulator block as one script, as a CI step runs it; its first line leaves the emulator running.
    const block = spawn("bash", ["-e", "-c", EMULATOR_BLOCK.map(onPort).join("\n")], {
      cwd: app,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    emulatorGroup = block.pid;
    let stdout = "";
    let stderr = "";
    const ready = new Promise<void>((resolve) =>
      block.stdout.on("data", (d: Buffer) => (stdout += d.toString()).includes("\n") && resolve()),
    );
    block.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // "exit", not "close": the emulator the block leaves running holds the block's stdout open.
    const code = await new Promise<number | null>((resolve) => block.on("exit", resolve));
    expect(code, stderr).toBe(0);
    await ready;
    const printed = JSON.parse(stdout.split("\n")[0]!) as { baseUrl: string; accounts: Record<string, string> };
    expect(printed).toEqual({ baseUrl, accounts: { ci: "svc_0123456789abcdef0123456789abcdef" } });
    expect(bash("pulumi config get nsp:baseUrl").trim()).toBe(printed.baseUrl);

    bash(`npm install --save-dev ./nsp-discover-${VERSION}.tgz`);
    // An account with something to adopt: a zone with a record and a mail domain.
    const api = new EmulatorControl(printed.baseUrl, printed.accounts.ci!);
    const authDns = (await api.services()).find((s) => s.type === "auth_dns")!;
    const zone = await api.post<{ id: number }>("/dns/zones", { service_id: authDns.id, name: "docs.example" });
    await api.post(`/dns/zones/${zone.id}/records`, { name: "www", type: "A", content: "192.0.2.10" });
    await api.post("/mail/domains", { zone_id: zone.id, name: "docs.example" });
    // The `export` line of the block, with the emulator's values.
    const account = { NSP_API_TOKEN: printed.accounts.ci!, NSP_BASE_URL: printed.baseUrl };
    // The README's adoption block in the Pulumi YAML project it shows, made beside the installed nsp-discover.
    const adopted = join(app, "adopted");
    mkdirSync(adopted);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const adoption = readme.slice(readme.indexOf("## Adopting an existing account"));
    writeFileSync(join(adopted, "Pulumi.yaml"), /```yaml\n([\s\S]*?)```/.exec(adoption)![1]!);
    const outputs = DISCOVER_BLOCK.map((command) => bash(command, account, adopted));
    expect(readFileSync(join(adopted, "Main.yaml"), "utf8")).toContain("type: nsp:dns:Record");
    expect(outputs.at(-1)).toMatch(/\d+ unchanged/);
    expect(outputs.at(-1)).not.toMatch(/to (create|update|delete|replace)/);
    // By hand, then with --import again (a no-change import that writes the program), in the TypeScript project.
    bash(DISCOVER_BLOCK[1]!, account);
    for (const command of IMPORT_TS) bash(command, account);
    expect(bash("pulumi preview --expect-no-changes", account)).toMatch(/\d+ unchanged/);
    // docs/guides/pulumi-do.md: a function and a list with no program, from the same two variables.
    const [services, zones] = DO_BLOCK.map((command) => bash(command, account));
    expect(services).toContain("auth_dns");
    expect(zones).toContain(`"id": "${zone.id}"`);
    expect(existsSync(join(adopted, "left-out.json"))).toBe(true);
    expect(readFileSync(join(app, "index.ts"), "utf8")).toContain("new nsp.dns.Record(");

    // docs/guides/getting-started.md starts its own emulator on the same port: the block's one stops first.
    process.kill(-emulatorGroup!);
    while (alive(emulatorGroup!)) await new Promise((resolve) => setTimeout(resolve, 20));
    emulatorGroup = undefined;

    // The guide as one script, in a folder of its own holding the release files, with a
    // PULUMI_HOME of its own (the plugin from its archive): step 1, then for each language its
    // project and step 3, then step 4. PULUMI_SKIP_CONFIRMATIONS (pulumiEnv) answers the
    // questions of `up`, `refresh` and `destroy` as the reader does at a terminal.
    const guideBlocks = blocksOf(GUIDE);
    const languages = [...new Set(guideBlocks.filter((b) => b.h2.startsWith("2.")).map((b) => b.h3))];
    expect(languages).toEqual(["YAML", "TypeScript", "Python", "Go"]);
    const step = (n: string) => guideBlocks.filter((b) => b.h2.startsWith(`${n}.`)).map((b) => b.block);
    expect(
      guideBlocks.filter((b) => !/^[1-4]\./.test(b.h2)),
      "blocks outside the guide's four steps",
    ).toEqual([]);
    const leaveOut = ["pulumi login --local"];
    const script = [
      ...step("1").map((b, i) => scriptLines(`setup ${i}`, b, leaveOut)),
      ...languages.flatMap((language) => [
        ...guideBlocks.filter((b) => b.h3 === language).map((b, i) => scriptLines(`${language} project ${i}`, b.block)),
        ...step("3").map((b, i) => scriptLines(`${language} run ${i}`, b)),
      ]),
      ...step("4").map((b, i) => scriptLines(`stop ${i}`, b)),
    ].join("\n");
    const guideDir = join(dir, "guide");
    cpSync(join(ROOT, "dist", "release"), guideDir, {
      recursive: true,
      filter: (src) => !src.endsWith("manifest.json"),
    });
    mkdirSync(join(dir, "guide-home"));
    mkdirSync(join(dir, "guide-backend"));
    // The reader's terminal: this process's environment (its CA files for pip, Go's settings), a
    // PULUMI_HOME and backend of its own, nothing pointing nsp at an account.
    const { NSP_API_TOKEN: _token, NSP_BASE_URL: _url, ...terminal } = process.env;
    const guideEnv = {
      ...terminal,
      ...pulumiEnv(join(dir, "guide-home"), join(dir, "guide-backend")),
      PULUMI_CONFIG_PASSPHRASE: "",
      ...GO_ENV,
    };
    const guide = spawn("bash", ["-e", "-c", onPort(script)], {
      cwd: guideDir,
      env: guideEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    guideGroup = guide.pid;
    let guideOut = "";
    // When each language's project starts, for the log: the guide's cost per language.
    const startedAt = new Map<string, number>();
    guide.stdout.on("data", (d: Buffer) => {
      guideOut += d.toString();
      for (const m of guideOut.matchAll(/^@@ (\S+) project 0$/gm))
        if (!startedAt.has(m[1]!)) startedAt.set(m[1]!, Date.now());
    });
    guide.stderr.on("data", (d: Buffer) => (guideOut += d.toString()));
    const guideCode = await new Promise<number | null>((resolve) => guide.on("exit", resolve));
    const ended = Date.now();
    const seconds = [...startedAt.entries()].map(
      ([language, at], i, all) => `${language} ${(((all[i + 1]?.[1] ?? ended) - at) / 1000).toFixed(0)} s`,
    );
    process.stderr.write(`docs-commands: the guide, per language: ${seconds.join(", ")}\n`);
    expect(guideCode, guideOut).toBe(0);
    const out = outputsByMarker(guideOut);
    const readyLine = (out.get("setup 0") ?? "").split("\n").find((line) => line.startsWith('{"baseUrl"'));
    expect(JSON.parse(readyLine ?? "null"), out.get("setup 0")).toEqual({
      baseUrl,
      accounts: { demo: "svc_0123456789abcdef0123456789abcdef" },
    });
    for (const language of languages) {
      const run = (i: number) => out.get(`${language} run ${i}`) ?? "";
      const [upAndPreview, drift, destroy] = [run(0), run(1), run(2)];
      expect(upAndPreview, language).toMatch(/\+ 4 created/); // the stack, the zone and two records
      // The curl answers the changed record; a preview that reads the account first fails on the
      // drift; refresh takes it in; up puts 300 back.
      expect(drift, language).toMatch(/"ttl":900/);
      expect(drift, language).toMatch(/~ 1 to update/);
      expect(drift, language).toMatch(/^drift: exit code [1-9]\d*$/m);
      expect(drift.match(/~ 1 updated/g), `${language}: refresh, then up, each update the record`).toHaveLength(2);
      expect(destroy, language).toMatch(/- 4 deleted/);
    }
    // An install as printed warns of no engine on a supported Node.js (this suite runs on one).
    expect(guideOut).not.toContain("EBADENGINE");

    // YAML finds the plugin where the SDKs do, through the project's package declaration: on a
    // machine without the plugin, the engine looks for it in nsp's repository, and without the
    // declaration in pulumi/pulumi-nsp.
    const yamlProject = join(guideDir, "first-yaml");
    const noPlugin = {
      ...guideEnv,
      PULUMI_HOME: join(dir, "no-plugin-home"),
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    };
    const previewWithoutPlugin = () =>
      spawnSync("pulumi", ["preview", "--non-interactive", "--stack", "dev"], {
        cwd: yamlProject,
        env: noPlugin,
        encoding: "utf8",
        timeout: 300_000,
      });
    const declared = previewWithoutPlugin();
    expect(declared.status).not.toBe(0);
    expect(declared.stdout + declared.stderr).toContain("github://api.github.com/nsp-platform/pulumi-nsp");
    expect(declared.stdout + declared.stderr).not.toContain("pulumi/pulumi-nsp");
    rmSync(join(yamlProject, "nsp-package.yaml"));
    const undeclared = previewWithoutPlugin();
    expect(undeclared.stdout + undeclared.stderr).toContain("pulumi/pulumi-nsp");

    // The emulator of the guide again, for the API page and moving-a-zone.
    const started = await firstLineOf(onPort(GUIDE_EMULATOR), { cwd: app, env });
    guideEmulatorGroup = started.group;
    const demo = JSON.parse(started.line) as { baseUrl: string; accounts: Record<string, string> };
    expect(demo).toEqual({ baseUrl, accounts: { demo: "svc_0123456789abcdef0123456789abcdef" } });

    // docs/api.md as one script, its first line pointing at that emulator.
    const apiScript = blocksOf(API_PAGE)
      .map((b, i) => scriptLines(`api ${i}`, b.block))
      .join("\n");
    const apiOut = outputsByMarker(bash(onPort(apiScript), {}, app));
    expect([...apiOut.values()].join("")).toContain('{"id":2,"type":"auth_dns","name":"Authoritative DNS"}');
    const errors = [...apiOut.entries()].find(([, text]) => text.includes("unauthorized"))?.[1] ?? "";
    expect(errors).toContain('{"error":{"code":"unauthorized"');
    expect(errors).toContain('{"error":{"code":"not_found"');
    const all = [...apiOut.values()].join("");
    expect(all).toMatch(/"name":"www","ttl":900/);
    expect(all).toMatch(/"address":"alice@api-example.example","display":"Alice Liddell"/);
    expect(all).toMatch(/"field":"country","op":"in","value":"AQ","action":"challenge","enabled":true/);
    expect(all).toMatch(/"enabled":false/);
    const made = new EmulatorControl(demo.baseUrl, demo.accounts.demo!);
    expect((await made.list<{ name: string }>("/dns/zones")).map((z) => z.name)).not.toContain("api-example.example");

    // docs/guides/moving-a-zone.md against the same account, in a project of the reader's
    // beside the installed nsp-discover; the `export` line of the guide, with the emulator's values.
    const moved = join(app, "moved");
    mkdirSync(moved);
    writeFileSync(join(moved, "Pulumi.yaml"), yamlOf("docs/guides/moving-a-zone.md", 0));
    writeFileSync(join(moved, "example.com.zone"), ZONE_FILE);
    const inMoved = (command: string) =>
      bash(command, { NSP_API_TOKEN: demo.accounts.demo!, NSP_BASE_URL: demo.baseUrl }, moved);
    inMoved("pulumi stack init dev");
    inMoved("pulumi up");
    // The block, then its last command again with mode=apply, as its comment says.
    const loaded = inMoved([...LOAD_BLOCK, "mode=apply", LOAD_BLOCK.at(-1)!].join("\n"));
    expect(loaded).toContain('{"mode":"preview","added":3,"skipped":[]');
    expect(loaded).toContain('{"mode":"apply","added":3,"skipped":[]');
    for (const command of ADOPT_BLOCK) inMoved(command);
    expect(readFileSync(join(moved, "Pulumi.yaml"), "utf8")).toContain("type: nsp:dns:ZoneRecords");
  }, 1_200_000);
});
