// U1: the fleet's page (`nsp-fleet serve`) at 40 and at 1,000 stacks. Each fleet is a database
// filled with 48 hours of a fleet's rows (test/e2e/harness/fleet-rows.ts: an up every 6 hours, a
// drift check every hour, a preview now and then; two stacks failed, one drifted), so the
// 1,000-stack one holds some 50,000 stack rows. The figure is the server's time to answer the
// overview's first page (GET /, the HTML: counts, latest runs, the page of 50 rows), measured
// in process with fastify's inject (no socket, no browser): the median of 50 requests after 5
// to warm up. Beside it, at 1,000 stacks, a filtered and a sorted page and the JSON answers the
// page's script asks for. The baseline of the 1,000-stack figure is the 40-stack one. The page
// reads each stack's latest row by an index on stacks (stack, enqueued_at DESC); on a schema
// without it, U1 measures the page as it is, then again with the index.
import { join } from "node:path";
import { Client } from "pg";
import { loadAssets } from "../fleet/src/serve/assets";
import { FleetReader } from "../fleet/src/serve/queries";
import { buildApp } from "../fleet/src/serve/server";
import { fillFleet, refOf } from "../test/e2e/harness/fleet-rows";
import { testPostgres } from "../test/e2e/harness/postgres-backend";
import { type Figure, type PartResult, ROOT, log, median, ms, x } from "./lib";

export const U1_SIZES = [40, 1000];
const WARM = 5;
const TIMES = 50;
const GOAL_MS = 200;

async function timed(ask: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < WARM + TIMES; i++) {
    const t0 = performance.now();
    const r = await ask();
    const took = performance.now() - t0;
    if (r.statusCode !== 200) throw new Error(`answered ${r.statusCode}`);
    if (i >= WARM) out.push(took);
  }
  return out;
}

const LATEST_INDEX = /ON nsp_fleet\.stacks USING btree \(stack, enqueued_at DESC\)/;

async function hasLatestIndex(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = 'nsp_fleet' AND tablename = 'stacks'",
    );
    return rows.some((r) => LATEST_INDEX.test(r.indexdef));
  } finally {
    await client.end();
  }
}

async function addLatestIndex(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "CREATE INDEX IF NOT EXISTS stacks_latest ON nsp_fleet.stacks (stack, enqueued_at DESC); ANALYZE nsp_fleet.stacks",
    );
  } finally {
    await client.end();
  }
}

const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.95)]!;

export async function u1(): Promise<PartResult> {
  const pg = await testPostgres();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const firstPage = new Map<string, number>();
  try {
    for (const stacks of U1_SIZES) {
      const url = await pg.database(`u1_${stacks}`);
      const t0 = performance.now();
      const ref = (n: number) => refOf(n - 1, Math.max(3, String(stacks).length));
      const fleet = await fillFleet(url, {
        stacks,
        hours: 48,
        failed: [ref(7), ref(23)],
        drifted: { stack: ref(31), property: "content", recorded: "192.0.2.10", actual: "192.0.2.99" },
      });
      log(
        `U1: ${stacks} stacks, ${fleet.runs} runs, ${fleet.rows} stack rows written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      // The overview reads each stack's latest row by an index on stacks (stack, enqueued_at DESC).
      // A schema without it is measured as it is, then with the index added here.
      const indexed = await hasLatestIndex(url);
      for (const withIndex of indexed ? [true] : [false, true]) {
        if (withIndex && !indexed) await addLatestIndex(url);
        const label = indexed
          ? ""
          : withIndex
            ? ", with the index on stacks (stack, enqueued_at DESC) added"
            : ", as FLEET_SCHEMA makes it (no index on stacks (stack, enqueued_at DESC))";
        const reader = await FleetReader.open({ url });
        const app = await buildApp(reader, {
          loopbackOnly: true,
          logDirs: [],
          assets: loadAssets(join(ROOT, "dist", "fleet-assets")),
          secrets: [],
        });
        try {
          const page = (path: string) => () => app.inject({ method: "GET", url: path });
          const first = await timed(page("/"));
          firstPage.set(`${stacks}${withIndex ? "" : " unindexed"}`, median(first));
          notes.push(
            `U1 ${stacks} stacks (${fleet.rows} stack rows)${label}: GET / median ${ms(median(first))}, p95 ${ms(p95(first))}`,
          );
          if (stacks === U1_SIZES.at(-1) && withIndex) {
            for (const path of [
              "/?filter=failed",
              "/?sort=duration",
              "/?page=20",
              "/api/overview",
              "/api/version",
              "/api/charts",
              `/customers/${ref(31)}`,
            ]) {
              const t = await timed(page(path));
              notes.push(`U1 ${stacks} stacks: GET ${path} median ${ms(median(t))}, p95 ${ms(p95(t))}`);
            }
          }
        } finally {
          await app.close();
          await reader.close();
        }
      }
    }
  } finally {
    pg.stop();
  }
  const unindexed = firstPage.get(`${U1_SIZES.at(-1)} unindexed`);
  if (unindexed !== undefined) {
    figures.push({
      name: `U1 overview's first page, server time, ${U1_SIZES.at(-1)!.toLocaleString("en")} stacks, without the index on stacks (stack, enqueued_at DESC)`,
      measured: ms(unindexed),
      baseline: "-",
      ratio: "-",
      goal: `< ${GOAL_MS} ms`,
      met: unindexed < GOAL_MS,
      notes: [
        "FLEET_SCHEMA (fleet/src/database.ts) has no index on nsp_fleet.stacks (stack, enqueued_at DESC): " +
          "each stack's rows are all read, so the page slows as the history grows. The figures below add it.",
      ],
    });
  }
  const small = firstPage.get(`${U1_SIZES[0]!}`)!;
  figures.push({
    name: `U1 overview's first page, server time, ${U1_SIZES[0]} stacks`,
    measured: ms(small),
    baseline: "-",
    ratio: "-",
    goal: `< ${GOAL_MS} ms`,
    met: small < GOAL_MS,
  });
  const large = firstPage.get(`${U1_SIZES.at(-1)!}`)!;
  figures.push({
    name: `U1 overview's first page, server time, ${U1_SIZES.at(-1)!.toLocaleString("en")} stacks (baseline: ${U1_SIZES[0]})`,
    measured: ms(large),
    baseline: ms(small),
    ratio: x(large / small),
    goal: `< ${GOAL_MS} ms`,
    met: large < GOAL_MS,
  });
  return { figures, notes };
}
