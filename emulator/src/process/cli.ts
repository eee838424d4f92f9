// nsp-emulator: runs the emulator on 127.0.0.1 and prints exactly one JSON line on stdout
// (base URL and tokens) when ready, so scripts can start it and read where it is.
// stdout carries nothing else, ever; diagnostics go to stderr and never include tokens.
import { parseArgs } from "node:util";
import { ALTERNATIVES, type Alternative, isAlternative } from "../control/alternatives";
import { ACCOUNT_NAME_RE, type AccountSpec } from "../pipeline/emulator-app";
import { DEFAULT_PARTNER_TOKEN_TTL_SECONDS } from "../partner/state";
import { startEmulator } from "./server";
import type { Scope } from "../model/store";
import { TOKEN_RE } from "../util/random";

const USAGE = `usage: nsp-emulator [--port N] [--account NAME[=TOKEN[:read|:write|:link]] ...] [--rate-limit PER_MINUTE] [--partner-token-ttl SECONDS] [--alternative NAME ...] [--outlive-parent]

  --port N                 port on 127.0.0.1 (default 0: any free port)
  --account NAME           add an account with a random write token
  --account NAME=TOKEN     ... with this token (svc_ + 32 lowercase hex)
  --account NAME=TOKEN:read  ... as a read-scope token (also :write, :link)
  --rate-limit N           requests per minute per token (default 300, 0 = off)
  --partner-token-ttl N    lifetime in seconds of the credentials a partner mints for a customer
                           (POST /partner/subjects/{ref}/token; default 900)
  --alternative NAME       answer a point the API leaves "not shown" differently (repeatable):
                           ${ALTERNATIVES.join(", ")}
                           (see docs/api-assumptions.md; switch at run time with PUT /_emulator/alternatives)
  --outlive-parent         keep running when the process that started it is gone (by default the
                           emulator exits then, so a killed test run or CI job leaves none behind)

Prints one line when ready: {"baseUrl":"http://127.0.0.1:PORT/api/v1","accounts":{"NAME":"svc_..."}}
`;

class UsageError extends Error {}

interface CliOptions {
  port: number;
  accounts: AccountSpec[];
  rateLimitPerMinute: number;
  partnerTokenTtlSeconds: number;
  alternatives: Alternative[];
  outliveParent: boolean;
}

const OPTIONS = {
  port: { type: "string" },
  account: { type: "string", multiple: true },
  "rate-limit": { type: "string" },
  "partner-token-ttl": { type: "string" },
  alternative: { type: "string", multiple: true },
  "outlive-parent": { type: "boolean" },
} as const;

type OptionName = keyof typeof OPTIONS;

/** What each option wants, said when it is given without a value (or with one it does not take). */
const WANTS: Record<OptionName, string> = {
  port: "--port needs an integer between 0 and 65535",
  account: "--account needs NAME or NAME=TOKEN",
  "rate-limit": "--rate-limit needs an integer between 0 and 1000000",
  "partner-token-ttl": "--partner-token-ttl needs an integer between 0 and 86400",
  alternative: `--alternative needs one of ${ALTERNATIVES.join(", ")}`,
  "outlive-parent": "--outlive-parent takes no value",
};

/** parseArgs's refusal in this command's words: it names the argument in quotes. */
function usageProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code ?? "";
  if (!code.startsWith("ERR_PARSE_ARGS_")) throw e;
  const quoted = /'([^' ]+)/.exec((e as Error).message)?.[1] ?? "";
  const name = quoted.replace(/^--/, "");
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && name in WANTS) return WANTS[name as OptionName];
  return `unknown argument: ${quoted}`;
}

function parseInteger(flag: OptionName, v: string | undefined, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) > max) throw new UsageError(WANTS[flag]);
  return Number(v);
}

function parseAccount(v: string): AccountSpec {
  if (v === "") throw new UsageError(WANTS.account);
  const eq = v.indexOf("=");
  const name = eq < 0 ? v : v.slice(0, eq);
  if (!ACCOUNT_NAME_RE.test(name)) throw new UsageError(`--account: bad account name "${name}"`);
  if (eq < 0) return { name };
  let token = v.slice(eq + 1);
  let scope: Scope = "write";
  const colon = token.indexOf(":");
  if (colon >= 0) {
    const s = token.slice(colon + 1);
    if (s !== "read" && s !== "write" && s !== "link")
      throw new UsageError(`--account ${name}: scope must be read, write or link`);
    scope = s;
    token = token.slice(0, colon);
  }
  if (!TOKEN_RE.test(token))
    throw new UsageError(`--account ${name}: the token must be svc_ followed by 32 lowercase hex characters`);
  return { name, token, scope };
}

/** The command line as options; both `--port 8080` and `--port=8080`, the repeatable ones repeated. */
function parseCommandLine(argv: string[]): CliOptions {
  const parse = () => parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse());
  } catch (e) {
    throw new UsageError(usageProblem(e));
  }
  const accounts = (values.account ?? []).map(parseAccount);
  const names = accounts.map((a) => a.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new UsageError(`--account ${dup} given twice`);
  const alternatives: Alternative[] = [];
  for (const name of values.alternative ?? []) {
    if (!isAlternative(name)) throw new UsageError(WANTS.alternative);
    if (!alternatives.includes(name)) alternatives.push(name);
  }
  const partnerTokenTtlSeconds =
    parseInteger("partner-token-ttl", values["partner-token-ttl"], 86_400) ?? DEFAULT_PARTNER_TOKEN_TTL_SECONDS;
  if (partnerTokenTtlSeconds < 1) throw new UsageError("--partner-token-ttl needs at least 1 second");
  return {
    port: parseInteger("port", values.port, 65535) ?? 0,
    accounts,
    rateLimitPerMinute: parseInteger("rate-limit", values["rate-limit"], 1_000_000) ?? 300,
    partnerTokenTtlSeconds,
    alternatives,
    outliveParent: values["outlive-parent"] === true,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stderr.write(USAGE);
    process.exit(0);
  }
  let opts: CliOptions;
  try {
    opts = parseCommandLine(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`nsp-emulator: ${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const emu = await startEmulator({
    port: opts.port,
    rateLimitPerMinute: opts.rateLimitPerMinute,
    partnerTokenTtlSeconds: opts.partnerTokenTtlSeconds,
    alternatives: opts.alternatives,
    ...(opts.accounts.length > 0 ? { accounts: opts.accounts } : {}),
  });
  process.stdout.write(`${JSON.stringify({ baseUrl: emu.baseUrl, accounts: emu.accounts })}\n`);
  process.stderr.write(`nsp-emulator: listening on ${emu.baseUrl}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`nsp-emulator: ${signal}, shutting down\n`);
    emu.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  if (!opts.outliveParent) exitWithParent(() => stop("parent process gone"));
}

/**
 * A parent that dies without stopping its children (SIGKILL, a test runner's worker that
 * crashed) hands them to init or a subreaper: the parent's pid changes. Polled, because no
 * portable event says so.
 */
function exitWithParent(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, 1000);
  timer.unref();
}

main().catch((e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  process.stderr.write(
    `nsp-emulator: ${err.code === "EADDRINUSE" ? "port already in use" : (err.message ?? String(e))}\n`,
  );
  process.exit(1);
});
