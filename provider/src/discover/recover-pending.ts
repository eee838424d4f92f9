// The recovery of a killed run's pending creates (see pending-creates.ts), as `nsp-discover
// --pending-creates` runs it in the project directory, and as the fleet's workers run it in
// their project directory before they rerun a stack whose worker died.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiClient } from "../client";
import { PROVIDER_VERSION } from "../config/package-info";
import { resources } from "../modules/all-definitions";
import {
  SETTLED,
  adoptIntoDeployment,
  clientFromSettings,
  commandLine,
  refreshArgs,
  resolvePendingCreates,
  type ExportedDeployment,
} from "./pending-creates";

interface RecoverOptions {
  /** The stack (default: the selected one). */
  stack?: string;
  /** Print what each pending create is (JSON lines on stdout) and change nothing. */
  print?: boolean;
  /** Progress, one line at a time. */
  say: (message: string) => void;
  /** The project directory (default: the current one). */
  cwd?: string;
  /**
   * Runs one pulumi command and returns its exit code and stdout, its stderr (and, for the
   * commands that change the state, stdout too) passed on. The default runs it from PATH,
   * stderr to the terminal; the fleet runs it as it runs its other commands and logs the output.
   */
  pulumi?: PulumiRunner;
}

type PulumiRunner = (
  args: string[],
  opts: { cwd?: string; showStdout: boolean },
) => Promise<{ code: number; stdout: string }>;

/** The pulumi CLI from PATH, its stderr (and stdout, when shown) on the terminal. */
const terminalPulumi: PulumiRunner = (args, opts) =>
  new Promise((resolve) => {
    const child = spawn("pulumi", args, {
      cwd: opts.cwd,
      stdio: ["ignore", opts.showStdout ? "inherit" : "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", (e) => resolve({ code: -1, stdout: `pulumi did not start: ${e.message}` }));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout }));
  });

/** Returns 0 when every pending create was settled (or there was none), 1 otherwise. */
export async function recoverPendingCreates(opts: RecoverOptions): Promise<number> {
  const { say, cwd } = opts;
  const run = opts.pulumi ?? terminalPulumi;
  const stackArgs = opts.stack ? ["--stack", opts.stack] : [];
  const pulumi = async (args: string[]) => {
    say(`running ${commandLine(args)}`);
    return (await run([...args, ...stackArgs], { cwd, showStdout: true })).code === 0;
  };
  const exportState = async (showSecrets: boolean) => {
    const r = await run(["stack", "export", ...(showSecrets ? ["--show-secrets"] : []), ...stackArgs], {
      cwd,
      showStdout: false,
    });
    if (r.code !== 0) throw new Error(`exited with ${r.code}`);
    return JSON.parse(r.stdout) as ExportedDeployment;
  };
  let exported: ExportedDeployment;
  let revealedState: ExportedDeployment;
  try {
    exported = await exportState(false);
    // Secrets shown only to read the provider's settings (its token); they stay in memory.
    revealedState = await exportState(true);
  } catch (e) {
    say(`pulumi stack export failed: ${(e as Error).message}`);
    return 1;
  }
  const opened: ApiClient[] = [];
  try {
    const decided = await resolvePendingCreates(revealedState, resources, (settings) => {
      const client = clientFromSettings(settings, `nsp-discover/${PROVIDER_VERSION}`, say);
      opened.push(client);
      return client;
    });
    if (decided.length === 0) {
      say("no pending creates in the stack's state");
      return 0;
    }
    for (const d of decided) say(`${d.outcome}: ${d.urn}: ${d.detail}`);
    const unsettled = decided.filter((d) => !SETTLED.has(d.outcome));
    if (opts.print) {
      for (const d of decided) process.stdout.write(`${JSON.stringify(d)}\n`);
      return unsettled.length ? 1 : 0;
    }
    // `pulumi stack import` drops every pending operation: with any create undecided, nothing
    // is changed, so that none is lost before someone looks at it.
    if (unsettled.length) {
      say(
        `${unsettled.length} pending create(s) not decided, so nothing was changed: check each, adopt it ` +
          `with \`pulumi import <type> <name> <id>\` or let it go, then \`pulumi refresh --clear-pending-creates\``,
      );
      return 1;
    }
    if (decided.some((d) => d.outcome === "adopt")) {
      const dir = mkdtempSync(join(tmpdir(), "nsp-pending-"));
      const file = join(dir, "deployment.json");
      try {
        writeFileSync(file, JSON.stringify(adoptIntoDeployment(exported as never, decided)), { mode: 0o600 });
        if (!(await pulumi(["stack", "import", "--file", file]))) return 1;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return (await pulumi(refreshArgs())) ? 0 : 1;
  } catch (e) {
    say((e as Error).message);
    return 1;
  } finally {
    await Promise.all(opened.map((c) => c.close()));
  }
}
