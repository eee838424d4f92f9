// Adopting an existing account in one step, with the real pulumi CLI: an account seeded through
// the API, `nsp-discover > import.json`, `pulumi import --file` in a fresh stack for TypeScript
// and YAML, the generated program compiles, and `pulumi preview --expect-no-changes` passes; with
// --with-state the import reads nothing but the token.
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, type Seeded } from "../helpers/account-seed";
import type { EmulatorControl } from "../helpers/emulator-control";
import { ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";

const execFileAsync = promisify(execFile);

interface ImportFile {
  resources: { type: string; name: string; id: string }[];
}
interface Report {
  leftOut: { type: string; id: string; reason: string }[];
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
async function importAll(stack: Stack, out: string, path = join(work, "import.json"), discovered = file): Promise<string> {
  await api.resetStats();
  await stack.run(["import", "--file", path, "--yes", "--skip-preview", "--out", out]);
  const stats = await api.stats();
  expect(stats.mutating).toBe(0);
  // The Reads of the records come from their zone's list pages, not one GET per record.
  const records = discovered.resources.filter((r) => r.type === "nsp:dns:Record").length;
  const zones = discovered.resources.filter((r) => r.type === "nsp:dns:Zone").length;
  // Plus the one read of the token when the plugin is configured.
  expect(stats.total, JSON.stringify(stats.byRoute)).toBeLessThanOrEqual(1 + Math.ceil(records / 500) + 2 * zones + (discovered.resources.length - records - zones));
  const state = await stack.exportState();
  const adopted = state.deployment.resources.filter((r) => r.type.startsWith("nsp:") && !r.type.startsWith("pulumi:providers:"));
  expect(adopted).toHaveLength(discovered.resources.length);
  return readFileSync(out, "utf8");
}

describe("adopting a whole account with nsp-discover and pulumi import", () => {
  it("the file holds every object of the account, or reports it as owned by another", async () => {
    const inFile = new Set(file.resources.map((r) => `${r.type} ${r.id}`));
    const left = new Set(report.leftOut.map((r) => `${r.type} ${r.id}`));
    const accounted = (type: string, id: string) => expect(inFile.has(`${type} ${id}`) || left.has(`${type} ${id}`), `${type} ${id}`).toBe(true);
    const zones = await api.list<{ id: number; dnssec: boolean; transfer: { allow: string[] } }>("/dns/zones");
    for (const z of zones) {
      accounted("nsp:dns:Zone", String(z.id));
      if (z.dnssec) accounted("nsp:dns:ZoneDnssec", String(z.id));
      if (z.transfer.allow.length) accounted("nsp:dns:ZoneTransfer", String(z.id));
      for (const r of await api.list<{ id: number }>(`/dns/zones/${z.id}/records`)) accounted("nsp:dns:Record", `${z.id}/${r.id}`);
    }
    for (const s of await api.list<{ id: number }>("/cdn/sites")) accounted("nsp:cdn:Site", String(s.id));
    for (const r of await api.list<{ id: number }>("/security/rules")) accounted("nsp:security:Rule", String(r.id));
    for (const ca of await api.list<{ id: number }>("/rpki/cas")) {
      accounted("nsp:rpki:Ca", String(ca.id));
      for (const roa of await api.list<{ id: number }>(`/rpki/cas/${ca.id}/roas`)) accounted("nsp:rpki:Roa", `${ca.id}/${roa.id}`);
    }
    for (const d of await api.list<{ id: number }>("/mail/domains")) {
      accounted("nsp:mail:Domain", String(d.id));
      for (const [type, path] of [["Mailbox", "mailboxes"], ["Alias", "aliases"], ["Group", "groups"]] as const) {
        for (const o of await api.list<{ id: string }>(`/mail/domains/${d.id}/${path}`)) accounted(`nsp:mail:${type}`, `${d.id}/${o.id}`);
      }
    }
    for (const t of await api.list<{ id: number; hostnames: { managed_by?: string }[] }>("/link/tunnels")) {
      accounted("nsp:link:Tunnel", String(t.id));
      for (const h of t.hostnames) accounted("nsp:link:TunnelHostnames", `${t.id}/${h.managed_by}`);
    }
    for (const p of await api.list<{ id: string }>("/vgate/pbx")) {
      accounted("nsp:vgate:Pbx", p.id);
      for (const [type, path] of [["Extension", "extensions"], ["RingGroup", "groups"], ["Ivr", "ivrs"]] as const) {
        for (const o of await api.list<{ id: string }>(`/vgate/pbx/${p.id}/${path}`)) accounted(`nsp:vgate:${type}`, `${p.id}/${o.id}`);
      }
    }
    for (const w of await api.list<{ id: number }>("/webhooks")) accounted("nsp:index:Webhook", String(w.id));
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
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { stdio: "pipe" });
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
    const stateful = (await discoverTo(path, ["--with-state"])) as { resources: { type: string; id: string; outputs?: unknown }[] };
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
      `--with-state: nsp-discover ${discovering.total} requests for ${stateful.resources.length} objects (${leftToRead.length} holding a secret, left to read); pulumi import ${importing.total} requests ${JSON.stringify(importing.byRoute)}`,
    );
    writeFileSync(join(dir, "Pulumi.yaml"), `name: nsp-adopt-state\nruntime: yaml\n${plugins}\n${readFileSync(join(dir, "program.yaml"), "utf8")}`);
    await stack.preview(["--expect-no-changes"]);
    expect(stack.artefacts()).not.toContain(token);
  });

  it("a mail domain named as its zone: the program refers to the zone by reference, and previews with no change", async () => {
    const zones = await api.list<{ id: number; name: string }>("/dns/zones");
    const domain = (await api.list<{ name: string; zone_id: number }>("/mail/domains")).find((d) => zones.some((z) => z.id === d.zone_id && z.name === d.name));
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
