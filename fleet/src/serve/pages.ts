// The fleet's pages, rendered on the server: plain HTML that reads and works without script (the
// filters, the search, the sorting and the pages are links and a GET form). The one script
// (assets/app.js) adds what needs one: times in the viewer's time zone, the charts, and the
// updates while a run goes. Every region it refreshes carries `data-live` and an id.
import { nameOfUrn, type Drift, type Plan } from "../engine-events";
import { html, raw, type Html } from "./html";
import {
  FILTERS,
  PAGE_SIZES,
  type CustomerPage,
  type Filter,
  type Overview,
  type OverviewQuery,
  type OverviewRow,
  type RunSummary,
  type Sort,
  type StackRun,
} from "./queries";

export interface PageOptions {
  /** What changes when anything shown changes (queries.ts version()): the script polls for it. */
  version: string;
}

/** A time, rendered in UTC here and in the viewer's time zone by the script. */
function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="none">—</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;
}

export function durationText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** The engine's counts as words: `create 2, update 1`, or `none` when nothing changed. */
export function changesText(changes: Record<string, number> | null | undefined): string {
  const ops = Object.entries(changes ?? {}).filter(([op, n]) => op !== "same" && n > 0);
  return ops.length === 0 ? "none" : ops.map(([op, n]) => `${op} ${n}`).join(", ");
}

const RESULT_WORDS: Record<string, string> = {
  succeeded: "succeeded",
  failed: "failed",
  running: "running",
  retrying: "retrying",
  queued: "queued",
};

/** A result as a word in a badge: the colour repeats what the word says, never stands for it. */
function badge(result: string): Html {
  return html`<span class="badge badge-${RESULT_WORDS[result] ? result : "other"}">${result}</span>`;
}

function healthBadge(state: string | null): Html {
  if (!state) return html`<span class="none">—</span>`;
  const cls = state === "ok" ? "succeeded" : state === "failed" ? "failed" : state === "drifted" ? "drifted" : "other";
  return html`<span class="badge badge-${cls}">${state}</span>`;
}

function operationText(op: string, remediate?: boolean, schedule?: string | null): string {
  // A schedule is named by the operation it fires (drift, up).
  return `${op}${remediate ? ", remediating" : ""}${schedule ? (schedule === op ? " (scheduled)" : ` (schedule ${schedule})`) : ""}`;
}

function layout(title: string, opts: PageOptions & { charts?: boolean }, main: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
${opts.charts ? raw('<script src="/assets/chart.umd.min.js" defer></script>\n') : ""}<script src="/assets/app.js" defer></script>
</head>
<body data-version="${opts.version}">
<a class="skip" href="#main">Skip to the content</a>
<header class="top"><a class="brand" href="/">nsp-fleet</a><span class="tagline">the fleet's page, read-only</span></header>
<main id="main">
${main}
</main>
<footer>Times are in <span id="tz">UTC</span>. <span id="updated" role="status" aria-live="polite"></span></footer>
</body>
</html>
`.text;
}

// --- the overview ----------------------------------------------------------------------------------

const DEFAULT_DIR: Record<Sort, "asc" | "desc"> = {
  attention: "asc",
  stack: "asc",
  result: "asc",
  operation: "asc",
  when: "desc",
  duration: "desc",
  attempts: "desc",
  changes: "desc",
  drift: "desc",
};

export function defaultDir(sort: Sort): "asc" | "desc" {
  return DEFAULT_DIR[sort];
}

/** The overview's address with some of its settings changed; defaults are left out. */
function overviewHref(query: OverviewQuery, change: Partial<OverviewQuery>): string {
  const q = { ...query, ...change };
  const params = new URLSearchParams();
  if (q.filter !== "all") params.set("filter", q.filter);
  if (q.q) params.set("q", q.q);
  if (q.sort !== "attention") params.set("sort", q.sort);
  if (q.dir !== defaultDir(q.sort)) params.set("dir", q.dir);
  if (q.per !== 50) params.set("per", String(q.per));
  if (q.page > 1) params.set("page", String(q.page));
  const s = params.toString();
  return s ? `/?${s}` : "/";
}

const FILTER_LABELS: Record<Filter, string> = { all: "All", failed: "Failed", drifted: "Drifted", running: "Running" };

/** The sorts a narrow screen, with no column headers to click, chooses from. */
const SORT_CHOICES: [Sort, string][] = [
  ["attention", "needing attention first"],
  ["stack", "stack"],
  ["result", "result"],
  ["operation", "last operation"],
  ["when", "newest first"],
  ["duration", "longest first"],
  ["attempts", "most attempts first"],
  ["changes", "most changes first"],
  ["drift", "most drift first"],
];

const COLUMNS: { sort: Sort; label: string }[] = [
  { sort: "stack", label: "Stack" },
  { sort: "operation", label: "Last operation" },
  { sort: "result", label: "Result" },
  { sort: "drift", label: "Drift" },
  { sort: "changes", label: "Changes" },
  { sort: "duration", label: "Duration" },
  { sort: "when", label: "When" },
  { sort: "attempts", label: "Attempts" },
];

function overviewRow(r: OverviewRow): Html {
  const drift =
    r.health === "drifted"
      ? html`<span class="badge badge-drifted">drifted</span> ${r.driftedResources ?? 0} resource${r.driftedResources === 1 ? "" : "s"}, since ${time(r.healthSince)}`
      : r.health
        ? html`<span class="none">none</span>`
        : html`<span class="none">—</span>`;
  const failedSince =
    r.health === "failed" && r.result !== "failed"
      ? html`<br><span class="note">failing since ${time(r.healthSince)}</span>`
      : "";
  const pending = ["queued", "running", "retrying"].includes(r.result);
  return html`<tr data-stack="${r.stack}" data-result="${r.result}" data-health="${r.health ?? ""}">
<td data-label="Stack"><a href="/customers/${encodeURIComponent(r.stack)}">${r.stack}</a>${r.zone ? html`<span class="zone">${r.zone}</span>` : ""}</td>
<td data-label="Last operation">${r.operation}</td>
<td data-label="Result">${badge(r.result)}${failedSince}</td>
<td data-label="Drift">${drift}</td>
<td data-label="Changes">${pending ? "—" : changesText(r.changes)}</td>
<td data-label="Duration" class="num">${durationText(r.durationSeconds)}</td>
<td data-label="When">${time(r.finishedAt ?? r.startedAt ?? r.enqueuedAt)}</td>
<td data-label="Attempts" class="num">${r.attempts}</td>
</tr>
`;
}

function runItem(r: RunSummary): Html {
  const done = r.succeeded + r.failed;
  return html`<li data-run="${r.id}" data-pending="${r.pending}">
<span class="op">${operationText(r.operation, r.remediate, r.schedule)}</span>
${time(r.createdAt)}:
${r.pending > 0 ? html`<strong>going</strong>, ${done} of ${r.stacks} done` : html`${r.stacks} stack${r.stacks === 1 ? "" : "s"}`}${r.failed > 0 ? html`, <span class="failed-text">${r.failed} failed</span>` : ""}
<span class="run-id">run ${r.id.slice(0, 8)}</span>
</li>
`;
}

export function overviewPage(o: Overview, query: OverviewQuery, opts: PageOptions): string {
  const pages = Math.max(1, Math.ceil(o.matching / query.per));
  const first = o.matching === 0 ? 0 : (query.page - 1) * query.per + 1;
  const last = Math.min(o.matching, query.page * query.per);
  const counts: [Filter, number, string][] = [
    ["all", o.counts.stacks, "stacks"],
    ["failed", o.counts.failed, "failed"],
    ["drifted", o.counts.drifted, "drifted"],
    ["running", o.counts.running, "queued or running"],
  ];
  const header = (c: { sort: Sort; label: string }) => {
    const active = query.sort === c.sort;
    const dir = active ? (query.dir === "asc" ? "desc" : "asc") : defaultDir(c.sort);
    return html`<th scope="col"${active ? raw(` aria-sort="${query.dir === "asc" ? "ascending" : "descending"}"`) : ""}><a href="${overviewHref(query, { sort: c.sort, dir, page: 1 })}">${c.label}${active ? raw(query.dir === "asc" ? ' <span aria-hidden="true">▲</span>' : ' <span aria-hidden="true">▼</span>') : ""}</a></th>`;
  };
  const main = html`<h1>The fleet</h1>
<section id="counts" data-live aria-label="Counts">
<ul class="counts">
${counts.map(([f, n, label]) => html`<li class="count count-${f}"><a href="${overviewHref(query, { filter: f, page: 1 })}"><strong data-count="${f}">${n}</strong> ${label}</a></li>\n`)}
</ul>
</section>
<section id="latest-runs" data-live aria-labelledby="runs-heading">
<h2 id="runs-heading">Latest runs</h2>
${o.runs.length === 0 ? html`<p>No run yet.</p>` : html`<ul class="runs">${o.runs.map(runItem)}</ul>`}
</section>
<section aria-labelledby="stacks-heading">
<h2 id="stacks-heading">Stacks</h2>
<div class="controls">
<nav aria-label="Filter stacks"><ul class="filters">
${FILTERS.map((f) => html`<li><a href="${overviewHref(query, { filter: f, page: 1 })}"${query.filter === f ? raw(' aria-current="page"') : ""}>${FILTER_LABELS[f]}</a></li>`)}
</ul></nav>
<form role="search" method="get" action="/" class="search">
<label for="q">Search by customer</label>
<input id="q" name="q" type="search" value="${query.q}" maxlength="100" autocomplete="off" spellcheck="false">
${query.filter !== "all" ? html`<input type="hidden" name="filter" value="${query.filter}">` : ""}
<label for="sort">Sort by</label>
<select id="sort" name="sort">
${SORT_CHOICES.map(([sort, label]) => html`<option value="${sort}"${query.sort === sort ? raw(" selected") : ""}>${label}</option>`)}
</select>
<button type="submit">Show</button>
</form>
</div>
<div id="stacks" data-live>
<p class="matching">${o.matching === 0 ? "No stack matches." : `Stacks ${first} to ${last} of ${o.matching}${query.filter !== "all" || query.q ? " matching" : ""}.`}</p>
${
  o.rows.length > 0
    ? html`<table class="stacks">
<caption class="visually-hidden">Each customer's stack: its latest run's result, its drift and changes; sorted by ${query.sort}</caption>
<thead><tr>${COLUMNS.map(header)}</tr></thead>
<tbody>
${o.rows.map(overviewRow)}</tbody>
</table>`
    : ""
}
${
  pages > 1
    ? html`<nav class="pager" aria-label="Pages">
${query.page > 1 ? html`<a rel="prev" href="${overviewHref(query, { page: query.page - 1 })}">Previous</a>` : html`<span class="disabled">Previous</span>`}
<span>Page ${query.page} of ${pages}</span>
${query.page < pages ? html`<a rel="next" href="${overviewHref(query, { page: query.page + 1 })}">Next</a>` : html`<span class="disabled">Next</span>`}
<span class="per">Per page: ${PAGE_SIZES.map((n) => (n === query.per ? html`<strong>${n}</strong> ` : html`<a href="${overviewHref(query, { per: n, page: 1 })}">${n}</a> `))}</span>
</nav>`
    : ""
}
</div>
</section>
<section id="charts" aria-labelledby="charts-heading">
<h2 id="charts-heading">Trends</h2>
<div class="charts">
${chartFigure("per-hour", "Stacks run per hour, by result (the last 48 hours at most)")}
${chartFigure("durations", "How long stacks took (the latest 2,000)")}
${chartFigure("requests", "API requests and 429 answers per run (the latest 30 runs)")}
${chartFigure("drifted", "Drifted stacks found by each drift check")}
</div>
</section>
`;
  return layout("nsp-fleet: the fleet", { ...opts, charts: true }, main);
}

function chartFigure(id: string, caption: string): Html {
  return html`<figure class="chart" id="figure-${id}">
<figcaption id="caption-${id}">${caption}</figcaption>
<div class="chart-box"><canvas id="chart-${id}" role="img" aria-labelledby="caption-${id}"></canvas></div>
<p class="chart-empty" id="empty-${id}" hidden>No data yet.</p>
</figure>
`;
}

// --- a customer's page ---------------------------------------------------------------------------

/** A value as JSON, cut where it would fill the page. */
function valueText(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
}

function planSteps(plan: Plan, caption: string): Html {
  if (plan.steps.length === 0)
    return html`<p>No resource ${caption.startsWith("Repaired") ? "repaired" : "changes"}.</p>`;
  const shown = plan.steps.slice(0, 200);
  return html`<table class="steps">
<caption>${caption}</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">Resource</th><th scope="col">Type</th><th scope="col">Properties</th></tr></thead>
<tbody>
${shown.map((s) => html`<tr><td>${s.op}</td><td>${nameOfUrn(s.urn)}</td><td><code>${s.type}</code></td><td>${s.properties.length ? s.properties.join(", ") : "—"}</td></tr>\n`)}
</tbody>
</table>
${plan.steps.length > shown.length ? html`<p>And ${plan.steps.length - shown.length} more.</p>` : ""}`;
}

function driftTables(drift: Drift): Html {
  return html`${drift.resources.map(
    (r) => html`<div class="resource" data-urn="${r.urn}">
<h3>${nameOfUrn(r.urn)} <code class="type">${r.type}</code></h3>
${
  r.gone
    ? html`<p>The object no longer exists: a refresh would drop it from the state.</p>`
    : html`<table class="drift">
<caption class="visually-hidden">What differs in ${nameOfUrn(r.urn)}</caption>
<thead><tr><th scope="col">Property</th><th scope="col">Recorded</th><th scope="col">Actual</th></tr></thead>
<tbody>
${r.properties.map((p) =>
  p.secret
    ? html`<tr data-property="${p.name}"><th scope="row">${p.name}</th><td colspan="2">changed (a secret: its values are never shown)</td></tr>\n`
    : html`<tr data-property="${p.name}"><th scope="row">${p.name}</th><td><code>${valueText(p.recorded)}</code></td><td><code>${valueText(p.actual)}</code></td></tr>\n`,
)}
</tbody>
</table>`
}
</div>
`,
  )}`;
}

function runArticle(r: StackRun, stack: string): Html {
  const drifted = r.drift && r.drift.resources.length > 0;
  return html`<article class="run" id="run-${r.run}" data-run="${r.run}">
<h3>${time(r.createdAt)} · ${operationText(r.operation, r.remediate, r.schedule)} ${badge(r.result)}</h3>
<dl class="facts">
${r.operation === "drift" ? "" : html`<div><dt>Changes</dt><dd>${["queued", "running", "retrying"].includes(r.result) ? "—" : changesText(r.changes)}</dd></div>`}
<div><dt>Duration</dt><dd>${durationText(r.durationSeconds)}</dd></div>
<div><dt>Attempts</dt><dd>${r.attempts}</dd></div>
<div><dt>Worker</dt><dd>${r.worker ?? "—"}</dd></div>
${r.requests !== null ? html`<div><dt>API requests</dt><dd>${r.requests}, ${r.rateLimited ?? 0} answered 429</dd></div>` : ""}
<div><dt>Run</dt><dd><code>${r.run}</code></dd></div>
</dl>
${r.plan ? planSteps(r.plan, "The plan") : ""}
${r.drift ? (drifted ? html`<p>The drift check found ${r.drift.resources.length} resource${r.drift.resources.length === 1 ? "" : "s"} drifted (see Drift above for the latest).</p>` : html`<p>The drift check found no drift.</p>`) : ""}
${r.remediation ? planSteps(r.remediation, "Repaired by the same run") : ""}
${r.error ? html`<details><summary>Its error</summary><pre class="error">${r.error}</pre></details>` : ""}
<p><a href="/customers/${encodeURIComponent(stack)}?run=${r.run}#log">The log of this run</a></p>
</article>
`;
}

export interface LogView {
  run: string;
  /** Where the log is on this machine, when it is here. */
  file?: string;
  lines?: string[];
  /** What is left out of a long log. */
  note?: string;
  /** Who ran it, for a log that is not here. */
  worker?: string | null;
  logDirs: string[];
}

function logSection(log: LogView | undefined, stack: string): Html {
  if (!log) return html`<p>No run of this stack has started yet.</p>`;
  if (!log.lines) {
    return html`<p>The log of run <code>${log.run}</code> is not on this machine. Each worker writes a stack's log where it runs it, under its
<code>--log-dir</code> (<code>.nsp-fleet/logs</code> in the customer project by default) as <code>${log.run}/${stack}.log</code>${log.worker ? html`, here on the machine of worker <code>${log.worker}</code>` : ""}.
Start <code>nsp-fleet serve --log-dir DIR</code> where that folder is to see it here. This page looked in ${log.logDirs.map((d, i) => html`${i > 0 ? ", " : ""}<code>${d}</code>`)}.</p>`;
  }
  return html`<p>Run <code>${log.run}</code>, from <code>${log.file}</code>${log.note ? html` (${log.note})` : ""}.</p>
<pre class="log" tabindex="0" aria-label="The log of run ${log.run}">${log.lines.join("\n")}</pre>`;
}

export function customerPage(c: CustomerPage, log: LogView | undefined, opts: PageOptions): string {
  const drift = c.drift;
  const found = drift && drift.drift.resources.length > 0;
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/">The fleet</a> <span aria-hidden="true">›</span> <span aria-current="page">${c.stack}</span></nav>
<h1>${c.stack}${c.zone ? html` <span class="zone">${c.zone}</span>` : ""}</h1>
<section id="summary" data-live aria-label="Health">
<p class="health">Health: ${c.health ? html`${healthBadge(c.health.state)} since ${time(c.health.since)}` : html`<span class="none">not known yet (no job of it has ended)</span>`}.
${c.current ? "" : html`<strong>No longer in the fleet</strong>: its stack was destroyed, or it was never brought up.`}
In ${c.runCount} run${c.runCount === 1 ? "" : "s"}.</p>
</section>
<section id="drift" data-live aria-labelledby="drift-heading">
<h2 id="drift-heading">Drift</h2>
${
  !drift
    ? html`<p>No drift check has run on this stack.</p>`
    : found
      ? html`<p>The drift check of ${time(drift.at)} (run <code>${drift.run}</code>) found what differs from the stack's state, recorded beside actual:${drift.remediation ? html` the same run repaired it (${changesText(drift.remediation.changes)}).` : c.health?.state === "drifted" ? " not repaired yet." : " a later run has repaired it since."}</p>
${driftTables(drift.drift)}`
      : html`<p>The last drift check, ${time(drift.at)}, found no drift.</p>`
}
</section>
<section id="last-error" data-live aria-labelledby="error-heading">
<h2 id="error-heading">Last error</h2>
${
  c.lastError
    ? html`<p>${c.lastError.operation} of run <code>${c.lastError.run}</code>, ${time(c.lastError.at)}${c.health?.state !== "failed" ? " (it has succeeded since)" : ""}:</p>
<pre class="error" tabindex="0" aria-label="The last error">${c.lastError.error}</pre>`
    : html`<p>No run of this stack has failed.</p>`
}
</section>
<section id="runs" data-live aria-labelledby="runs-heading">
<h2 id="runs-heading">Runs, newest first</h2>
${c.runCount > c.runs.length ? html`<p>The latest ${c.runs.length} of ${c.runCount}.</p>` : ""}
${c.runs.map((r) => runArticle(r, c.stack))}
</section>
<section id="log" data-live aria-labelledby="log-heading">
<h2 id="log-heading">Log</h2>
${logSection(log, c.stack)}
</section>
`;
  return layout(`nsp-fleet: ${c.stack}`, opts, main);
}

export function messagePage(title: string, message: Html | string, opts: PageOptions): string {
  return layout(
    `nsp-fleet: ${title}`,
    opts,
    html`<h1>${title}</h1>\n<p>${message}</p>\n<p><a href="/">The fleet</a></p>`,
  );
}
