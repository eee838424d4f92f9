// Keeps docs/coverage.md in step with the API documents, the provider's registry and the
// emulator's routes. The API documents' endpoints are read from docs/api-endpoints.json, the
// repository's copy, so that a clone with nothing beside it passes; where the documents are beside
// the repository (../shared/api) the copy must be what they say. The documents' parsing here is
// independent of scripts/coverage-endpoints.mjs, which writes the copy.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../emulator/src/pipeline/all-routes";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import { API_DOCS, documentEndpoints, type Endpoint, renderEndpointsFile } from "../../scripts/coverage-endpoints.mjs";

const ROOT = join(__dirname, "../..");
const ENDPOINTS_FILE = join(ROOT, "docs/api-endpoints.json");

const endpointsText = readFileSync(ENDPOINTS_FILE, "utf8");
const table = JSON.parse(endpointsText) as { _generated: string; sources: string[]; endpoints: Endpoint[] };
const documentsBeside = API_DOCS.every((f) => existsSync(f));

const METHOD = "(?:GET|POST|PUT|PATCH|DELETE)";
// `| GET, PATCH, DELETE /x/{id} | ...` is three endpoints; `| POST /x/{id}/pause, /resume | ...` two.
const API_ROW = new RegExp(
  `^\\|\\s*(${METHOD}(?:,\\s*${METHOD})*)\\s+(/[^\\s,|]+)((?:,\\s*/[^\\s,|]+)*)\\s*\\|([^|]*)\\|`,
);
const TABLE_ROW = new RegExp(`^\\|\\s*\`(${METHOD}) (/[^\`]+)\`\\s*\\|([^|]*)\\|\\s*(.*?)\\s*\\|\\s*$`);
const TOKEN = /`(nsp:[A-Za-z0-9]+:[A-Za-z0-9]+)`/g;

/** `{x}` (documents) and `:x` (emulator) parameters compare equal. */
function key(method: string, path: string): string {
  const norm = path
    .split("/")
    .map((s) => (s.startsWith(":") || (s.startsWith("{") && s.endsWith("}")) ? "{}" : s))
    .join("/");
  return `${method} ${norm}`;
}

/** `METHOD path scope` of every endpoint row of the API documents (../shared/api). */
function documentRows(): string[] {
  const out: string[] = [];
  for (const file of API_DOCS) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const m = API_ROW.exec(line);
      if (!m) continue;
      const methods = m[1]!.split(",").map((s) => s.trim());
      const scopes = m[4]!.split(",").map((s) => s.trim());
      const base = m[2]!;
      const alts = [...m[3]!.matchAll(/\/[^\s,|]+/g)].map((a) => base.slice(0, base.lastIndexOf("/")) + a[0]);
      methods.forEach((method, i) => {
        // A one-method row's scope cell is one scope, whatever commas its note has.
        const scope = methods.length === 1 ? m[4]!.trim() : scopes[i]!;
        for (const path of [base, ...alts]) out.push(`${method} ${path} ${scope}`);
      });
    }
  }
  return out;
}

interface Row {
  endpoint: string;
  key: string;
  scope: string;
  tokens: string[];
  reason: string | null;
  cell: string;
}

function coverageRows(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(join(ROOT, "docs/coverage.md"), "utf8").split("\n")) {
    const m = TABLE_ROW.exec(line);
    if (!m) continue;
    const cell = m[4]!;
    const reason = /^not managed: (\S.*)$/.exec(cell)?.[1] ?? null;
    rows.push({
      endpoint: `${m[1]} ${m[2]}`,
      key: key(m[1]!, m[2]!),
      scope: m[3]!.trim(),
      tokens: reason === null ? [...cell.matchAll(TOKEN)].map((t) => t[1]!) : [],
      reason,
      cell,
    });
  }
  return rows;
}

const endpoints = table.endpoints.map((e) => `${e.method} ${e.path}`);
const rows = coverageRows();

describe("docs/api-endpoints.json", () => {
  it(`is the endpoint tables of both API documents (${documentsBeside ? "compared with ../shared/api, beside the repository" : "as the repository keeps them: no ../shared/api beside it"})`, () => {
    expect(table._generated).toMatch(/^by `node scripts\/refresh-from-shared\.mjs`/);
    expect(endpoints.length).toBeGreaterThan(350);
    expect(endpoints).toContain("GET /me");
    expect(endpoints).toContain("POST /sgate/broadcasts/{id}/resume");
    expect(endpoints).toContain("DELETE /vgate/pbx/{pbx}/queues/{id}");
    expect(table.endpoints.find((e) => e.path === "/tokens" && e.method === "POST")?.scope).toBe("write, console only");
    if (documentsBeside) {
      // Run `node scripts/refresh-from-shared.mjs` when the documents have changed.
      expect(table.endpoints.map((e) => `${e.method} ${e.path} ${e.scope}`)).toEqual(documentRows());
      expect(endpointsText).toBe(renderEndpointsFile(documentEndpoints()));
    } else {
      // Without the documents, the copy must still be as the refresh writes it: not edited by hand.
      expect(endpointsText).toBe(renderEndpointsFile(table.endpoints));
    }
  });
});

describe("docs/coverage.md", () => {
  it("lists every endpoint of the API documents exactly once, and nothing else", () => {
    const count = new Map<string, number>();
    for (const r of rows) count.set(r.endpoint, (count.get(r.endpoint) ?? 0) + 1);
    const missing = endpoints.filter((e) => !count.has(e));
    const repeated = [...count].filter(([, n]) => n > 1).map(([e]) => e);
    const unknown = rows.map((r) => r.endpoint).filter((e) => !endpoints.includes(e));
    expect({ missing, repeated, unknown }).toEqual({ missing: [], repeated: [], unknown: [] });
  });

  it("gives each endpoint the scope the API documents give it", () => {
    const scope = new Map(table.endpoints.map((e) => [`${e.method} ${e.path}`, e.scope]));
    expect(
      rows
        .filter((r) => r.scope !== scope.get(r.endpoint))
        .map((r) => `${r.endpoint}: ${r.scope} (documents: ${scope.get(r.endpoint)})`),
    ).toEqual([]);
  });

  it("maps every endpoint to tokens or to a reason it is not managed", () => {
    const bad = rows.filter(
      (r) =>
        (r.reason === null && r.tokens.length === 0) ||
        (r.reason === null && r.cell.replace(TOKEN, "").replace(/[,\s]/g, "") !== ""),
    );
    expect(bad.map((r) => `${r.endpoint}: ${r.cell}`)).toEqual([]);
  });

  it("names only registered tokens, and names every registered token", () => {
    const registered = new Set([...resources, ...functions].map((d) => d.token));
    const named = new Set(rows.flatMap((r) => r.tokens));
    expect([...named].filter((t) => !registered.has(t)).sort()).toEqual([]);
    expect([...registered].filter((t) => !named.has(t)).sort()).toEqual([]);
  });

  it("maps to a token only endpoints the emulator serves", () => {
    const served = new Set(allRoutes.map((r) => key(r.method, r.path)));
    expect(rows.filter((r) => r.tokens.length > 0 && !served.has(r.key)).map((r) => r.endpoint)).toEqual([]);
  });
});
