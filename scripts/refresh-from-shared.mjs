#!/usr/bin/env node
// The repository keeps its own copy of what it takes from ../shared (the API documents and
// Pulumi's package metaschema, beside the repository in the project's checkout), so that a clone
// with nothing beside it passes its tests. Where ../shared is present this rewrites the copies
// from it; test/unit/coverage.test.ts and test/unit/schema.test.ts fail while they disagree.
//   node scripts/refresh-from-shared.mjs
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_DOCS, ENDPOINTS_FILE, documentEndpoints, renderEndpointsFile } from "./coverage-endpoints.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SHARED_METASCHEMA = join(ROOT, "..", "shared", "pulumi", "package-metaschema.json");
const METASCHEMA_FIXTURE = join(ROOT, "test", "fixtures", "pulumi-package-metaschema.json");

const missing = [...API_DOCS, SHARED_METASCHEMA].filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`refresh-from-shared: not found beside the repository, nothing changed:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
writeFileSync(ENDPOINTS_FILE, renderEndpointsFile(documentEndpoints()));
copyFileSync(SHARED_METASCHEMA, METASCHEMA_FIXTURE);
console.error(`refresh-from-shared: wrote ${ENDPOINTS_FILE} and ${METASCHEMA_FIXTURE}`);
