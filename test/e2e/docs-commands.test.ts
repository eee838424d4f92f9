// Every shell command that the README and docs/ show, run with bash exactly as printed, as a
// newcomer copies it: in a fresh directory outside the repository that holds the files of
// `npm run release` (as a download leaves them), with a fresh PULUMI_HOME and a file backend.
// A command that cannot run here is listed below with the reason, so that a command added to
// a page is either run or explained, never skipped silently.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator";
import { pulumiEnv, ROOT } from "./harness";

const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The commands of the shell blocks of a page, one per line as printed (continuations joined). */
function commandsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  const out: string[] = [];
  for (const block of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, "");
    for (const line of joined.split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim();
      if (command && !command.startsWith("#")) out.push(command);
    }
  }
  return out;
}

// The pages show the version of package.json, as `npm run release` names its files.
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const RELEASE_ARCH = process.platform === "linux" && process.arch === "x64" ? "linux-amd64" : undefined;
const PLUGIN_FROM_FILE = `pulumi plugin install resource nsp ${VERSION} --file pulumi-resource-nsp-v${VERSION}-linux-amd64.tar.gz`;
const EMULATOR_BLOCK = [
  "npx nsp-emulator --port 8787 --account ci=svc_0123456789abcdef0123456789abcdef &",
  "pulumi config set nsp:baseUrl http://127.0.0.1:8787/api/v1",
  "pulumi config set --secret nsp:apiToken svc_0123456789abcdef0123456789abcdef",
];
const DISCOVER_BLOCK = ["npx nsp-discover --report left-out.json > import.json", "pulumi import --file import.json --yes --out index.ts", "pulumi preview --expect-no-changes"];
/** Run below, in this order. */
const RUN = [
  PLUGIN_FROM_FILE,
  `npm install @pulumi/pulumi ./nsp-pulumi-${VERSION}.tgz`,
  `npm install @pulumi/pulumi ./nsp-pulumi-dynamic-${VERSION}.tgz`,
  `npm install --save-dev ./nsp-emulator-${VERSION}.tgz`,
  ...EMULATOR_BLOCK,
  `npm install --save-dev ./nsp-discover-${VERSION}.tgz`,
  ...DISCOVER_BLOCK,
];

const PUBLISHED = "the published package: nothing is published from these machines (the README says so); its local-file twin beside it is run";
const PLACEHOLDER = "a placeholder (`svc_...`, `PORT`, `<name>`) the reader replaces";
const NOT_HERE: Record<string, string> = {
  [`pulumi plugin install resource nsp ${VERSION}`]: PUBLISHED,
  "npm install @pulumi/pulumi @nsp/pulumi": PUBLISHED,
  "pip install pulumi_nsp": PUBLISHED,
  [`go get github.com/nsp-platform/pulumi-nsp/sdk/go/nsp@v${VERSION}`]: PUBLISHED,
  "npm install @pulumi/pulumi @nsp/pulumi-dynamic": PUBLISHED,
  "npm install --save-dev @nsp/emulator": PUBLISHED,
  "npm install --save-dev @nsp/discover": PUBLISHED,
  [`pip install ./pulumi_nsp-${VERSION}-py3-none-any.whl`]: "run in a virtual environment by test/e2e/installed.test.ts (step 3), which then runs a Python stack on it",
  [`mkdir -p third_party && tar -xzf pulumi-nsp-sdk-go-v${VERSION}.tar.gz -C third_party`]: "the Go steps need a Go program's module: test/e2e/installed.test.ts (step 4) unpacks and replaces the module so",
  [`go mod edit -require=github.com/nsp-platform/pulumi-nsp/sdk/go/nsp@v${VERSION} -replace=github.com/nsp-platform/pulumi-nsp/sdk/go/nsp=./third_party/nsp`]: "as above (test/e2e/installed.test.ts, step 4)",
  "go mod tidy": "as above (test/e2e/installed.test.ts, step 4)",
  "npm ci && npm run demo": "a contributor's command on a clone; the demo is the quickstart that test/e2e/yaml.test.ts runs",
  "npm ci && npm test": "a contributor's command on a clone: the whole suite, this test included",
  "pulumi config set --secret nsp:apiToken svc_...": PLACEHOLDER,
  "pulumi config set nsp:baseUrl http://127.0.0.1:PORT/api/v1": PLACEHOLDER,
  "export NSP_API_TOKEN=svc_... NSP_BASE_URL=https://.../api/v1": `${PLACEHOLDER}; the test sets both to the emulator's before the lines after it`,
  "export NSP_API_TOKEN=svc_...": PLACEHOLDER,
  "find <backend-dir> -name '*.attrs' -empty -delete": `${PLACEHOLDER}; the recovery after a killed up is test/e2e/interrupted.test.ts`,
  "pulumi cancel --yes": "needs a run killed outright; test/e2e/killed-run.test.ts kills `up` at three points and runs this recovery",
  "pulumi up --yes": "as above (test/e2e/killed-run.test.ts)",
  "npx nsp-emulator [--port N] [--account NAME=TOKEN ...] [--rate-limit PER_MINUTE] [--alternative NAME ...] [--outlive-parent]": "a synopsis of the options, not a command",
  "nsp-discover --pending-creates": "needs a run killed outright; test/e2e/killed-run.test.ts kills `up` at three points and runs this recovery",
};
if (!RELEASE_ARCH) NOT_HERE[PLUGIN_FROM_FILE] = "names the linux-amd64 archive, and this machine is not linux on x64";

let dir: string;
/** The process group of the emulator block: npx and the emulator it starts. */
let emulatorGroup: number | undefined;

afterAll(() => {
  if (emulatorGroup) process.kill(-emulatorGroup);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the shell commands of the README and docs/", () => {
  it("each one runs here as printed, or is listed with the reason it cannot", async () => {
    const shown = new Set(PAGES.flatMap(commandsOf));
    const unexplained = [...shown].filter((c) => !RUN.includes(c) && !(c in NOT_HERE));
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
    const bash = (command: string, extra: NodeJS.ProcessEnv = {}) => {
      const r = spawnSync("bash", ["-e", "-c", command], { cwd: app, env: { ...env, ...extra }, encoding: "utf8", timeout: 600_000 });
      expect(r.status, `${command}\n${r.stdout}\n${r.stderr}`).toBe(0);
      return r.stdout + r.stderr;
    };
    bash("pulumi stack init dev");

    const runnable = RUN.filter((c) => !(c in NOT_HERE));
    for (const command of runnable.slice(0, runnable.indexOf(EMULATOR_BLOCK[0]!))) bash(command);
    if (RELEASE_ARCH) expect(bash("pulumi plugin ls")).toMatch(new RegExp(`nsp\\s+resource\\s+${VERSION.replaceAll(".", "\\.")}\\s`));

    // The emulator block as one script, as a CI step runs it; its first line leaves the emulator running.
    const block = spawn("bash", ["-e", "-c", EMULATOR_BLOCK.join("\n")], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    emulatorGroup = block.pid;
    let stdout = "";
    let stderr = "";
    const ready = new Promise<void>((resolve) => block.stdout.on("data", (d: Buffer) => (stdout += d.toString()).includes("\n") && resolve()));
    block.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // "exit", not "close": the emulator the block leaves running holds the block's stdout open.
    const code = await new Promise<number | null>((resolve) => block.on("exit", resolve));
    expect(code, stderr).toBe(0);
    await ready;
    const printed = JSON.parse(stdout.split("\n")[0]!) as { baseUrl: string; accounts: Record<string, string> };
    expect(printed).toEqual({ baseUrl: "http://127.0.0.1:8787/api/v1", accounts: { ci: "svc_0123456789abcdef0123456789abcdef" } });
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
    for (const command of DISCOVER_BLOCK) bash(command, account);
    expect(existsSync(join(app, "left-out.json"))).toBe(true);
    expect(readFileSync(join(app, "index.ts"), "utf8")).toContain("new nsp.dns.Record(");
  }, 1_200_000);
});
