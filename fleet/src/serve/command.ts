// `nsp-fleet serve [--port N] [--listen ADDR] [--log-dir DIR ...]`: the command's flags and its
// life, apart from cli.ts so that cli.ts names it in one line. Serves until SIGINT or SIGTERM.
// cli.ts imports this file only when the command is `serve` (the web server loads with it).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { InputError } from "../customers";
import { databaseUrl } from "../database";
import { TOKEN_ENV } from "./auth";
import { serve } from "./server";
import { DEFAULT_PORT, SERVE_USAGE } from "./usage";

/** Runs the page until a signal; the exit code. */
export async function serveCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  say: (message: string) => void,
  extra: { assetsDir?: string } = {},
): Promise<number> {
  let f: { port?: string; listen?: string; "log-dir"?: string[] };
  try {
    f = parseArgs({
      args: argv,
      options: { port: { type: "string" }, listen: { type: "string" }, "log-dir": { type: "string", multiple: true } },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch (e) {
    throw new InputError(`${(e as Error).message}\n\nusage: nsp-fleet\n${SERVE_USAGE}`);
  }
  const port = f.port === undefined ? DEFAULT_PORT : Number(f.port);
  if (f.port !== undefined && (!/^\d+$/.test(f.port) || port > 65535))
    throw new InputError(`--port: "${f.port}" must be a whole number from 0 to 65535 (0: any free port)`);
  const token = env[TOKEN_ENV] === "" ? undefined : env[TOKEN_ENV];
  const page = await serve({
    url: databaseUrl(env),
    port,
    listen: f.listen ?? "127.0.0.1",
    token,
    say,
    logDirs: f["log-dir"] ?? [join(".nsp-fleet", "logs")],
    assetsDir: extra.assetsDir,
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      say(`${signal}: the page stops`);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await page.close();
  return 0;
}
