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
import { DEFAULT_ZONE_RECORDS_ABOVE, discover } from "./discover";
import { asZoneFiles, withState, type StatefulEntry } from "./with-state";
import { DEFAULT_PART_SIZE, importInParts } from "./import-in-parts";
import { configureSession } from "../config/session";
import type { ExportedDeployment } from "./pending-creates";
import { recoverPendingCreates } from "./recover-pending";

// The kinds the zone options are about: the one whose objects a zone may hold in bulk, and that bulk kind.
const RECORD = resources.find((r) => r.list?.discovery?.inBulk)?.token ?? "";
const BULK = resources.find((r) => r.list?.discovery?.inBulk)?.list?.discovery?.inBulk?.token ?? "";

const USAGE = `Usage: nsp-discover [options] > import.json
       nsp-discover --import import.json --out index.ts [--part-size <n>] [--stack <name>]
       nsp-discover --pending-creates [--print] [--stack <name>]

Reads every object of the account (NSP_API_TOKEN, NSP_BASE_URL) and writes a Pulumi bulk-import file.

With --import, in the project directory: adopts that file into the stack and writes the program
(Main.yaml for Pulumi YAML): \`PULUMI_SKIP_CHECKPOINTS=true pulumi import --file <part> --yes
--skip-preview\` for every ${DEFAULT_PART_SIZE} objects the stack does not hold yet, then the same for the whole
file with --out, which imports nothing more and writes the program. Without checkpoints the CLI
writes the state once per import instead of after every object (34 s instead of 14 minutes for
5,000 objects); for an import that is safe, since a killed import records nothing and is run
again (never for an \`up\` that creates). After a failure, run the same command again: it imports
what the stack does not hold yet.

With --pending-creates, after a killed \`pulumi up\` (and \`pulumi cancel\`), run in the project directory:
finds the object of each create the stack's state lists as pending by its natural key, records it
in the state with its id, and runs \`pulumi refresh --clear-pending-creates\` (the creates that found
no object never landed; the next \`pulumi up\` makes them).

Options:
  --pending-creates          recover the creates a killed run left pending (see above); the API
                             settings are the stack's provider configuration
  --print                    with --pending-creates: print what each pending create is (JSON lines) and change nothing
  --stack <name>             with --pending-creates or --import: the stack (default: the selected one)
  --type <glob>              only these resource types, e.g. ${RECORD.replace(/:[^:]*$/, ":*")} or ${RECORD} (repeatable, or comma-separated)
  --zone <name|id>           only objects of these zones and what hangs from them (a mail domain on
                             the zone and its mailboxes, ...) (repeatable, or comma-separated)
  --zone-records-above <n>   a zone of more than n records is one ${BULK}, written as its
                             zone file (\`zoneFile\`, read here with one request per zone), and a smaller
                             one is one ${RECORD} per record (default: ${DEFAULT_ZONE_RECORDS_ABOVE}, a page of the API's list);
                             a record set that holds a record another resource publishes (a TXT at
                             the apex beside a mail domain's SPF) stays one ${RECORD} per record
  --zone-records             every zone as one ${BULK} (--zone-records-above 0)
  --records-one-by-one       every record as one ${RECORD}, whatever the zone's size
  --requests-per-minute <n>  client-side request budget (default: NSP_REQUESTS_PER_MINUTE, else 300)
  --skip-tracked <stack>     leave out every object these stacks already manage (read with
                             \`pulumi stack export --stack <stack>\` in the current directory's
                             project or backend; repeatable, or comma-separated)
  --with-state               give each entry the inputs and outputs its Read gives (read here,
                             one request per object but the records, read in their zone's pages),
                             so that \`pulumi import --file\` reads nothing; an object holding a
                             secret is left to the import's own read
  --report <file>            write what was left out (owned by another resource, made by the API) as JSON
  --import <file>            adopt a file nsp-discover wrote into the stack, in parts (see above)
  --out <file>               with --import: where pulumi import writes the program
  --part-size <n>            with --import: objects per pulumi import (default ${DEFAULT_PART_SIZE})
  --quiet                    no progress on stderr
  --help`;

function list(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The command line's options; parseArgs throws on an unknown or malformed one. */
function parseOptions() {
  return parseArgs({
    options: {
      type: { type: "string", multiple: true },
      zone: { type: "string", multiple: true },
      "zone-records": { type: "boolean" },
      "zone-records-above": { type: "string" },
      "records-one-by-one": { type: "boolean" },
      import: { type: "string" },
      out: { type: "string" },
      "part-size": { type: "string" },
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
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parseOptions>;
  try {
    args = parseOptions();
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

  const problem = optionProblem(args);
  if (problem) {
    process.stderr.write(`nsp-discover: ${problem}\n`);
    return 2;
  }
  if (args.import !== undefined) {
    const say = args.quiet ? () => {} : (m: string) => process.stderr.write(`nsp-discover: ${m}\n`);
    try {
      return importInParts({
        file: args.import,
        out: args.out!,
        partSize: args["part-size"] === undefined ? DEFAULT_PART_SIZE : Number(args["part-size"]),
        stack: args.stack,
        say,
      });
    } catch (e) {
      process.stderr.write(`nsp-discover: ${(e as Error).message}\n`);
      return 1;
    }
  }

  const raw: Record<string, unknown> = {};
  if (args["requests-per-minute"] !== undefined) raw.requestsPerMinute = args["requests-per-minute"];
  const { config, failures } = parseConfig(raw as never);
  if (!config) {
    for (const f of failures)
      process.stderr.write(
        `nsp-discover: ${f.property === "requestsPerMinute" ? "--requests-per-minute" : f.property}: ${f.reason}\n`,
      );
    return 2;
  }
  if (!config.apiToken) {
    process.stderr.write(
      "nsp-discover: no API token: export NSP_API_TOKEN=svc_... (the same variable the provider reads)\n",
    );
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
      zoneRecordsAbove: args["zone-records"]
        ? 0
        : args["records-one-by-one"]
          ? Infinity
          : args["zone-records-above"] === undefined
            ? DEFAULT_ZONE_RECORDS_ABOVE
            : Number(args["zone-records-above"]),
      tracked,
      onProgress: say,
      signal: cancel.signal,
      onFailure: () => cancel.abort(),
    });
    let file: { nameTable: Record<string, string>; resources: StatefulEntry[] } = result.file;
    // A bulk entry (a zone's records) carries its state, as --with-state gives every entry: its zone file.
    const inBulk = (e: { type: string }) => result.bulkTypes.has(e.type);
    const zoneFiles = file.resources.filter(inBulk).length;
    if (args["with-state"] || zoneFiles > 0) {
      const session = configureSession(raw, {
        userAgent: `nsp-discover/${PROVIDER_VERSION}`,
        log: (level, message) => level !== "debug" && say(message),
        tokenSettings: { config: "NSP_API_TOKEN", env: "NSP_API_TOKEN" },
        explicitProviders: true,
      });
      try {
        const select = args["with-state"] ? undefined : inBulk;
        const read = await withState(
          file.resources,
          resources,
          () =>
            session.context({
              signal: cancel.signal,
              log: (severity, message) => severity !== "debug" && say(message),
            }),
          4,
          select,
        );
        file = { ...file, resources: asZoneFiles(read.entries, result.zoneNames, result.bulkTypes) };
        const requests = session.api().client.stats().requests;
        if (args["with-state"])
          say(
            `${read.entries.length - read.leftToRead.length} entries carry their state; ` +
              `${read.leftToRead.length} left to the import's read (${requests} requests to read them)`,
          );
        else
          say(
            `${zoneFiles} zones as their zone file (${BULK}, more than ` +
              `${args["zone-records"] ? 0 : (args["zone-records-above"] ?? DEFAULT_ZONE_RECORDS_ABOVE)} records): ` +
              `${requests} requests to read them`,
          );
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
    if (tracked.size)
      say(`${skipped.length} objects left out because ${list(args["skip-tracked"]).join(", ")} already manage them`);
    if (args.report) {
      writeFileSync(
        args.report,
        `${JSON.stringify({ leftOut: result.leftOut, notDiscovered: result.notDiscovered, unavailable: result.unavailable }, null, 2)}\n`,
      );
      say(`wrote ${args.report}`);
    }
    say(
      "next, in the project's folder with its stack: `npx nsp-discover --import import.json --out index.ts` " +
        "(the file written here; `--out Main.yaml` for " +
        ("Pulumi YAML), which runs `PULUMI_SKIP_CHECKPOINTS=true pulumi import --file ... --yes " +
          "--skip-preview` in parts, then `pulumi preview --expect-no-changes`"),
    );
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

/** Options that contradict each other or a value out of range, named; undefined when they are usable. */
function optionProblem(args: Record<string, string | boolean | string[] | undefined>): string | undefined {
  const wholeNumber = (name: string, min: number, what: string) => {
    const value = args[name];
    if (value === undefined) return undefined;
    return /^\d+$/.test(String(value)) && Number(value) >= min
      ? undefined
      : `--${name}: must be a whole number of ${what}, ${min} or more; got ${JSON.stringify(value)}`;
  };
  const given = (names: string[]) => names.filter((n) => args[n] !== undefined).map((n) => `--${n}`);
  const sizes = given(["zone-records", "zone-records-above", "records-one-by-one"]);
  if (sizes.length > 1) return `${sizes.join(" and ")} each choose how a zone's records are written: give one`;
  if (args.import !== undefined) {
    if (args.out === undefined)
      return "--import needs --out <file>: where pulumi import writes the program (index.ts, or Main.yaml for Pulumi YAML)";
    const discovery = given([
      "type",
      "zone",
      "zone-records",
      "zone-records-above",
      "records-one-by-one",
      "requests-per-minute",
      "skip-tracked",
      "with-state",
      "report",
    ]);
    if (discovery.length)
      return `--import adopts a file nsp-discover already wrote: ${discovery.join(", ")} belong${discovery.length === 1 ? "s" : ""} to the run that writes it`;
    return wholeNumber("part-size", 1, "objects");
  }
  const importOnly = given(["out", "part-size"]);
  if (importOnly.length)
    return `${importOnly.join(" and ")} go${importOnly.length === 1 ? "es" : ""} with --import <file>`;
  return wholeNumber("zone-records-above", 0, "records");
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
      exported = JSON.parse(
        execFileSync("pulumi", ["stack", "export", "--stack", stack], {
          encoding: "utf8",
          maxBuffer: 1 << 30,
          stdio: ["ignore", "pipe", "pipe"],
        }),
      ) as ExportedDeployment;
    } catch (e) {
      throw new Error(
        `pulumi stack export --stack ${stack} failed: ${((e as { stderr?: string }).stderr || (e as Error).message).trim()}`,
      );
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
