#!/usr/bin/env bash
# The project's one test command (`npm test`, after `npm ci`). It installs what the tests need
# that npm does not (the Pulumi CLI, built from the Go module proxy and cached outside the repo),
# then runs every suite: unit, emulator contract, client, provider over gRPC, and end-to-end
# with the real `pulumi` CLI. It ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
export NSP_TEST_RESULTS="${NSP_TEST_RESULTS:-$(mktemp -d)}"

step() { printf '\n== %s\n' "$*" >&2; }

step "build (esbuild bundles of the plugin and the emulator)"
npm run --silent build

step "typecheck (strict TypeScript)"
npx tsc -p tsconfig.json --noEmit

step "unit, emulator, client and provider (gRPC) tests"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$NSP_TEST_RESULTS/main.json" || status=$?

step "Pulumi CLI (pinned, cached under ~/.cache/nsp)"
PULUMI_BIN="$(bash scripts/install-pulumi.sh)"
export PATH="$PULUMI_BIN:$PATH"
pulumi version >&2

if [ -d test/e2e ]; then
  # Their setup also runs `npm run release` when dist/release is older than the tree: the release
  # tests install those artifacts in a clean directory.
  step "SDKs, the release and end-to-end tests with the real pulumi CLI"
  npx vitest run --config test/e2e/vitest.config.mts --reporter=default --reporter=json --outputFile.json="$NSP_TEST_RESULTS/e2e.json" || status=$?
fi

node scripts/summarize-tests.mjs "$NSP_TEST_RESULTS"/*.json
exit $status
