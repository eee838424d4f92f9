// The page's static files: its script and style sheet (fleet/src/serve/assets/) and Chart.js
// (the chart.js npm package, version pinned in package.json). The build copies them beside the
// bundle, into dist/fleet-assets/, and the release ships that folder in @nsp/fleet beside
// dist/fleet.js; run from the sources (the tests), they are read where they are. Only these
// names are served: a request can never name another file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const ASSET_TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
  "chart.umd.min.js": "text/javascript; charset=utf-8",
};

/** The folder the build writes the assets to, beside dist/fleet.js. */
export const ASSETS_FOLDER = "fleet-assets";

export interface Asset {
  body: Buffer;
  type: string;
}

/** Where each asset is: in `dir` (or beside the bundle), else in the source tree and node_modules. */
function locations(dir: string | undefined): Record<string, string> {
  const bundled = dir ?? join(__dirname, ASSETS_FOLDER);
  if (existsSync(join(bundled, "app.js")))
    return Object.fromEntries(Object.keys(ASSET_TYPES).map((name) => [name, join(bundled, name)]));
  return {
    "app.js": join(__dirname, "assets", "app.js"),
    "app.css": join(__dirname, "assets", "app.css"),
    // fleet/src/serve/ is three folders below the clone's root, whose node_modules holds chart.js.
    "chart.umd.min.js": join(__dirname, "..", "..", "..", "node_modules", "chart.js", "dist", "chart.umd.min.js"),
  };
}

/** Every asset, read once: a missing one stops the server at its start, not at a viewer's request. */
export function loadAssets(dir?: string): Map<string, Asset> {
  const where = locations(dir);
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(ASSET_TYPES)) {
    const file = where[name]!;
    if (!existsSync(file))
      throw new Error(
        `the page's file ${name} is missing (looked for ${file}); the package is incomplete: install @nsp/fleet again, or run \`npm run build\` in a clone`,
      );
    assets.set(name, { body: readFileSync(file), type });
  }
  return assets;
}
