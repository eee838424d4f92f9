#!/usr/bin/env node
// The coverage map (docs/coverage.md): every endpoint of the two API documents, mapped to the
// resource or function token that uses it, or "not managed: <reason>".
//
// The endpoints come from docs/api-endpoints.json, the repository's own copy of the API
// documents' endpoint tables: a clone has no API documents beside it, and its tests must pass.
// The mapping column is the source of truth and is edited by hand; this script only helps keep
// the table whole:
//   node scripts/coverage-endpoints.mjs                 lists the endpoints the table lacks
//   node scripts/coverage-endpoints.mjs --write [file…] rewrites the table in document order,
//     keeping every mapping it has, taking `METHOD /path -> mapping` lines from the files given,
//     and marking endpoints still unmapped "not managed: not yet mapped"
// scripts/refresh-from-shared.mjs rewrites docs/api-endpoints.json from the API documents, and
// test/unit/coverage.test.ts fails while the two disagree.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
// The API documents, where a checkout has them: ../shared/api beside the repository.
export const SHARED_API = join(ROOT, "..", "shared", "api");
const API_DOC_NAMES = ["part1-platform-dns-edge-security-rpki.md", "part2-mail-media-messaging-tunnels-pbx.md"];
export const API_DOCS = API_DOC_NAMES.map((f) => join(SHARED_API, f));
export const ENDPOINTS_FILE = join(ROOT, "docs/api-endpoints.json");
export const COVERAGE_DOC = join(ROOT, "docs/coverage.md");

const METHOD = "(?:GET|POST|PUT|PATCH|DELETE)";
// `| GET, PATCH, DELETE /x/{id} | scope | ... |` and `| POST /x/{id}/pause, /resume | ... |`
const ROW = new RegExp(`^\\|\\s*(${METHOD}(?:,\\s*${METHOD})*)\\s+(/[^\\s,|]+)((?:,\\s*/[^\\s,|]+)*)\\s*\\|([^|]*)\\|`);

/**
 * The endpoints of an API document's endpoint tables, one per method and path, with the
 * heading they sit under. A row naming several methods or several last segments is split.
 */
export function parseEndpoints(markdown) {
  const out = [];
  let section = "";
  for (const line of markdown.split("\n")) {
    const heading = /^#{2,4}\s+(.*)$/.exec(line);
    if (heading) section = heading[1].trim();
    const m = ROW.exec(line);
    if (!m) continue;
    const methods = m[1].split(",").map((s) => s.trim());
    const scopes = m[4].split(",").map((s) => s.trim());
    const base = m[2];
    const paths = [
      base,
      ...[...m[3].matchAll(/\/[^\s,|]+/g)].map((alt) => base.slice(0, base.lastIndexOf("/")) + alt[0]),
    ];
    methods.forEach((method, i) => {
      // "write, console only" on a one-method row is one scope with a note, not two scopes.
      const scope = methods.length === 1 ? m[4].trim() : (scopes[i] ?? "");
      for (const path of paths) out.push({ method, path, scope, section });
    });
  }
  return out;
}

/** The endpoints of the API documents themselves; they must be beside the repository. */
export function documentEndpoints() {
  return API_DOCS.flatMap((f) => parseEndpoints(readFileSync(f, "utf8")));
}

/** The endpoints as the repository keeps them (docs/api-endpoints.json). */
export function allEndpoints() {
  return JSON.parse(readFileSync(ENDPOINTS_FILE, "utf8")).endpoints;
}

/**
 * docs/api-endpoints.json's text for these endpoints: one endpoint a line, so that a change in
 * the API documents is a readable diff.
 */
export function renderEndpointsFile(endpoints) {
  const sources = API_DOC_NAMES.map((f) => `../shared/api/${f}`);
  const head = [
    `  "_generated": ${JSON.stringify(
      "by `node scripts/refresh-from-shared.mjs` from the endpoint tables of the API documents in " +
        "../shared/api; do not edit (test/unit/coverage.test.ts compares the two when the documents are " +
        "beside the repository)",
    )},`,
    `  "sources": ${JSON.stringify(sources)},`,
  ];
  const rows = endpoints.map(
    (e) => `    ${JSON.stringify({ method: e.method, path: e.path, scope: e.scope, section: e.section })}`,
  );
  return ["{", ...head, `  "endpoints": [`, rows.join(",\n"), "  ]", "}", ""].join("\n");
}

/** Path parameters written `{x}` (API documents) or `:x` (emulator routes) compare equal. */
export function normalisePath(path) {
  return path
    .split("/")
    .map((s) => (s.startsWith(":") || (s.startsWith("{") && s.endsWith("}")) ? "{}" : s))
    .join("/");
}

export const endpointKey = (method, path) => `${method} ${normalisePath(path)}`;

const TABLE_ROW = new RegExp(`^\\|\\s*\`(${METHOD}) (/[^\`]+)\`\\s*\\|[^|]*\\|\\s*(.*?)\\s*\\|\\s*$`);

/** The rows of docs/coverage.md: endpoint, and either tokens or a not-managed reason. */
export function parseCoverage(markdown) {
  const rows = [];
  for (const line of markdown.split("\n")) {
    const m = TABLE_ROW.exec(line);
    if (!m) continue;
    const mapping = m[3];
    const notManaged = /^not managed: (.+)$/.exec(mapping);
    rows.push({
      method: m[1],
      path: m[2],
      mapping,
      reason: notManaged ? notManaged[1] : null,
      tokens: notManaged ? [] : [...mapping.matchAll(/`(nsp:[A-Za-z0-9]+:[A-Za-z0-9]+)`/g)].map((t) => t[1]),
    });
  }
  return rows;
}

/** `METHOD /path -> nsp:a:B` or `METHOD /path -> not managed: why`, as the cell text. */
function parseMappingLine(line) {
  const m = new RegExp(`^\\s*(${METHOD})\\s+(/\\S+)\\s*->\\s*(.+?)\\s*$`).exec(line);
  if (!m) return null;
  const target = m[3];
  const cell = /^not managed/.test(target)
    ? target.replace(/^not managed\s*:?\s*/, "not managed: ")
    : target
        .split(/[,\s]+/)
        .filter((t) => t.startsWith("nsp:"))
        .map((t) => `\`${t}\``)
        .join(", ");
  return cell === "" ? null : { key: endpointKey(m[1], m[2]), cell };
}

function render(endpoints, mappings) {
  const lines = [
    "# API coverage",
    "",
    "Every endpoint of the two API documents, mapped to the provider resources and functions that call it,",
    "or marked *not managed* with the reason: imperative actions (run once, nothing to converge),",
    "analytics and logs (read-only reports), console-only endpoints, and areas not yet implemented.",
    "The endpoints are those of `api-endpoints.json`, the repository's copy of the",
    "documents' endpoint tables. `test/unit/coverage.test.ts` keeps this table whole and in step with it,",
    "the registry and the emulator; `node scripts/coverage-endpoints.mjs` lists endpoints the table lacks.",
    "",
  ];
  let section = null;
  for (const e of endpoints) {
    if (e.section !== section) {
      section = e.section;
      lines.push(`## ${section}`, "", "| Endpoint | Scope | Managed by |", "|---|---|---|");
    }
    lines.push(
      `| \`${e.method} ${e.path}\` | ${e.scope} | ${mappings.get(endpointKey(e.method, e.path)) ?? "not managed: not yet mapped"} |`,
    );
    const next = endpoints[endpoints.indexOf(e) + 1];
    if (!next || next.section !== section) lines.push("");
  }
  return lines.join("\n");
}

function main(argv) {
  const endpoints = allEndpoints();
  let existing = [];
  try {
    existing = parseCoverage(readFileSync(COVERAGE_DOC, "utf8"));
  } catch {
    // No table yet: --write starts one.
  }
  if (argv[0] !== "--write") {
    const have = new Set(existing.map((r) => endpointKey(r.method, r.path)));
    for (const e of endpoints) if (!have.has(endpointKey(e.method, e.path))) console.log(`${e.method} ${e.path}`);
    return;
  }
  const mappings = new Map(
    existing.filter((r) => r.reason !== "not yet mapped").map((r) => [endpointKey(r.method, r.path), r.mapping]),
  );
  for (const file of argv.slice(1)) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const parsed = parseMappingLine(line);
      if (parsed) mappings.set(parsed.key, parsed.cell);
    }
  }
  writeFileSync(COVERAGE_DOC, render(endpoints, mappings));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
