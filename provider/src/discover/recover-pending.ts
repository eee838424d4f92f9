// The recovery of a killed run's pending creates (see pending-creates.ts), as `nsp-discover
// --pending-creates` runs it in the project directory, and as the fleet's workers run it in
// their project directory before they rerun a stack whose worker died.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../client";
import { PROVIDER_VERSION } from "../package-info";
import { resources } from "../all-definitions";
import { SETTLED, adoptIntoDeployment, clientFromSettings, commandLine, refreshArgs, resolvePendingCreates, type ExportedDeployment } from "./pending-creates";

export interface RecoverOptions {
  /** The stack (default: the selected one). */
  stack?: string;
  /** Print what each pending create is (JSON lines on stdout) and change nothing. */
  print?: boolean;
  /** Progress, one line at a time. */
  say: (message: string) => void;
  /** The project directory (default: the current one). */
  cwd?: string;
  /**
   * Where the pulumi commands' own output goes: the terminal (the default), or `say`, for a
   * caller that keeps each stack's output in its log.
   */
  commandOutput?: "inherit" | "say";
}

/** Returns 0 when every pending create was settled (or there was none), 1 otherwise. */
export async function recoverPendingCreates(opts: RecoverOptions): Promise<number> {
  const { say, cwd } = opts;
  const stackArgs = opts.stack ? ["--stack", opts.stack] : [];
  const captured = opts.commandOutput === "say";
  const pulumi = (args: string[]) => {
    say(`running ${commandLine(args)}`);
    const r = spawnSync("pulumi", [...args, ...stackArgs], { cwd, encoding: "utf8", stdio: ["ignore", captured ? "pipe" : "inherit", captured ? "pipe" : "inherit"] });
    if (captured) say(`${r.stdout ?? ""}${r.stderr ?? ""}`.trimEnd());
    return r.status === 0;
  };
  const exportState = (showSecrets: boolean) =>
    JSON.parse(
      execFileSync("pulumi", ["stack", "export", ...(showSecrets ? ["--show-secrets"] : []), ...stackArgs], { cwd, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", captured ? "pipe" : "inherit"] }),
    ) as ExportedDeployment;
  let exported: ExportedDeployment;
  let revealedState: ExportedDeployment;
  try {
    exported = exportState(false);
    // Secrets shown only to read the provider's settings (its token); they stay in memory.
    revealedState = exportState(true);
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
      say(`${unsettled.length} pending create(s) not decided, so nothing was changed: check each, adopt it with \`pulumi import <type> <name> <id>\` or let it go, then \`pulumi refresh --clear-pending-creates\``);
      return 1;
    }
    if (decided.some((d) => d.outcome === "adopt")) {
      const dir = mkdtempSync(join(tmpdir(), "nsp-pending-"));
      const file = join(dir, "deployment.json");
      try {
        writeFileSync(file, JSON.stringify(adoptIntoDeployment(exported as never, decided)), { mode: 0o600 });
        if (!pulumi(["stack", "import", "--file", file])) return 1;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return pulumi(refreshArgs()) ? 0 : 1;
  } catch (e) {
    say((e as Error).message);
    return 1;
  } finally {
    await Promise.all(opened.map((c) => c.close()));
  }
}
