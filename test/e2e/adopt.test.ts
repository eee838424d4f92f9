// Adopting an existing account in one step, with the real pulumi CLI: an account seeded through
// the API, `nsp-discover > import.json`, `pulumi import --file` in a fresh stack for TypeScript
// and YAML, the generated program compiles, and `pulumi preview --expect-no-changes` passes; with
// --with-state the import reads nothing but the token. Then the README's way at size: 2,000
// records adopted with `nsp-discover --import`, reading each zone at most once, and the same
// command run again after a part failed, picking up where it stopped.
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyResource, ListedItem } from "../../provider/src/framework/definition";
import { listedImportId, listPath, needsParent } from "../../provider/src/framework/api/list-facts";
import { resources, resourcesByToken } from "../../provider/src/modules/all-definitions";
import { seedAccount, type Seeded } from "../helpers/account-seed";
import { EmulatorControl } from "../helpers/emulator-control";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const execFileAsync = promisify(execFile);

interface ImportFile {
  resources: { type: string; name: string; id: string }[];
}
interface Report {
  leftOut: { type: string; id: string; reason: string }[];
  unavailable: { type: string; path: string; reason: string }[];
}

let emulator: EmulatorProcess;
let api: EmulatorControl;
let token: string;
let seeded: Seeded;
let file: ImportFile;
let report: Report;
let work: string;
const stacks: Stack[] = [];

const plugins = `plugins:\n  providers:\n    - name: nsp\n      path: ${join(ROOT, "bin")}\n`;

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  token = emulator.accounts.demo!;
  api = emulator.control();
  seeded = await seedAccount(api, { zones: 3, records: 300 });
  work = mkdtempSync(join(tmpdir(), "nsp-e2e-adopt-"));
  file = await discoverTo(join(work, "import.json"), ["--report", join(work, "report.json")]);
  report = JSON.parse(readFileSync(join(work, "report.json"), "utf8")) as Report;
});

/** `nsp-discover` into an import file. */
async function discoverTo(path: string, args: string[]): Promise<ImportFile> {
  // Asynchronously: a blocked event loop would miss the emulator closing idle keep-alive sockets.
  const run = await execFileAsync(process.execPath, [join(ROOT, "bin/nsp-discover"), ...args], {
    env: { PATH: process.env.PATH, NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.stdout + run.stderr).not.toContain(token);
  writeFileSync(path, run.stdout);
  return JSON.parse(run.stdout) as ImportFile;
}

/**
 * Every object of the account, by kind: each listable definition's `list` facts read straight off
 * the API (its list, under each of its parents or read off them), and the import id each object
 * would have. No table of kinds beside the definitions: a new kind is in this walk by its facts.
 */
async function listedObjects(
  control: EmulatorControl,
): Promise<{ objects: Map<string, string[]>; refused: { type: string; path: string }[] }> {
  type Found = { item: ListedItem; parent?: ListedItem };
  const refused: { type: string; path: string }[] = [];
  // A list the API refuses this account (403, 404, 405, 409: nothing set up to list) holds nothing
  // to adopt; nsp-discover must say it could not read it.
  const list = async (type: string, path: string): Promise<ListedItem[]> => {
    try {
      return await control.list<ListedItem>(path);
    } catch (e) {
      if (!/: (403|404|405|409) /.test(String(e))) throw e;
      refused.push({ type, path });
      return [];
    }
  };
  const found = new Map<string, Promise<Found[]>>();
  const objectsOf = (token: string): Promise<Found[]> => {
    let objects = found.get(token);
    if (!objects) {
      objects = walk(resourcesByToken.get(token)!);
      found.set(token, objects);
    }
    return objects;
  };
  const walk = async (def: AnyResource): Promise<Found[]> => {
    const facts = def.list!;
    if (facts.fromParent)
      return (await list(def.token, facts.path)).flatMap((p) =>
        facts.fromParent!(p).map((item) => ({ item, parent: p })),
      );
    if (!needsParent(facts)) return (await list(def.token, facts.path)).map((item) => ({ item }));
    const parent = facts.parent!;
    const parents = parent.path
      ? await list(def.token, parent.path)
      : (await objectsOf(parent.token)).map((o) => o.item);
    const under = await Promise.all(
      parents
        .filter((p) => parent.holds?.(p) ?? true)
        .map(async (p) => (await list(def.token, listPath(facts.path, p.id))).map((item) => ({ item, parent: p }))),
    );
    return under.flat();
  };
  const listable = resources.filter((r) => r.list);
  const ids = await Promise.all(
    listable.map(async (r) => (await objectsOf(r.token)).map((o) => listedImportId(r, o.item, o.parent))),
  );
  return { objects: new Map(listable.map((r, i) => [r.token, ids[i]!])), refused };
}

afterAll(async () => {
  for (const s of stacks) s.cleanup();
  await emulator?.stop();
});

async function freshStack(dir: string): Promise<Stack> {
  const stack = await Stack.init(dir);
  stacks.push(stack);
  await stack.useAccount(emulator.baseUrl, token);
  return stack;
}

/**
 * `pulumi import --file` of the discovered account; every object is imported. Without
 * --skip-preview the CLI reads everything twice (its preview, then the import itself).
 */
async function importAll(
  stack: Stack,
  out: string,
  path = join(work, "import.json"),
  discovered = file,
): Promise<string> {
  await api.resetStats();
  await stack.run(["import", "--file", path, "--yes", "--skip-preview", "--out", out]);
  const stats = await api.stats();
  expect(stats.mutating).toBe(0);
  // The Reads of the records come from their zone's list pages, not one GET per record.
  const records = discovered.resources.filter((r) => r.type === "nsp:dns:Record").length;
  const zones = discovered.resources.filter((r) => r.type === "nsp:dns:Zone").length;
  // Plus the one read of the token when the plugin is configured.
  expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(
    1 + Math.ceil(records / 500) + 2 * zones + (discovered.resources.length - records - zones),
  );
  const state = await stack.exportState();
  const adopted = state.deployment.resources.filter(
    (r) => r.type.startsWith("nsp:") && !r.type.startsWith("pulumi:providers:"),
  );
  expect(adopted).toHaveLength(discovered.resources.length);
  return readFileSync(out, "utf8");
}

describe("adopting a whole account with nsp-discover and pulumi import", () => {
  it("the file holds every object of the account each kind's list facts find, or reports it as owned by another", async () => {
    const inFile = new Set(file.resources.map((r) => `${r.type} ${r.id}`));
    const left = new Set(report.leftOut.map((r) => `${r.type} ${r.id}`));
    const { objects, refused } = await listedObjects(api);
    for (const { type, path } of refused)
      expect(report.unavailable, `${type} ${path}`).toContainEqual(expect.objectContaining({ type, path }));
    for (const [type, ids] of objects)
      for (const id of ids)
        expect(inFile.has(`${type} ${id}`) || left.has(`${type} ${id}`), `${type} ${id}`).toBe(true);
    // The walk read the seeded kinds, so the check above is not vacuous.
    for (const type of ["nsp:dns:Zone", "nsp:dns:Record", "nsp:rpki:Roa", "nsp:mail:Mailbox", "nsp:vgate:Extension"])
      expect(objects.get(type)?.length, type).toBeGreaterThan(0);
    expect(file.resources.filter((r) => r.type === "nsp:dns:Record")).toHaveLength(seeded.records);
  });

  it("TypeScript: pulumi import --file, the generated program compiles, preview shows no change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-adopt-ts-"));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-ts\nruntime: nodejs\n${plugins}`);
    for (const f of ["package.json", "tsconfig.json"]) copyFileSync(join(ROOT, "examples/typescript", f), join(dir, f));
    writeFileSync(join(dir, "index.ts"), "");
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const stack = await freshStack(dir);
    const code = await importAll(stack, join(dir, "index.ts"));
    expect(code).toContain('from "@nsp/pulumi"');
    expect(code).toContain("new nsp.dns.Record(");
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], {
      stdio: "pipe",
    });
    await stack.preview(["--expect-no-changes"]);
    expect(stack.artefacts()).not.toContain(token);
  });

  it("YAML: pulumi import --file, the generated program previews with no change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-adopt-yaml-"));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-yaml\nruntime: yaml\n${plugins}`);
    const stack = await freshStack(dir);
    const generated = await importAll(stack, join(dir, "program.yaml"));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-yaml\nruntime: yaml\n${plugins}\n${generated}`);
    await stack.preview(["--expect-no-changes"]);
    expect(stack.artefacts()).not.toContain(token);
  });

  it("with --with-state the whole account imports with only the token check, and previews with no change", async () => {
    const path = join(work, "with-state.json");
    await api.resetStats();
    const stateful = (await discoverTo(path, ["--with-state"])) as {
      resources: { type: string; id: string; outputs?: unknown }[];
    };
    const discovering = await api.stats();
    const leftToRead = stateful.resources.filter((r) => !r.outputs);
    expect(stateful.resources.map((r) => `${r.type} ${r.id}`)).toEqual(file.resources.map((r) => `${r.type} ${r.id}`));
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-adopt-state-"));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-state\nruntime: yaml\n${plugins}`);
    const stack = await freshStack(dir);
    await api.resetStats();
    await stack.run(["import", "--file", path, "--yes", "--skip-preview", "--out", join(dir, "program.yaml")]);
    const importing = await api.stats();
    expect(importing.mutating).toBe(0);
    // The token check, and one read of each object that holds a secret (left out of the file).
    expect(importing.total, JSON.stringify(importing.byRoute)).toBeLessThanOrEqual(1 + leftToRead.length);
    console.log(
      `--with-state: nsp-discover ${discovering.total} requests for ${stateful.resources.length} objects ` +
        `(${leftToRead.length} holding a secret, left to read); pulumi import ${importing.total} requests ${JSON.stringify(importing.byRoute)}`,
    );
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `name: nsp-adopt-state\nruntime: yaml\n${plugins}\n${readFileSync(join(dir, "program.yaml"), "utf8")}`,
    );
    await stack.preview(["--expect-no-changes"]);
    expect(stack.artefacts()).not.toContain(token);
  });

  it("a mail domain named as its zone: the program refers to the zone by reference, and previews with no change", async () => {
    const zones = await api.list<{ id: number; name: string }>("/dns/zones");
    const domain = (await api.list<{ name: string; zone_id: number }>("/mail/domains")).find((d) =>
      zones.some((z) => z.id === d.zone_id && z.name === d.name),
    );
    expect(domain).toBeDefined();
    const path = join(work, "zones-and-mail.json");
    const imported = await discoverTo(path, ["--type", "nsp:dns:Zone", "--type", "nsp:mail:Domain"]);
    const zone = imported.resources.find((r) => r.type === "nsp:dns:Zone" && r.id === String(domain!.zone_id))!;
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-adopt-mail-"));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-mail\nruntime: yaml\n${plugins}`);
    const stack = await freshStack(dir);
    const generated = await importAll(stack, join(dir, "program.yaml"), path, imported);
    // YAML writes a name with dashes as `${["adopt0-example"].id}`.
    expect(generated).toMatch(new RegExp(`zoneId: \\$\\{(${zone.name}|\\["${zone.name}"\\])\\.id\\}`));
    expect(generated).not.toMatch(/zoneId: ['"]?\d+['"]?$/m);
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-mail\nruntime: yaml\n${plugins}\n${generated}`);
    await stack.preview(["--expect-no-changes"]);
  });
});

describe("the README's way at size: nsp-discover --import", () => {
  const RECORDS = 2000;
  let big: { token: string; control: EmulatorControl; file: string; work: string; objects: number; zoneIds: number[] };
  const plainCount = 400;

  /** nsp-discover as the README runs it, in `cwd`, for the account of `tokenOf`; resolves with its exit and output. */
  async function nspDiscover(
    args: string[],
    cwd: string,
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const run = await execFileAsync(process.execPath, [join(ROOT, "bin/nsp-discover"), ...args], {
      cwd,
      env: { ...env, NSP_API_TOKEN: big.token, NSP_BASE_URL: emulator.baseUrl },
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code?: number; stdout: string; stderr: string }) => ({
        code: e.code ?? 1,
        stdout: e.stdout,
        stderr: e.stderr,
      }),
    );
    expect(run.stdout + run.stderr).not.toContain(big.token);
    return run;
  }

  /** A YAML project and its stack, for the README's commands; nothing points nsp at the account but NSP_API_TOKEN and NSP_BASE_URL. */
  async function yamlStack(name: string): Promise<Stack> {
    const dir = mkdtempSync(join(tmpdir(), `nsp-e2e-${name}-`));
    writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${plugins}`);
    const stack = await Stack.init(dir, { env: { NSP_API_TOKEN: big.token, NSP_BASE_URL: emulator.baseUrl } });
    stacks.push(stack);
    return stack;
  }

  beforeAll(async () => {
    const token = await api.addAccount("big");
    const control = new EmulatorControl(emulator.baseUrl, token);
    const service = (await control.services()).find((s) => s.type === "auth_dns")!.id;
    // One zone above nsp-discover's size (its zone file), one below (a Record per record); a CA, its ROAs, an edge site and its rule.
    const zoneIds: number[] = [];
    for (const [name, count] of [
      ["large.example", RECORDS - plainCount],
      ["small.example", plainCount],
    ] as const) {
      const zone = await control.post<{ id: number }>("/dns/zones", { service_id: service, name });
      zoneIds.push(zone.id);
      const text = Array.from(
        { length: count },
        (_, i) => `h${i} 300 IN ${i % 2 ? `TXT "record ${i}"` : `A 10.0.${i >> 8}.${i & 255}`}`,
      ).join("\n");
      expect(
        (await control.post<{ added: number }>(`/dns/zones/${zone.id}/import`, { text: `${text}\n`, mode: "apply" }))
          .added,
      ).toBe(count);
    }
    const ca = await control.post<{ id: number }>("/rpki/cas", { handle: "big-ca", asns: [64500] });
    await control.post(`/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "192.0.2.0/24" });
    await control.post(`/rpki/cas/${ca.id}/roas`, { asn: 64500, prefix: "2001:db8::/32", max_length: 48 });
    const site = await control.post<{ id: number }>("/cdn/sites", {
      hostname: "shop.big.example",
      origin: "origin.example.net",
    });
    await control.post("/security/rules", {
      site_id: site.id,
      field: "country",
      op: "in",
      value: "NL",
      action: "block",
    });
    const dir = mkdtempSync(join(tmpdir(), "nsp-e2e-big-"));
    big = { token, control, file: join(dir, "import.json"), work: dir, objects: 0, zoneIds };
    await api.resetStats();
    const discovered = await nspDiscover(["--report", join(dir, "left-out.json")], dir);
    expect(discovered.code, discovered.stderr).toBe(0);
    writeFileSync(big.file, discovered.stdout);
    big.objects = (JSON.parse(discovered.stdout) as ImportFile).resources.length;
    console.log(`nsp-discover of ${RECORDS} records: ${(await api.stats()).total} requests, ${big.objects} objects`);
  });

  it(`adopts ${RECORDS} records, reading each zone at most once, and the first preview shows no change`, async () => {
    const file = JSON.parse(readFileSync(big.file, "utf8")) as ImportFile;
    const types = file.resources.map((r) => r.type);
    expect(types.filter((t) => t === "nsp:dns:ZoneRecords")).toHaveLength(1);
    expect(types.filter((t) => t === "nsp:dns:Record")).toHaveLength(plainCount);
    const stack = await yamlStack("nsp-adopt-big");
    await api.resetStats();
    const run = await nspDiscover(
      ["--import", big.file, "--out", "Main.yaml", "--stack", stack.stack],
      stack.dir,
      stack.env,
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const stats = await api.stats();
    console.log(
      `nsp-discover --import of ${RECORDS} records: ${stats.total} requests ${JSON.stringify(stats.byRoute)}`,
    );
    expect(stats.mutating).toBe(0);
    expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(Math.ceil(RECORDS / 500) + 10);
    // The small zone's records from one page of its list, the large zone's from nsp-discover's file: no record read alone.
    expect(stats.byRoute["GET /dns/zones/:id/records"] ?? 0).toBeLessThanOrEqual(Math.ceil(plainCount / 500));
    expect(stats.byRoute["GET /dns/zones/:id/records/:rid"] ?? 0).toBe(0);
    expect(stats.byRoute["GET /dns/zones/:id/export"] ?? 0).toBe(0);

    const program = readFileSync(join(stack.dir, "Main.yaml"), "utf8");
    // The large zone as its zone file, one line per record, under the zone it refers to.
    expect(program).toMatch(
      /type: nsp:dns:ZoneRecords\n {4}properties:\n {6}zoneFile: \|\n {8}\$ORIGIN large\.example\.\n/,
    );
    expect(program.match(/^ {8}h\d+ 300 IN (A|TXT) /gm)).toHaveLength(RECORDS - plainCount);
    expect(program).toContain('zoneId: ${["large-example"].id}');
    expect(program.match(/type: nsp:dns:Record\n/g)).toHaveLength(plainCount);
    const state = await stack.exportState();
    expect(
      state.deployment.resources.filter((r) => r.type.startsWith("nsp:") && !r.type.startsWith("pulumi:providers:")),
    ).toHaveLength(big.objects);
    await stack.preview(["--expect-no-changes"]);
    expect(stack.artefacts()).not.toContain(big.token);
  });

  it("after a part fails, the same command picks up where it stopped, and the first preview shows no change", async () => {
    const stack = await yamlStack("nsp-adopt-parts");
    const args = ["--import", big.file, "--out", "Main.yaml", "--part-size", "250", "--stack", stack.stack];
    // The CA is in the second part; the API fails its reads, and the plugin does not retry them.
    await big.control.setFaults({ rate: 1, kinds: ["error5xx"], methods: ["GET"], path: "^/api/v1/rpki/cas/\\d+$" });
    const failed = await nspDiscover(args, stack.dir, { ...stack.env, NSP_MAX_RETRIES: "0" }).finally(() =>
      big.control.clearFaults(),
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("nsp-discover: part 1 of 2: importing 250 objects");
    expect(failed.stderr).toContain("nsp-discover: part 2 of 2 failed; run the same command again");
    const held = new Set((await stack.exportState()).deployment.resources.map((r) => r.urn.split("::").pop()!));
    const names = (JSON.parse(readFileSync(big.file, "utf8")) as ImportFile).resources.map((r) => r.name);
    // The first part is in the stack (a failed part also keeps what it imported); the CA is not.
    expect(names.slice(0, 250).every((n) => held.has(n))).toBe(true);
    expect(names.filter((n) => !held.has(n))).toContain("big-ca");
    expect(existsSync(join(stack.dir, "Main.yaml"))).toBe(false);

    await api.resetStats();
    const again = await nspDiscover(args, stack.dir, stack.env);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    const stats = await api.stats();
    // Only what the first run did not import is read, at most two requests each (a CA reads its
    // child request too, records come from their zone's list), besides the token checks.
    const missing = names.filter((n) => !held.has(n)).length;
    expect(again.stderr).toContain(
      `nsp-discover: ${big.objects - missing} of the ${big.objects} objects are in the stack already`,
    );
    expect(again.stderr).toContain(`nsp-discover: part 1 of 1: importing ${missing} objects`);
    console.log(
      `the same command again, ${missing} objects missing: ${stats.total} requests ${JSON.stringify(stats.byRoute)}`,
    );
    // Two pulumi imports (the part, then the program's), each checking the token once.
    expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(2 + 2 * missing);
    expect(stats.byRoute["GET /dns/zones/:id/records/:rid"] ?? 0).toBe(0);
    expect(readFileSync(join(stack.dir, "Main.yaml"), "utf8").match(/type: nsp:/g)).toHaveLength(big.objects);
    await stack.preview(["--expect-no-changes"]);
  });
});
