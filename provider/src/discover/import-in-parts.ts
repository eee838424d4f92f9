// nsp-discover --import: adopts a file nsp-discover wrote into the current stack, fast at any size
// and in parts, then writes the program.
//
// Fast: a self-managed backend (a file, S3, PostgreSQL) writes the whole state after every step,
// so an import of N objects costs the CLI about N² (5,000 records took 829 s, 34 s without). Each
// `pulumi import` here runs with PULUMI_SKIP_CHECKPOINTS=true, which writes the state once, at
// the end. That is safe for an import: what it adopts exists already, so an import that is killed
// records nothing and loses nothing, and is simply run again; one that fails still writes what it
// imported. (It is not safe for an `up` that creates: objects made before the kill would exist
// with no state to name them.) And --skip-preview: the preview would read everything once more.
//
// In parts: a kill loses at most the part under way. Each part is one `pulumi import` of
// `partSize` objects the stack does not hold yet (read from `pulumi stack export`), so the same
// command run again after a failure picks up where it stopped. The program is written last, by an
// import of the whole file under the ids the stack holds: the engine then imports nothing again
// (an object already in the stack under the same name and id is no change, and no request) and
// writes the program of all of them, with every reference between them. The ids must be the
// stack's: a record imported as `<zoneId>/<recordId>` is held under its own id, and the same name
// under another id is an error ("already exists").
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** Objects per `pulumi import`: about half a minute of the engine's time each on a 2-core machine. */
export const DEFAULT_PART_SIZE = 5000;

interface ImportEntry {
  type: string;
  name: string;
  id: string;
}

interface ImportFile {
  nameTable?: Record<string, string>;
  resources: ImportEntry[];
}

export interface ImportOptions {
  /** The file nsp-discover wrote. */
  file: string;
  /** Where `pulumi import` writes the program (index.ts, Main.yaml, ...). */
  out: string;
  partSize: number;
  stack?: string;
  say: (message: string) => void;
}

function readImportFile(file: string): ImportFile {
  let doc: ImportFile;
  try {
    doc = JSON.parse(readFileSync(file, "utf8")) as ImportFile;
  } catch (e) {
    throw new Error(
      `--import ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not a JSON import file (${(e as Error).message})`}`,
    );
  }
  if (!doc || !Array.isArray(doc.resources))
    throw new Error(`--import ${file}: not an import file nsp-discover wrote (it has no "resources" list)`);
  return doc;
}

/** The id of each object the stack holds, by `<type>::<name>` (the end of its URN). */
function heldIds(stack: string | undefined): Map<string, string> {
  const run = spawnSync("pulumi", ["stack", "export", ...(stack ? ["--stack", stack] : [])], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error) throw new Error(`could not run pulumi: ${run.error.message} (is the Pulumi CLI on PATH?)`);
  if (run.status !== 0)
    throw new Error(
      `pulumi stack export failed (the project's stack must exist first: \`pulumi stack init\`): ${run.stderr.trim()}`,
    );
  const exported = JSON.parse(run.stdout) as { deployment?: { resources?: { urn: string; id?: string }[] } };
  const held = new Map<string, string>();
  for (const r of exported.deployment?.resources ?? [])
    if (r.id) held.set(r.urn.split("::").slice(-2).join("::"), r.id);
  return held;
}

const keyOf = (e: ImportEntry) => `${e.type}::${e.name}`;

/** Runs `pulumi import` as the user would, its output on the terminal. */
function pulumiImport(args: string[], stack: string | undefined): number {
  const run = spawnSync(
    "pulumi",
    ["import", ...args, "--yes", "--skip-preview", ...(stack ? ["--stack", stack] : [])],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, PULUMI_SKIP_CHECKPOINTS: "true" },
    },
  );
  if (run.error) throw new Error(`could not run pulumi: ${run.error.message} (is the Pulumi CLI on PATH?)`);
  return run.status ?? 1;
}

export function importInParts(opts: ImportOptions): number {
  const doc = readImportFile(opts.file);
  const total = doc.resources.length;
  const held = heldIds(opts.stack);
  const missing = doc.resources.filter((e) => !held.has(keyOf(e)));
  if (missing.length < total) opts.say(`${total - missing.length} of the ${total} objects are in the stack already`);
  const parts: ImportEntry[][] = [];
  for (let i = 0; i < missing.length; i += opts.partSize) parts.push(missing.slice(i, i + opts.partSize));
  const again =
    `run the same command again: it imports what the stack does not hold yet (if pulumi says the stack is ` +
    `locked by a run that was killed, \`pulumi cancel --yes\` first)`;
  const dir = mkdtempSync(join(tmpdir(), "nsp-import-"));
  try {
    let whole = doc;
    if (parts.length === 1 && missing.length === total) {
      opts.say(`importing ${total} objects and writing the program to ${opts.out}`);
    } else {
      for (const [i, part] of parts.entries()) {
        opts.say(`part ${i + 1} of ${parts.length}: importing ${part.length} objects`);
        const path = join(dir, `part-${i + 1}.json`);
        writeFileSync(path, JSON.stringify({ nameTable: doc.nameTable ?? {}, resources: part }));
        const code = pulumiImport(["--file", path, "--generate-code=false"], opts.stack);
        if (code !== 0) {
          opts.say(`part ${i + 1} of ${parts.length} failed; ${again}`);
          return code;
        }
      }
      opts.say(`all ${total} objects are in the stack; writing the program to ${opts.out}`);
      const ids = heldIds(opts.stack);
      whole = { ...doc, resources: doc.resources.map((e) => ({ ...e, id: ids.get(keyOf(e)) ?? e.id })) };
    }
    const wholeFile = join(dir, "whole.json");
    writeFileSync(wholeFile, JSON.stringify(whole));
    // Written aside, then put in place: pulumi import creates its --out file empty before it asks
    // the language host what the program needs, and Pulumi YAML reads Main.yaml for that, so
    // `--out Main.yaml` fails on the empty file it made (v3.259: "failed to discover package
    // requirements: EOF").
    const aside = join(dir, basename(opts.out));
    const code = pulumiImport(["--file", wholeFile, "--out", aside], opts.stack);
    if (code !== 0) {
      opts.say(`the import failed; ${again}`);
      return code;
    }
    copyFileSync(aside, opts.out);
    opts.say(
      `done: ${opts.out} holds the program of ${total} objects; \`pulumi preview --expect-no-changes\` shows it matches the account`,
    );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
