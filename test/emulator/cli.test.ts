import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const TOKEN_A = "svc_0123456789abcdef0123456789abcdef";
let BUNDLE = resolve(ROOT, "dist/emulator.js");

beforeAll(async () => {
  try {
    execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, stdio: "pipe" });
  } catch (e) {
    // The project build also bundles the provider, which is developed in parallel; when that part
    // does not build, bundle the emulator alone so this test still checks the emulator's CLI.
    process.stderr.write(`cli.test: scripts/build.mjs failed, bundling the emulator alone: ${String(e)}\n`);
    BUNDLE = join(mkdtempSync(join(tmpdir(), "nsp-emulator-")), "emulator.js");
    await build({
      entryPoints: [resolve(ROOT, "emulator/src/process/cli.ts")],
      outfile: BUNDLE,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      logLevel: "warning",
    });
  }
});

function collect(child: ChildProcess, stream: "stdout" | "stderr"): () => string {
  let buf = "";
  child[stream]?.on("data", (d: Buffer) => {
    buf += d.toString();
  });
  return () => buf;
}

describe("nsp-emulator CLI", () => {
  it("prints one JSON line, serves requests and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [BUNDLE, "--port", "0", "--account", `a=${TOKEN_A}`, "--account", "b"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stderr = collect(child, "stderr");
    const lines = createInterface({ input: child.stdout! });
    const [first] = (await once(lines, "line")) as [string];
    const ready = JSON.parse(first) as { baseUrl: string; accounts: Record<string, string> };
    expect(Object.keys(ready)).toEqual(["baseUrl", "accounts"]);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(ready.accounts.a).toBe(TOKEN_A);
    expect(ready.accounts.b).toMatch(/^svc_[0-9a-f]{32}$/);
    let more = "";
    lines.on("line", (l) => {
      more += l;
    });

    const me = await fetch(`${ready.baseUrl}/me`, { headers: { authorization: `Bearer ${ready.accounts.b}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).name).toBe("b");

    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(more).toBe("");
    expect(stderr()).not.toContain(TOKEN_A);
    expect(stderr()).not.toContain(ready.accounts.b);
  });

  it("accepts a read-scope token and a rate limit", async () => {
    const child = spawn(process.execPath, [BUNDLE, "--account", `r=${TOKEN_A}:read`, "--rate-limit", "7"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [first] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const { baseUrl } = JSON.parse(first) as { baseUrl: string };
    const auth = { authorization: `Bearer ${TOKEN_A}` };
    const me = await fetch(`${baseUrl}/me`, { headers: auth });
    expect(me.headers.get("x-ratelimit-limit")).toBe("7");
    const w = await fetch(`${baseUrl}/dns/zones`, { method: "POST", headers: auth, body: "{}" });
    expect(w.status).toBe(403);
    child.kill("SIGINT");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });

  it("gives minted partner credentials the lifetime of --partner-token-ttl", async () => {
    const child = spawn(process.execPath, [BUNDLE, "--account", `p=${TOKEN_A}`, "--partner-token-ttl", "42"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [first] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const { baseUrl } = JSON.parse(first) as { baseUrl: string };
    const headers = { authorization: `Bearer ${TOKEN_A}`, "content-type": "application/json" };
    await fetch(`${baseUrl}/partner/subjects`, {
      method: "POST",
      headers,
      body: JSON.stringify({ external_ref: "c1" }),
    });
    const minted = await fetch(`${baseUrl}/partner/subjects/c1/token`, { method: "POST", headers, body: "{}" });
    expect(((await minted.json()) as { expires_in: number }).expires_in).toBe(42);
    child.kill("SIGTERM");
    await once(child, "exit");
  });

  it("starts with the alternatives given by --alternative", async () => {
    const child = spawn(
      process.execPath,
      [BUNDLE, "--account", `a=${TOKEN_A}`, "--alternative", "bodiless-404", "--alternative=bare-lists"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const [first] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const { baseUrl } = JSON.parse(first) as { baseUrl: string };
    const auth = { authorization: `Bearer ${TOKEN_A}` };
    const gone = await fetch(`${baseUrl}/dns/zones/999999`, { headers: auth });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("");
    expect(Array.isArray(await (await fetch(`${baseUrl}/services`, { headers: auth })).json())).toBe(true);
    const active = await fetch(`${baseUrl.replace(/\/api\/v1$/, "")}/_emulator/alternatives`);
    expect(await active.json()).toEqual({ alternatives: ["bare-lists", "bodiless-404"] });
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });

  it("exits when the process that started it is killed, and outlives it with --outlive-parent", async () => {
    // A parent that starts the emulator, prints the emulator's pid and waits to be killed.
    const start = (extra: string[]) =>
      spawn(
        process.execPath,
        [
          "-e",
          `const c = require("node:child_process").spawn(process.execPath, ` +
            `${JSON.stringify([BUNDLE, ...extra])}, { stdio: ["ignore", "pipe", "inherit"] }); ` +
            `c.stdout.once("data", () => console.log(c.pid)); setInterval(() => {}, 1000);`,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const emulatorOf = async (parent: ChildProcess) =>
      Number(((await once(createInterface({ input: parent.stdout! }), "line")) as [string])[0]);

    const parent = start([]);
    const emulator = await emulatorOf(parent);
    const kept = start(["--outlive-parent"]);
    const keptEmulator = await emulatorOf(kept);
    parent.kill("SIGKILL");
    kept.kill("SIGKILL");
    // The timeout only guards against a hang; the emulator notices within about a second.
    const deadline = Date.now() + 60_000;
    while (alive(emulator) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    try {
      expect(alive(emulator)).toBe(false);
      expect(alive(keptEmulator)).toBe(true);
    } finally {
      for (const pid of [emulator, keptEmulator]) if (alive(pid)) process.kill(pid, "SIGTERM");
    }
  });

  it("exits 2 with what is wrong and the usage on stderr, and nothing on stdout, for bad flags", async () => {
    const cases: Array<[string[], string]> = [
      [["--bogus"], "unknown argument: --bogus"],
      [["stray"], "unknown argument: stray"],
      [["--port", "x"], "--port needs an integer between 0 and 65535"],
      [["--port"], "--port needs an integer between 0 and 65535"],
      [["--rate-limit", "--port", "1"], "--rate-limit needs an integer between 0 and 1000000"],
      [["--account", "a=nottoken"], "--account a: the token must be svc_ followed by 32 lowercase hex characters"],
      [["--account", "a", "--account", "a"], "--account a given twice"],
      [["--alternative", "xml"], "--alternative needs one of"],
      [["--partner-token-ttl", "0"], "--partner-token-ttl needs at least 1 second"],
      [["--outlive-parent=yes"], "--outlive-parent takes no value"],
    ];
    for (const [args, problem] of cases) {
      const child = spawn(process.execPath, [BUNDLE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
      const out = collect(child, "stdout");
      const err = collect(child, "stderr");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code, args.join(" ")).toBe(2);
      expect(out()).toBe("");
      expect(err(), args.join(" ")).toContain(`nsp-emulator: ${problem}`);
      expect(err()).toContain("usage: nsp-emulator");
    }
  });
});
