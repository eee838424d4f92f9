// nsp-discover: reads a whole account through the API and prints a `pulumi import --file`
// document on stdout. Configured exactly as the provider (NSP_API_TOKEN, NSP_BASE_URL, ...);
// progress and the summary go to stderr, so stdout stays a clean JSON document.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ApiClient } from "../client";
import { parseConfig } from "../config/provider-config";
import { PROVIDER_VERSION } from "../config/package-info";
import { resources } from "../modules/all-definitions";
import { discover, type ImportEntry } from "./discover";
import { withState } from "./with-state";
import { configureSession } from "../config/session";
import { type ExportedDeployment } from "./pending-creates";
import { recoverPendingCreates } from "./recover-pending";

const USAGE = `Usage: nsp-discover [options] > import.json
       pulumi import --file import.json --yes --out index.ts

Reads every object of the account (NSP_API_TOKEN, NSP_BASE_URL) and writes a Pulumi bulk-import file.

       nsp-discover --pending-creates [--print] [--stack <name>]

Reads every object of the account (NSP_API_TOKEN, NSP_BASE_URL) and writes a Pulumi bulk-import file.
With --pending-creates, after a killed \`pulumi up\` (and \`pulumi cancel\`), run in the project directory:
finds the object of each create the stack's state lists as pending by its natural key, records it
in the state with its id, and runs \`pulumi refresh --clear-pending-creates\` (the creates that found
no object never landed; the next \`pulumi up\` makes them).

Options:
  --pending-creates          recover the creates a killed run left pending (see above); the API
                             settings are the stack's provider configuration
  --print                    with --pending-creates: print what each pending create is (JSON lines) and change nothing
  --stack <name>             with --pending-creates: the stack (default: the selected one)
  --type <glob>              only these resource types, e.g. nsp:dns:* or nsp:mail:Mailbox (repeatable, or comma-separated)
  --zone <name|id>           only objects of these zones and what hangs from them (a mail domain on
                             the zone and its mailboxes, ...) (repeatable, or comma-separated)
  --zone-records             one nsp:dns:ZoneRecords per zone instead of one nsp:dns:Record per record;
                             a record set that holds a record another resource publishes (a TXT at
                             the apex beside a mail domain's SPF) stays one nsp:dns:Record per record
  --requests-per-minute <n>  client-side request budget (default: NSP_REQUESTS_PER_MINUTE, else 300)
  --skip-tracked <stack>     leave out every object these stacks already manage (read with
                             \`pulumi stack export --stack <stack>\` in the current directory's
                             project or backend; repeatable, or comma-separated)
  --with-state               give each entry the inputs and outputs its Read gives (read here,
                             one request per object but the records, read in their zone's pages),
                             so that \`pulumi import --file\` reads nothing; an object holding a
                             secret is left to the import's own read
  --report <file>            write what was left out (owned by another resource, made by the API) as JSON
  --quiet                    no progress on stderr
  --help`;

function list(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        type: { type: "string", multiple: true },
        zone: { type: "string", multiple: true },
        "zone-records": { type: "boolean" },
        "requests-per-minute": { type: "string" },
        report: { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
        "pending-creates": { type: "boolean" },
        print: { type: "boolean" },
        stack: { type: "string" },
        "skip-tracked": { type: "string", multiple: true },
        "with-state": { type: "boolean" },
      },
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(`nsp-discover: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  if (args["pending-creates"]) {
    const say = args.quiet ? () => {} : (m: string) => process.stderr.write(`nsp-discover: ${m}\n`);
    return recoverPendingCreates({ stack: args.stack, print: args.print ?? false, say });
  }

  const raw: Record<string, unknown> = {};
  if (args["requests-per-minute"] !== undefined) raw.requestsPerMinute = args["requests-per-minute"];
  const { config, failures } = parseConfig(raw as never);
  if (!config) {
    for (const f of failures) process.stderr.write(`nsp-discover: ${f.property === "requestsPerMinute" ? "--requests-per-minute" : f.property}: ${f.reason}\n`);
    return 2;
  }
  if (!config.apiToken) {
    process.stderr.write("nsp-discover: no API token: export NSP_API_TOKEN=svc_... (the same variable the provider reads)\n");
    return 2;
  }

  const say = args.quiet ? () => {} : (m: string) => process.stderr.write(`nsp-discover: ${m}\n`);
  let tracked: Map<string, string>;
  try {
    tracked = trackedObjects(list(args["skip-tracked"]));
  } catch (e) {
    process.stderr.write(`nsp-discover: --skip-tracked: ${(e as Error).message}\n`);
    return 2;
  }
  const client = new ApiClient({
    baseUrl: config.baseUrl,
    token: config.apiToken,
    requestsPerMinute: config.requestsPerMinute,
    maxRetries: config.maxRetries,
    userAgent: `nsp-discover/${PROVIDER_VERSION}`,
    onLog: (level, message) => level !== "debug" && say(message),
  });
  const started = Date.now();
  // The first failure ends the run: the lists still under way are cancelled, not waited for.
  const cancel = new AbortController();
  try {
    const result = await discover(client, resources, {
      types: list(args.type),
      zones: list(args.zone),
      zoneRecords: args["zone-records"] ?? false,
      tracked,
      onProgress: say,
      signal: cancel.signal,
      onFailure: () => cancel.abort(),
    });
    let file: { nameTable: Record<string, string>; resources: ImportEntry[] } = result.file;
    if (args["with-state"]) {
      const session = configureSession(raw, {
        userAgent: `nsp-discover/${PROVIDER_VERSION}`,
        log: (level, message) => level !== "debug" && say(message),
        tokenSettings: { config: "NSP_API_TOKEN", env: "NSP_API_TOKEN" },
        explicitProviders: true,
      });
      try {
        const read = await withState(file.resources, resources, () => session.context({ signal: cancel.signal, log: (severity, message) => severity !== "debug" && say(message) }));
        file = { ...file, resources: read.entries };
        say(`${read.entries.length - read.leftToRead.length} entries carry their state; ${read.leftToRead.length} left to the import's read (${session.api().client.stats().requests} requests to read them)`);
        for (const l of read.leftToRead) say(`left to the import's read: ${l.type} ${l.id}: ${l.reason}`);
      } finally {
        await session.api().client.close();
      }
    }
    process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
    const stats = client.stats();
    say(
      `${result.file.resources.length} objects to import, ${result.leftOut.length} left out (owned or made by the API), ` +
        `${result.unavailable.length} lists unavailable; ${stats.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const u of result.unavailable) say(`not readable: ${u.type} (${u.path}: ${u.reason})`);
    const skipped = result.leftOut.filter((l) => l.reason.startsWith("tracked by stack "));
    if (tracked.size) say(`${skipped.length} objects left out because ${list(args["skip-tracked"]).join(", ")} already manage them`);
    if (args.report) {
      writeFileSync(args.report, `${JSON.stringify({ leftOut: result.leftOut, notDiscovered: result.notDiscovered, unavailable: result.unavailable }, null, 2)}\n`);
      say(`wrote ${args.report}`);
    }
    return 0;
  } catch (e) {
    cancel.abort();
    // Client errors never carry the token (see client/redact.ts); print the message only.
    process.stderr.write(`nsp-discover: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/**
 * The objects the stacks' states hold, `<type> <id>` and `<type> <own id>` -> the stack, from
 * `pulumi stack export` (run as the user would, in the current directory).
 */
function trackedObjects(stacks: readonly string[]): Map<string, string> {
  const tracked = new Map<string, string>();
  for (const stack of stacks) {
    let exported: ExportedDeployment;
    try {
      exported = JSON.parse(execFileSync("pulumi", ["stack", "export", "--stack", stack], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] })) as ExportedDeployment;
    } catch (e) {
      throw new Error(`pulumi stack export --stack ${stack} failed: ${((e as { stderr?: string }).stderr || (e as Error).message).trim()}`);
    }
    for (const r of exported.deployment.resources ?? []) {
      if (!r.id || !r.type.startsWith("nsp:")) continue;
      tracked.set(`${r.type} ${r.id}`, stack);
      tracked.set(`${r.type} ${r.id.split("/").pop()}`, stack);
    }
  }
  return tracked;
}

main().then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    process.stderr.write(`nsp-discover: ${(e as Error).message}\n`);
    process.exitCode = 1;
  },
);
