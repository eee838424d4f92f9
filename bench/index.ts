// `npm run bench [-- P1 P4 ...]`: the provider's performance measurements (P1 to P9), each
// beside a baseline taken in the same run. Not a test: it prints figures and whether each meets
// its goal, and exits 0 unless a part could not run at all. Requests are counted by the
// emulator (/_emulator/stats).
import { execFileSync } from "node:child_process";
import { type Figure, type PartResult, cpuCounters, cpuText, loadText, log } from "./lib";
import { p1 } from "./p1-refresh";
import { P2_DEFAULT_Q, p2 } from "./p2-quota";
import { P3_DEFAULT_SIZES, p3 } from "./p3-zone-records";
import { p4 } from "./p4-cold-start";
import { p5 } from "./p5-memory";
import { p6 } from "./p6-throughput";
import { p7 } from "./p7-adopt";
import { p8 } from "./p8-shared-quota";
import { P9_DEFAULT_BASE, p9 } from "./p9-plugin-cpu";
import { F1_DEFAULT_CUSTOMERS, f1 } from "./f1-fleet";
import { F2_DEFAULT_CUSTOMERS, f2 } from "./f2-fleet-scale";
import { f3 } from "./f3-fleet-database";
import { f4 } from "./f4-stack-cpu";
import { u1 } from "./u1-fleet-page";

const PARTS: Record<
  string,
  {
    title: string;
    run: (opts: {
      q: number;
      p3Sizes: number[];
      f1Customers: number;
      f2Customers: number;
      p9Base: string;
    }) => Promise<PartResult>;
  }
> = {
  P1: { title: "requests to refresh 1,000 records of one zone", run: () => p1() },
  P2: { title: "wall time to create 1,000 records under a quota", run: ({ q }) => p2(q) },
  P3: {
    title:
      "nsp:dns:ZoneRecords at 1,000 to 100,000 records: requests, wall time and plugin RSS of up, refresh, " +
      "preview, a change, a refused and an allowed cut, and destroy",
    run: ({ p3Sizes }) => p3(p3Sizes),
  },
  P4: { title: "plugin cold start to port", run: () => p4() },
  P5: { title: "plugin peak RSS after 10,000 operations", run: () => p5() },
  P6: { title: "emulator requests per second", run: () => p6() },
  P7: {
    title:
      "adopting an account of 100 zones × 1,000 records, the README's way: discovery, the import and the first preview",
    run: () => p7(),
  },
  P8: { title: "4 stacks sharing one token's quota: pulumi up of 150 records each, at once", run: () => p8() },
  P9: {
    title: "plugin CPU of one provider instance's calls in a no-change up, against an earlier commit's plugin",
    run: ({ p9Base }) => p9(p9Base),
  },
  F1: {
    title: "the fleet on its PostgreSQL queue: the same customers with 1, 2 and 3 workers",
    run: ({ f1Customers }) => f1(f1Customers),
  },
  F2: {
    title:
      "the fleet at scale: create, no-change up, preview and drift of N customers on 3 workers, with their " +
      "floors, and 1,000 computed",
    run: ({ f2Customers }) => f2(f2Customers),
  },
  F3: {
    title: "1,000 stacks in one database: status, the queue and Pulumi's PostgreSQL state backend at that size",
    run: () => f3(),
  },
  F4: {
    title:
      "a stack's no-change up, process by process: TypeScript and YAML with the CLI, TypeScript through the " +
      "Automation API's inline program",
    run: () => f4(),
  },
  U1: {
    title: "the fleet's page (nsp-fleet serve): the overview's first page at 40 and at 1,000 stacks, server time",
    run: () => u1(),
  },
};

const USAGE = `usage: npm run bench [-- [P1 ... P9 F1 ... F4 U1] [--p2-rate=N] [--p3-sizes=N,N,...] [--f1-customers=N] [--f2-customers=N] [--p9-base=REF] [--no-build]]
  With no part named, all run (about 12 minutes, and F1 and F2; P7 takes about 2, P8 about 3). --p2-rate sets P2's quota Q (default ${P2_DEFAULT_Q}/min);
  --p3-sizes sets the zone sizes of P3 (default ${P3_DEFAULT_SIZES.join(",")}); \`npm run bench -- P3\` runs P3 alone;
  --f1-customers sets F1's fleet (default ${F1_DEFAULT_CUSTOMERS}; F1 takes about 15 minutes on 2 cores); U1 takes about a minute;
  --f2-customers sets F2's fleet (default ${F2_DEFAULT_CUSTOMERS}; its four runs take about 12 minutes on 2 cores; 1,000 customers would
  take about 20 minutes a run there: F2 computes 1,000 from the measured rates); F3 takes about a minute and a half, F4 about two;
  --p9-base names the git commit whose plugin P9 compares against (default ${P9_DEFAULT_BASE});
  --no-build skips scripts/build.mjs (the benchmark itself is always bundled again).`;

function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return loadText();
  }
}

function table(figures: Figure[]): string {
  const head = ["figure", "measured", "baseline", "ratio", "goal", "met"];
  const rows = figures.map((f) => [
    f.name,
    f.measured,
    f.baseline,
    f.ratio,
    f.goal,
    f.met === undefined ? "n/a" : f.met ? "met" : "NOT MET",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  let q = P2_DEFAULT_Q;
  let p3Sizes = P3_DEFAULT_SIZES;
  let f1Customers = F1_DEFAULT_CUSTOMERS;
  let f2Customers = F2_DEFAULT_CUSTOMERS;
  let p9Base = P9_DEFAULT_BASE;
  const selected: string[] = [];
  for (const a of args) {
    const rate = /^--p2-rate=(\d+)$/.exec(a);
    const sizes = /^--p3-sizes=(\d+(?:,\d+)*)$/.exec(a);
    const fleet = /^--f1-customers=(\d+)$/.exec(a);
    const scale = /^--f2-customers=(\d+)$/.exec(a);
    const base = /^--p9-base=(\S+)$/.exec(a);
    if (rate) q = Number(rate[1]);
    else if (fleet) f1Customers = Number(fleet[1]);
    else if (scale) f2Customers = Number(scale[1]);
    else if (base) p9Base = base[1]!;
    else if (sizes) p3Sizes = sizes[1]!.split(",").map(Number);
    else if (PARTS[a.toUpperCase()]) selected.push(a.toUpperCase());
    else {
      console.error(`unknown argument: ${a}\n${USAGE}`);
      process.exit(2);
    }
  }
  const parts = selected.length ? [...new Set(selected)].sort() : Object.keys(PARTS);

  const loadBefore = uptime();
  console.log(`nsp benchmark: ${parts.join(" ")}; node ${process.version}`);
  console.log(`before: ${loadBefore}`);
  const figures: Figure[] = [];
  const notes: string[] = [];
  let broken = 0;
  const started = performance.now();
  const cpuAtStart = cpuCounters();
  for (const id of parts) {
    const part = PARTS[id]!;
    log(`${id}: ${part.title} (${loadText()})`);
    const t0 = performance.now();
    const cpu0 = cpuCounters();
    try {
      const res = await part.run({ q, p3Sizes, f1Customers, f2Customers, p9Base });
      figures.push(...res.figures);
      notes.push(...res.notes, ...res.figures.flatMap((f) => f.notes ?? []));
    } catch (e) {
      broken++;
      const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
      notes.push(`${id} could not run: ${msg}`);
      figures.push({
        name: `${id} ${part.title}`,
        measured: "ERROR",
        baseline: "-",
        ratio: "-",
        goal: "-",
        met: false,
      });
    }
    const took = `${id}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s; machine meanwhile: ${loadText()}, ${cpuText(cpu0, cpuCounters())}`;
    log(took);
    notes.push(took);
  }
  const loadAfter = uptime();

  console.log("\nNotes:");
  for (const n of notes) console.log(`- ${n}`);
  console.log(
    `\nResults (${((performance.now() - started) / 1000).toFixed(0)} s; before: ${loadBefore.replace(/^.*load average/, "load average")}; ` +
      `after: ${loadAfter.replace(/^.*load average/, "load average")}; over the run: ${cpuText(cpuAtStart, cpuCounters())}):\n`,
  );
  console.log(table(figures));
  const missed = figures.filter((f) => f.met === false).length;
  console.log(
    `\n${figures.length - missed} of ${figures.length} figures meet their goal${missed ? `; ${missed} do not` : ""}.`,
  );
  if (broken) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
