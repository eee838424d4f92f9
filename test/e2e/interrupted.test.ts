// A `pulumi up` killed with SIGKILL (CLI, language host and plugin at once, as when a CI runner
// dies), at four points of a zone and its records, then the recovery docs/guides/interrupted-runs.md documents for
// going without nsp-discover ("When a run is interrupted": refresh --clear-pending-creates, up),
// non-interactively. Afterwards the server must hold exactly the program's objects, the state
// must name them, and a preview must find nothing to do. (killed-run.test.ts: with nsp-discover.)
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../helpers/emulator-control";
import { until } from "../helpers/until";
import { Stack, startEmulatorProcess, type EmulatorProcess, type RunResult } from "./harness/pulumi-cli";

let emulator: EmulatorProcess;
let admin: EmulatorControl;
const stacks: Stack[] = [];
const figures: Record<string, unknown>[] = [];

beforeAll(async () => {
  emulator = await startEmulatorProcess(["--rate-limit", "0"]);
  admin = emulator.control();
});

afterAll(async () => {
  console.log(`interrupted-run figures:\n${figures.map((f) => JSON.stringify(f)).join("\n")}`);
  for (const s of stacks) s.cleanup();
  await admin?.clearFaults().catch(() => undefined);
  await emulator?.stop();
});

const RECORDS = 60;
/** A kill point's request is held this long, far beyond any run: the test lets it go (faults/release). */
const HOLD_MS = 600_000;

function program(): string {
  let out = `${Stack.yamlProgramHead("nsp-interrupted")}resources:
  zone:
    type: nsp:dns:Zone
    properties: { serviceId: "\${authDns[0].id}", name: interrupted.example }
`;
  for (let i = 0; i < RECORDS; i++)
    out += `  txt${i}:\n    type: nsp:dns:Record\n    properties: { zoneId: "\${zone.id}", name: t${i}, type: TXT, content: "v=${i}" }\n`;
  return out;
}

const wanted = Array.from({ length: RECORDS }, (_, i) => `t${i} TXT v=${i}`).sort();

/** A stack in an emulator account of its own, so that everything on the server is the stack's. */
async function newStack(): Promise<{ stack: Stack; api: EmulatorControl }> {
  const token = await admin.addAccount(`interrupted${stacks.length}`);
  const stack = await Stack.init(Stack.yamlProject(program()));
  stacks.push(stack);
  await stack.useAccount(emulator.baseUrl, token);
  return { stack, api: new EmulatorControl(emulator.baseUrl, token) };
}

/** SIGKILL to a process and all its descendants at once, with no chance to clean up. */
function killTree(root: number): number {
  const children = new Map<number, number[]>();
  for (const line of execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return tree.length;
}

interface ServerView {
  zones: { id: number; name: string }[];
  records: { id: number; name: string; type: string; content: string }[];
}

async function serverView(api: EmulatorControl): Promise<ServerView> {
  const zones = await api.list<{ id: number; name: string }>("/dns/zones");
  const records: ServerView["records"] = [];
  for (const z of zones) records.push(...(await api.list<ServerView["records"][number]>(`/dns/zones/${z.id}/records`)));
  return { zones, records };
}

async function stateOf(stack: Stack): Promise<{ ids: Set<string>; pending: number }> {
  const exported = (await stack.exportState()) as unknown as {
    deployment: { resources: { type: string; id?: string }[]; pending_operations?: unknown[] };
  };
  const ids = new Set(
    exported.deployment.resources
      .filter((r) => r.type.startsWith("nsp:dns:"))
      .map((r) => `${r.type === "nsp:dns:Zone" ? "zone" : "record"} ${r.id}`),
  );
  return { ids, pending: exported.deployment.pending_operations?.length ?? 0 };
}

/** Objects on the server the state does not name, and identical objects beyond the first. */
function count(view: ServerView, state: Set<string>) {
  const keys = [
    ...view.zones.map((z) => `zone ${z.name}`),
    ...view.records.map((r) => `${r.name} ${r.type} ${r.content}`),
  ];
  const ids = [...view.zones.map((z) => `zone ${z.id}`), ...view.records.map((r) => `record ${r.id}`)];
  return {
    onServer: ids.length,
    duplicates: keys.length - new Set(keys).size,
    orphans: ids.filter((id) => !state.has(id)).length,
  };
}

/**
 * The recovery of docs/guides/interrupted-runs.md, step by step: drop the dead run's lock, drop its pending creates
 * (nsp finds those objects again by their content), and run `up`; a unique name that a dead
 * create took fails with the `pulumi import` command that adopts it, which is run before the
 * `up` is repeated.
 */
async function recover(stack: Stack): Promise<{ steps: string[] }> {
  const steps = ["pulumi cancel --yes", "pulumi refresh --yes --clear-pending-creates", "pulumi up --yes"];
  await stack.run(["cancel", "--yes"]);
  await stack.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
  const up = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
  if (up.code === 0) return { steps };
  const imports = [...(up.stdout + up.stderr).matchAll(/pulumi import (\S+) (\S+) (\d+) --protect=false --yes/g)];
  if (imports.length === 0) throw new Error(`up failed without an import command:\n${up.stdout}\n${up.stderr}`);
  for (const [, type, name, id] of imports) {
    await stack.run(["import", type!, name!, id!, "--protect=false", "--yes"]);
    steps.push(`pulumi import ${type} ${name} ${id} --protect=false --yes`);
  }
  await stack.up();
  steps.push("pulumi up --yes");
  return { steps };
}

/**
 * The guide's first recovery step, for a file backend: a kill between the truncation and the
 * write of a checkpoint's metadata sidecar leaves it empty, and every command then fails with
 * "failed to load checkpoint: EOF". A missing sidecar is read as no metadata.
 */
function removeEmptySidecars(stack: Stack): number {
  let removed = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".attrs") && statSync(path).size === 0) {
        rmSync(path);
        removed++;
      }
    }
  };
  walk(stack.backend);
  return removed;
}

async function killedUp(
  stack: Stack,
  api: EmulatorControl,
  point: string,
  killWhen: () => Promise<boolean>,
): Promise<RunResult> {
  const run = stack.start(["up", "--yes", "--skip-preview", "--parallel", "8"]);
  await until(async () => run.child.exitCode !== null || (await killWhen()));
  expect(run.child.exitCode, `the up ended before the kill point "${point}"`).toBeNull();
  killTree(run.child.pid!);
  const result = await run.done;
  // What was on the wire lands now, after the kill, as it would on a real server: the held
  // requests are let go (again and again, as a body still being read is held only once read)
  // until the emulator has answered every request it received.
  await api.clearFaults();
  await until(async () => {
    await fetch(`${api.root}/_emulator/faults/release`, { method: "POST" });
    const stats = (await (await fetch(`${api.root}/_emulator/stats`)).json()) as {
      total: number;
      byStatus: Record<string, number>;
    };
    return Object.values(stats.byStatus).reduce((a, b) => a + b, 0) === stats.total;
  });
  return result;
}

/** The emulator's request count of one route since the last reset (the control is global). */
async function requests(route: string): Promise<number> {
  return (await admin.stats()).byRoute[route] ?? 0;
}

describe("a pulumi up killed with SIGKILL", () => {
  const points: [string, (api: EmulatorControl) => Promise<() => Promise<boolean>>][] = [
    [
      "before the zone's create (the program is reading the services)",
      async () => {
        await admin.setFaults({
          rate: 1,
          kinds: ["latency"],
          latencyMs: HOLD_MS,
          methods: ["GET"],
          path: "/services$",
        });
        return async () => (await requests("GET /services")) > 0;
      },
    ],
    [
      "during the zone's create (its POST is on the wire)",
      async () => {
        await admin.setFaults({
          rate: 1,
          kinds: ["latency"],
          latencyMs: HOLD_MS,
          methods: ["POST"],
          path: "/dns/zones$",
        });
        return async () => (await requests("POST /dns/zones")) > 0;
      },
    ],
    [
      "right after the zone's create (before any record is posted)",
      async () => {
        // The records' first step is to list the zone's records: held, so no record is posted.
        await admin.setFaults({ rate: 1, kinds: ["latency"], latencyMs: HOLD_MS, methods: ["GET"], path: "/records" });
        return async () => (await requests("GET /dns/zones/:id/records")) > 0;
      },
    ],
    [
      `in the middle of the ${RECORDS} records (8 creates on the wire)`,
      async () => {
        // A third of the records are made at once; every create after them is held on the wire.
        await admin.setFaults({
          rate: 1,
          kinds: ["latency"],
          latencyMs: HOLD_MS,
          methods: ["POST"],
          path: "/records$",
          after: RECORDS / 3,
        });
        return async () => ((await admin.stats()).faults.latency ?? 0) >= 8;
      },
    ],
  ];

  for (const [point, arm] of points) {
    it(`${point}: recovers with no duplicate and no orphan`, async () => {
      const { stack, api } = await newStack();
      await admin.resetStats();
      const killWhen = await arm(api);
      const started = Date.now();
      await killedUp(stack, api, point, killWhen);
      const sidecarsAfterKill = removeEmptySidecars(stack);
      const afterKill = count(await serverView(api), (await stateOf(stack)).ids);
      const pendingAfterKill = (await stateOf(stack)).pending;

      const { steps } = await recover(stack);
      const view = await serverView(api);
      const state = await stateOf(stack);
      const after = count(view, state.ids);
      figures.push({
        point,
        program: RECORDS + 1,
        afterKill: { ...afterKill, pendingCreates: pendingAfterKill },
        afterRecovery: after,
        recovery: sidecarsAfterKill
          ? [`delete ${sidecarsAfterKill} empty .attrs sidecar(s) of the file backend`, ...steps]
          : steps,
        seconds: Math.round((Date.now() - started) / 1000),
      });

      expect(view.zones.map((z) => z.name)).toEqual(["interrupted.example"]);
      expect(view.records.map((r) => `${r.name} ${r.type} ${r.content}`).sort()).toEqual(wanted);
      expect(after).toEqual({ onServer: RECORDS + 1, duplicates: 0, orphans: 0 });
      expect(state.ids.size).toBe(RECORDS + 1);
      expect(state.pending).toBe(0);
      await stack.preview(["--expect-no-changes"]);
    });
  }
});
