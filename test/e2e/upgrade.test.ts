// Upgrades from every released version, on the real thing. For each release, its own plugin
// archive (test/fixtures/releases, installed into the stack's PULUMI_HOME as a user installs it)
// brings up a stack of one object of every resource kind, with the program as that release spelled
// it; then the plugin of this tree runs the program as this release spells it and must find
// nothing to do: a preview and a refresh without changes and an up that changes nothing, every
// id kept, every state moved to this release's shape; then it destroys the stack.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourcesByToken } from "../../provider/src/modules/all-definitions";
import { recordedVersion, stateVersionOf, STATE_VERSION_KEY } from "../../provider/src/framework/engine/state-version";
import type { EmulatorControl } from "../helpers/emulator-control";
import { pulumiEnv, ROOT, Stack, startEmulatorProcess, type EmulatorProcess } from "./harness/pulumi-cli";
import type { Obj, Row } from "./harness/every-resource-table";
import { everyResourceRows, programOf, upEveryResource } from "./harness/every-resource-stack";

/** Every release, oldest first. A release adds its archive to test/fixtures/releases and its line here. */
const RELEASES = ["0.1.0"];

const archiveOf = (release: string) =>
  join(ROOT, "test", "fixtures", "releases", `pulumi-resource-nsp-v${release}-linux-amd64.tar.gz`);

/**
 * What a program had to spell otherwise before a release: the release that changed it, and the
 * row's properties as the release before it took them. (The state side of each change is a
 * migration in the resource's definition.)
 */
const SPELLING_CHANGES: { release: string; type: string; before(properties: Obj): Obj }[] = [
  {
    release: "0.2.0",
    type: "nsp:services:Policy",
    before: ({ schedule, ...rest }) => ({
      ...rest,
      scheduleJson: schedule === undefined ? "" : JSON.stringify(schedule),
    }),
  },
];

/** Whether the plugin of `release` knows the kind: the plugin of an earlier release than its `since` refuses it. */
const knownIn = (release: string, type: string) => compareVersions(resourcesByToken.get(type)!.since!, release) <= 0;

function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The rows as the program of `release` wrote them. */
function rowsOf(release: string, rows: Row[]): Row[] {
  const changes = SPELLING_CHANGES.filter((c) => compareVersions(c.release, release) > 0).sort((a, b) =>
    compareVersions(b.release, a.release),
  );
  return rows.map((row) => ({
    ...row,
    properties: changes.filter((c) => c.type === row.type).reduce((p, c) => c.before(p), row.properties),
  }));
}

interface Managed {
  type: string;
  id: string;
  version: number;
}

/** The stack's nsp objects by URN: type, id and the shape version their state records. */
async function managed(stack: Stack): Promise<Map<string, Managed>> {
  const state = await stack.exportState();
  const out = new Map<string, Managed>();
  for (const r of state.deployment.resources ?? []) {
    if (!r.type.startsWith("nsp:")) continue;
    const def = resourcesByToken.get(r.type)!;
    out.set(r.urn, { type: r.type, id: r.id!, version: recordedVersion(def, r.outputs ?? {}) });
  }
  return out;
}

describe.each(RELEASES)("a stack of every resource kind brought up by the %s plugin", (release) => {
  // An account of its own: some objects outlive their delete by design (a revoked consent, the
  // exchange membership), and the next release's stack makes them again.
  let emulator: EmulatorProcess;
  let api: EmulatorControl;
  let rows: Row[];
  let stack: Stack | undefined;

  beforeAll(async () => {
    emulator = await startEmulatorProcess();
    api = emulator.control();
    rows = (await everyResourceRows(api)).filter((row) => knownIn(release, row.type));
  });

  afterAll(async () => {
    stack?.cleanup();
    await emulator?.stop();
  });

  it("runs on this tree's plugin with no change and no replacement, every id kept, then destroys", {
    timeout: 1_200_000,
  }, async () => {
    const seconds: Record<string, number> = {};
    const timed = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      try {
        return await run();
      } finally {
        seconds[step] = (Date.now() - started) / 1000;
      }
    };

    stack = await Stack.init(Stack.yamlProject(programOf(rowsOf(release, rows), { installedPlugin: true })), {
      sharedPlugin: false,
    });
    const s = stack;
    // The release's plugin, installed as a user installs a downloaded archive; the program names
    // no plugin path and the engine may fetch none, so this is the only nsp plugin it can run.
    const install = spawnSync(
      "pulumi",
      ["plugin", "install", "resource", "nsp", release, "--file", archiveOf(release)],
      { env: pulumiEnv(s.home, s.backend), encoding: "utf8" },
    );
    expect(install.status, install.stderr).toBe(0);
    await s.useAccount(emulator.baseUrl, api.token);
    await timed(`up (${release})`, () => upEveryResource(s, api));
    const before = await managed(s);
    expect(before.size).toBe(rows.length);
    expect(new Set([...before.values()].map((m) => m.type)).size).toBe(new Set(rows.map((r) => r.type)).size);

    // The user moves to this release: its plugin, and the program as this release spells it.
    writeFileSync(join(s.dir, "Pulumi.yaml"), programOf(rows));
    const preview = await timed("preview", () => s.preview(["--expect-no-changes", "--json"]));
    const summary = (JSON.parse(preview.stdout) as { changeSummary: Record<string, number> }).changeSummary;
    expect(summary).toEqual({ same: before.size + 1 });
    await timed("refresh", () => s.refresh(["--expect-no-changes"]));
    await timed("up", () => s.up(["--expect-no-changes"]));

    const after = await managed(s);
    const ids = (objects: Map<string, Managed>) => Object.fromEntries([...objects].map(([urn, m]) => [urn, m.id]));
    expect(ids(after)).toEqual(ids(before));
    // Every state now has this release's shape; the ones that had an older one were migrated.
    for (const m of after.values()) expect(m.version, m.type).toBe(stateVersionOf(resourcesByToken.get(m.type)!));
    const migrated = [
      ...new Set(
        [...before.values()]
          .filter((m) => m.version < stateVersionOf(resourcesByToken.get(m.type)!))
          .map((m) => m.type),
      ),
    ].sort();
    const changedSince = [...new Set(rows.map((r) => r.type))]
      .filter((t) => resourcesByToken.get(t)!.migrations?.some((m) => compareVersions(m.release, release) > 0))
      .sort();
    expect(migrated).toEqual(changedSince);

    await timed("destroy", () => s.destroy());
    expect(await managed(s)).toEqual(new Map());
    // For the note of the change: what was upgraded and how long each step took.
    process.stdout.write(
      `upgrade from ${release}: ${before.size} resources ` +
        `(${new Set([...before.values()].map((m) => m.type)).size} kinds), ${summary.same} unchanged, ` +
        `${summary.replace ?? 0} replaced, states migrated: ${migrated.join(", ") || "none"} ` +
        `(${STATE_VERSION_KEY}); seconds ${JSON.stringify(seconds)}\n`,
    );
  });
});
