// End-to-end harness: the real `pulumi` CLI (from scripts/install-pulumi.sh, on PATH), a local
// file backend in a temporary directory, and the emulator as a separate process, exactly as a
// user would run them. Nothing here stands in for the engine.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { EmulatorControl } from "../../helpers/emulator-control";
import { ROOT } from "../../helpers/plugin";
import { E2E_SECRETS_PROVIDER } from "./vault-transit";

// One root for both layers: test/helpers/ finds it from its own place, which benchmarks bundled into
// dist/bench/ keep at the same depth.
export { ROOT };

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface EmulatorProcess {
  baseUrl: string;
  accounts: Record<string, string>;
  control(account?: string): EmulatorControl;
  stop(): Promise<void>;
}

/**
 * Starts `nsp-emulator` as its own process and reads the one JSON line it prints when ready.
 * `executable` is this repository's bundle unless given (e.g. the bin of an installed @nsp/emulator).
 * Its request limit is off unless `args` name one (the last --rate-limit wins): the plugins of
 * several pulumi commands and the test's own API calls would otherwise share one token's budget,
 * and a fast machine would spend it.
 */
export async function startEmulatorProcess(args: string[] = [], executable?: string): Promise<EmulatorProcess> {
  const [command, ...first] = executable ? [executable] : [process.execPath, join(ROOT, "dist/emulator.js")];
  const child = spawn(command!, [...first, "--rate-limit", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ baseUrl: string; accounts: Record<string, string> }>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${err}`)), 15_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(JSON.parse(out.split("\n")[0]!));
      }
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${err}`)));
  });
  return {
    ...ready,
    control: (account = Object.keys(ready.accounts)[0]!) =>
      new EmulatorControl(ready.baseUrl, ready.accounts[account]!),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * One emulator process for a test file, and the stacks its tests make: started before the file's
 * tests; after them (and after the file's own afterAll hooks) the stacks are removed and the
 * emulator stops.
 */
export function emulatorOfFile(args: string[] = []): { readonly process: EmulatorProcess; readonly stacks: Stack[] } {
  const file = { process: undefined as unknown as EmulatorProcess, stacks: [] as Stack[] };
  beforeAll(async () => {
    file.process = await startEmulatorProcess(args);
  });
  afterAll(async () => {
    for (const s of file.stacks) s.cleanup();
    await file.process?.stop();
  });
  return file;
}

/**
 * Copies an example into a temporary directory, as a user would copy it: the plugin path in
 * Pulumi.yaml points at this repository's bin/, and node_modules is this repository's (which
 * links the generated SDK as @nsp/pulumi), so the program loads one @pulumi/pulumi.
 */
export function prepareProject(example: string): string {
  const dir = mkdtempSync(join(tmpdir(), `nsp-e2e-${example.replace(/\W/g, "-")}-`));
  const src = join(ROOT, "examples", example);
  cpSync(src, dir, {
    recursive: true,
    filter: (p) =>
      !/node_modules|__pycache__|[/\\]venv|[/\\]bin$|Pulumi\.[^/]+\.yaml$/.test(p.slice(src.length)) || p === src,
  });
  const yamlPath = join(dir, "Pulumi.yaml");
  writeFileSync(yamlPath, readFileSync(yamlPath, "utf8").replace(/path: (\.\.\/)+bin/, `path: ${join(ROOT, "bin")}`));
  const pkg = join(dir, "package.json");
  if (statSync(pkg, { throwIfNoEntry: false }))
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

export interface StackOptions {
  /** Extra environment for every pulumi command (e.g. NSP_BASE_URL). */
  env?: NodeJS.ProcessEnv;
  stack?: string;
  /**
   * false: PULUMI_HOME holds no plugin until the test installs one (the run's installed plugin,
   * plugin-home.ts, is linked in otherwise).
   */
  sharedPlugin?: boolean;
}

/** One stack of one project, with its own file backend and PULUMI_HOME. */
export class Stack {
  readonly home: string;
  readonly backend: string;
  readonly stack: string;
  readonly log: RunResult[] = [];
  /** The environment of every command of this stack (its PULUMI_HOME, backend, passphrase). */
  readonly env: NodeJS.ProcessEnv;

  private constructor(
    readonly dir: string,
    opts: StackOptions,
  ) {
    this.home = pulumiHome(mkdtempSync(join(tmpdir(), "nsp-e2e-home-")));
    const shared = sharedPluginHome();
    if (shared && opts.sharedPlugin !== false)
      for (const d of ["plugins", "schemas"]) symlinkSync(join(shared, d), join(this.home, d), "dir");
    this.backend = mkdtempSync(join(tmpdir(), "nsp-e2e-state-"));
    this.stack = opts.stack ?? "e2e";
    this.env = { ...pulumiEnv(this.home, this.backend), ...opts.env };
  }

  static async init(dir: string, opts: StackOptions = {}): Promise<Stack> {
    const s = new Stack(dir, opts);
    await s.run(["stack", "init", s.stack, ...secretsProviderArgs()]);
    return s;
  }

  /** Runs `pulumi <args>` in the project; throws with the output unless allowed to fail. */
  async run(args: string[], opts: { allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
    const full = [...args, "--non-interactive"];
    if (!(args[0] === "stack" && args[1] === "init")) full.push("--stack", this.stack);
    const result = await this.spawnPulumi(full, opts.env).done;
    if (result.code !== 0 && !opts.allowFailure) {
      throw new Error(
        `pulumi ${full.join(" ")} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      );
    }
    return result;
  }

  /** Starts `pulumi <args>` without waiting, for tests that interrupt it. */
  start(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}) {
    return this.spawnPulumi([...args, "--non-interactive", "--stack", this.stack], opts.env);
  }

  private spawnPulumi(
    args: string[],
    env: NodeJS.ProcessEnv = {},
  ): { child: ReturnType<typeof spawn>; done: Promise<RunResult> } {
    const child = spawn("pulumi", args, {
      cwd: this.dir,
      env: { ...this.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<RunResult>((resolve, reject) => {
      // A CLI that cannot start (not on PATH) fails the test at once instead of leaving it waiting.
      child.on("error", (err) => reject(new Error(`pulumi ${args.join(" ")} did not start: ${err.message}`)));
      child.on("close", (code) => {
        const result = { code: code ?? -1, stdout, stderr };
        this.log.push(result);
        resolve(result);
      });
    });
    return { child, done };
  }

  up(extra: string[] = []) {
    return this.run(["up", "--yes", "--skip-preview", ...extra]);
  }
  preview(extra: string[] = [], allowFailure = false) {
    return this.run(["preview", ...extra], { allowFailure });
  }
  refresh(extra: string[] = []) {
    return this.run(["refresh", "--yes", "--skip-preview", ...extra]);
  }
  destroy() {
    return this.run(["destroy", "--yes", "--skip-preview"]);
  }
  /** Points the stack at an emulator account (the token as a secret) and sets more plain config, in one CLI run. */
  useAccount(baseUrl: string, token: string, plain: Record<string, string> = {}) {
    const pairs = Object.entries({ "nsp:baseUrl": baseUrl, ...plain }).flatMap(([key, value]) => [
      "--plaintext",
      `${key}=${value}`,
    ]);
    return this.run(["config", "set-all", "--secret", `nsp:apiToken=${token}`, ...pairs]);
  }
  setConfig(key: string, value: string, secret = false) {
    return this.run(["config", "set", key, value, ...(secret ? ["--secret"] : [])]);
  }
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const r = await this.run(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }
  async exportState(): Promise<{
    deployment: {
      resources: {
        type: string;
        urn: string;
        id?: string;
        outputs?: Record<string, unknown>;
        inputs?: Record<string, unknown>;
      }[];
    };
  }> {
    return JSON.parse((await this.run(["stack", "export"])).stdout);
  }

  /** A project directory holding only a Pulumi.yaml, for programs a test writes itself. */
  static yamlProject(program: string): string {
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-program-"));
    writeFileSync(join(dir, "Pulumi.yaml"), Stack.yamlProgramText(program));
    return dir;
  }

  /**
   * The head of a YAML program for the emulator, up to its variables: the plugin from this
   * repository's bin/, and the account's authoritative DNS services as `authDns`. The caller adds
   * more variables, if any, then `resources:`.
   */
  static yamlProgramHead(project: string): string {
    return `${Stack.yamlPluginHead(project)}variables:
  authDns:
    fn::invoke:
      function: nsp:dns:getServices
      arguments: { type: auth_dns }
      return: services
`;
  }

  /**
   * The first lines of a YAML program for the emulator: its name and the plugin from this
   * repository's bin/ (which yamlProgramText leaves out when the run installed it).
   */
  static yamlPluginHead(project: string): string {
    return `name: ${project}
runtime: yaml
plugins:
  providers:
    - name: nsp
      path: ../../bin
`;
  }

  /**
   * A YAML program whose plugin is this tree's: the one the run installed (plugin-home.ts) when
   * there is one, else the one in this repository's bin/, by path.
   */
  static yamlProgramText(program: string): string {
    if (sharedPluginHome())
      return program.replace(/^plugins:\n {2}providers:\n {4}- name: nsp\n {6}path: (\.\.\/)+bin\n/m, "");
    return program.replace(/path: (\.\.\/)+bin/, `path: ${join(ROOT, "bin")}`);
  }

  /** Every file the backend and PULUMI_HOME hold, plus the project's stack config, as one text. */
  artefacts(): string {
    const texts = [filesText([this.backend, this.home])];
    for (const f of readdirSync(this.dir))
      if (/^Pulumi\..+\.yaml$/.test(f)) texts.push(readFileSync(join(this.dir, f), "utf8"));
    return texts.join("\n");
  }

  cleanup(): void {
    for (const d of [this.home, this.backend, this.dir]) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * `pulumi do --package <this repository's plugin> <args>` (no program needed) in `cwd`; throws
 * with the output unless it exits 0.
 */
export function pulumiDo(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  const child = spawn(
    "pulumi",
    ["do", "--package", join(ROOT, "bin", "pulumi-resource-nsp"), "--non-interactive", ...args],
    { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", (err) => reject(new Error(`pulumi do ${args.join(" ")} did not start: ${err.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve({ code, stdout, stderr });
      else
        reject(new Error(`pulumi do ${args.join(" ")} exited ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
  });
}

/** The JSON `pulumi do --output json` prints last (a create prints its plan before it). */
/** Whether the process (or, given a negative number, any process of that group) is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function lastJson<T>(out: string): T {
  return JSON.parse(out.slice(out.search(/^[[{]/m))) as T;
}

/**
 * The environment of every pulumi command of a test: the CLI from PATH, its own PULUMI_HOME, a
 * local file backend, and nothing that would ask a question or fetch a plugin.
 */
export function pulumiEnv(home: string, backend: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    // The key service of the stacks Stack.init makes (vault-transit.ts), when the run has one.
    ...(process.env.VAULT_SERVER_URL
      ? { VAULT_SERVER_URL: process.env.VAULT_SERVER_URL, VAULT_SERVER_TOKEN: process.env.VAULT_SERVER_TOKEN }
      : {}),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // Node's cache of compiled code (scripts/test.sh sets it): the programs' node processes load
    // @pulumi/pulumi and TypeScript again for every command, the same files every time.
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
  };
}

/** The PULUMI_HOME holding this tree's plugin, installed for the run (plugin-home.ts), if any. */
export function sharedPluginHome(): string | undefined {
  return process.env.NSP_E2E_PLUGIN_HOME || undefined;
}

/**
 * The secrets provider of a stack a test makes: the run's key service (vault-transit.ts) when
 * there is one, which spares every command the passphrase's key derivation; else the passphrase.
 */
export function secretsProviderArgs(): string[] {
  return process.env.VAULT_SERVER_URL ? ["--secrets-provider", E2E_SECRETS_PROVIDER] : [];
}

/**
 * Makes `home` a PULUMI_HOME whose CLI keeps no automatic log, and returns it. The pinned CLI
 * writes a debug-level log of every command, every property included, gzipped and encrypted, to
 * PULUMI_HOME/logs. It has no switch, and for a large resource it is half the CLI's CPU (profiled on
 * large-zone.test's 20,000-record preview). With a file where that folder would be, the CLI logs
 * nothing and goes on.
 */
export function pulumiHome(home: string): string {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "logs"), "");
  return home;
}

/** Every file under the directories (but installed plugins and packages) as one text. */
export function filesText(dirs: string[]): string {
  const texts: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "plugins" && entry.name !== "node_modules") walk(p);
      } else if (entry.isFile() && statSync(p).size < 50 * 1024 * 1024) texts.push(readFileSync(p, "utf8"));
    }
  };
  dirs.forEach(walk);
  return texts.join("\n");
}

export function pulumiAvailable(): boolean {
  return spawnSync("pulumi", ["version"], { encoding: "utf8" }).stdout?.trim() === "v3.259.0";
}

/**
 * The Go environment of the tests that build Go programs against the SDK: modules resolved by the
 * program's own go.mod and the installed toolchain. Each builds in a new temporary directory, and
 * Go's build cache keys a package on its directory unless -trimpath: with it the SDK (the same
 * files every time) is compiled once per machine, not once per test run. The link is not cached:
 * without DWARF (-w; a panic's stack trace does not need it) it takes a third less CPU, and Pulumi's
 * Go host links the program again for every command.
 */
export const GO_ENV = { GOFLAGS: "-mod=mod -trimpath -ldflags=-w", GOWORK: "off", GOTOOLCHAIN: "local" };

/** The version of Pulumi's SDKs this repository pins (package.json), for the Python and Go programs. */
export const PULUMI_SDK_VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies[
  "@pulumi/pulumi"
];

/**
 * Makes something once per content and keeps it outside the repository, under NSP_CACHE_DIR
 * (default ~/.cache/nsp, beside the pinned CLI): `<kind>/<name>-<hash>`, where the hash covers
 * `seed` and every file under `sources` (its path and bytes, build leftovers aside), so a changed
 * input never reuses an old result. `make(work)` fills a folder of its own that is then renamed
 * into place: two test files asking at once each get a whole one.
 */
function madeOncePerContent(
  kind: string,
  name: string,
  seed: string,
  sources: string,
  make: (work: string) => void,
): string {
  const hash = createHash("sha256").update(seed);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "__pycache__" && !entry.name.endsWith(".egg-info") && entry.name !== "build") walk(path);
      } else if (entry.isFile()) hash.update(`${relative(sources, path)}\0`).update(readFileSync(path));
    }
  };
  walk(sources);
  const root = join(process.env.NSP_CACHE_DIR ?? join(homedir(), ".cache", "nsp"), kind);
  const made = join(root, `${name}-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(made)) return made;
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, ".making-"));
  try {
    make(join(work, "made"));
    try {
      renameSync(join(work, "made"), made);
    } catch (err) {
      // Another file made it first: theirs is as good.
      if (!existsSync(made)) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return made;
}

/**
 * A virtualenv holding Pulumi's Python SDK and this tree's generated one (sdk/python), as the
 * Python programs of python.test.ts and sdk.test.ts need it. pip's resolve and the SDK's build
 * take tens of seconds, so it is made once per content of sdk/python, the pinned SDK and the
 * Python version (madeOncePerContent).
 */
export function treeSdkVirtualenv(): string {
  const sdk = join(ROOT, "sdk/python");
  const seed = `pulumi ${PULUMI_SDK_VERSION}\n${execFileSync("python3", ["--version"], { encoding: "utf8" })}`;
  return madeOncePerContent("venvs", "sdk-python", seed, sdk, (venv) => {
    execFileSync("python3", ["-m", "venv", venv], { stdio: "pipe" });
    // pip builds in the source folder; a copy keeps build output out of the repository.
    const copy = join(dirname(venv), "sdk-python");
    cpSync(sdk, copy, { recursive: true });
    execFileSync(
      join(venv, "bin/python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi==${PULUMI_SDK_VERSION}`, copy],
      { stdio: "pipe" },
    );
  });
}

/**
 * The executable of the Go program in `dir` (its go.mod, its sources, a replaced module inside
 * it, nothing else: every file is in the key), built with GO_ENV once per content of `dir` and the Go version (madeOncePerContent): Go
 * compiles from its cache, but links the Pulumi SDK into every binary again, seconds of CPU for
 * the same bytes each run.
 */
export function goProgram(name: string, dir: string): string {
  const env = { ...process.env, ...GO_ENV };
  const seed = `${execFileSync("go", ["version"], { env, encoding: "utf8" })}${JSON.stringify(GO_ENV)}`;
  const made = madeOncePerContent("go-programs", name, seed, dir, (out) => {
    const build = join(dirname(out), "src");
    cpSync(dir, build, { recursive: true });
    execFileSync("go", ["mod", "tidy"], { cwd: build, env, stdio: "pipe" });
    mkdirSync(out);
    execFileSync("go", ["build", "-o", join(out, "program"), "."], { cwd: build, env, stdio: "pipe" });
  });
  return join(made, "program");
}
