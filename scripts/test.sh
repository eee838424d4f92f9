#!/usr/bin/env bash
# The project's one test command (`npm test`, after `npm ci`). It installs what the tests need
# that npm does not (the Pulumi CLI, built from the Go module proxy and cached outside the repo),
# then runs every suite: unit, emulator contract, client, provider over gRPC, and end-to-end
# with the real `pulumi` CLI. It ends with one "N passed, N failed" line, followed on the same
# line by each phase's time.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite runs on the first of package.json's testedNodeVersions, whatever node is on PATH;
# test/e2e/node-versions.test.ts runs a smoke test on each of the others (scripts/install-node.sh).
export PATH="$(bash scripts/install-node.sh suite):$PATH"
export NSP_TEST_RESULTS="${NSP_TEST_RESULTS:-$(mktemp -d)}"
# Node's cache of compiled code, outside the repository beside the pinned CLI: the suite starts
# node hundreds of times on the same files (vitest's workers, the emulator, every TypeScript
# program's @pulumi/pulumi and TypeScript), and Node keys each entry on the file's content.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${NSP_CACHE_DIR:-$HOME/.cache/nsp}/node-compile-cache}"
PHASES="$NSP_TEST_RESULTS/phases.tsv"
: >"$PHASES"

# Read before anything rebuilds: how long the `npm ci` just before took, when this follows one.
node scripts/summarize-tests.mjs --npm-ci >>"$PHASES" || true

step() { printf '\n== %s\n' "$*" >&2; }
# `timed NAME COMMAND...` runs COMMAND, appends NAME and its seconds to $PHASES, and returns
# COMMAND's status (the caller decides whether it ends the run).
timed() {
  local name="$1" started="$EPOCHREALTIME" rc=0
  shift
  "$@" || rc=$?
  printf '%s\t%s\n' "$name" "$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" >>"$PHASES"
  return $rc
}

# npm ci's prepare has built dist/ from this tree: the build runs again only if a source or an
# output changed since (scripts/build-inputs.mjs), and the test setups check the same way.
step "build (esbuild bundles of the plugin and the emulator), unless dist/ is fresh"
timed build node scripts/build.mjs --if-stale

# Biome, as configured in biome.jsonc: every source file formatted as it would format it, and no
# lint error. It writes nothing (`biome check --write` does); a finding counts as one failed test.
status=0
step "format and lint (Biome: biome.jsonc)"
if ! timed "format and lint" npx biome ci --error-on-warnings --reporter=summary; then
  npx biome ci --error-on-warnings --max-diagnostics=50 >&2 || true
  status=1
  printf 'format and lint\tfailed\n' >>"$PHASES"
fi

# The typecheck runs beside the main tests, which mostly wait on sockets and child processes;
# its output is shown when it is done, and a failure counts as one failed test in the summary.
step "typecheck (strict TypeScript), beside the unit, emulator, client and provider (gRPC) tests"
timed typecheck npx tsc -p tsconfig.json --noEmit >"$NSP_TEST_RESULTS/typecheck.log" 2>&1 &
typecheck=$!
timed "main tests" npx vitest run --reporter=default --reporter=json --outputFile.json="$NSP_TEST_RESULTS/main.json" || status=$?
if ! wait $typecheck; then
  status=1
  cat "$NSP_TEST_RESULTS/typecheck.log" >&2
  printf 'typecheck\tfailed\n' >>"$PHASES"
fi

step "Pulumi CLI (pinned, cached under ~/.cache/nsp)"
install_pulumi() { PULUMI_BIN="$(bash scripts/install-pulumi.sh)"; }
timed "pulumi CLI" install_pulumi
export PATH="$PULUMI_BIN:$PATH"
pulumi version >&2

step "PostgreSQL: a throwaway server on loopback, for the fleet's queue and state (scripts/postgres.sh)"
eval "$(bash scripts/postgres.sh start)"
trap 'bash scripts/postgres.sh stop "$NSP_TEST_POSTGRES_DIR"' EXIT

step "Chromium, for the browser test of the fleet's page (scripts/chromium.sh: Debian's package, installed where absent)"
NSP_CHROMIUM="$(bash scripts/chromium.sh)"
export NSP_CHROMIUM

if [ -d test/e2e ]; then
  # Their setup also runs `scripts/release.mjs --if-stale`: the release tests install those
  # artifacts in a clean directory.
  step "SDKs, the release and end-to-end tests with the real pulumi CLI"
  timed e2e npx vitest run --config test/e2e/vitest.config.mts --reporter=default --reporter=json --outputFile.json="$NSP_TEST_RESULTS/e2e.json" || status=$?
fi

node scripts/summarize-tests.mjs --phases "$PHASES" "$NSP_TEST_RESULTS"/*.json || status=$?
exit $status
