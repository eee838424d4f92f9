#!/usr/bin/env bash
# Generates sdk/nodejs, sdk/python and sdk/go from schema.json with Pulumi's own code generator
# (`pulumi package gen-sdk`). With --check, generates into a temporary directory and fails when
# the committed SDKs differ. Needs the pinned CLI: scripts/install-pulumi.sh provides it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v pulumi >/dev/null || export PATH="$(bash scripts/install-pulumi.sh):$PATH"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_HOME="${PULUMI_HOME:-$(mktemp -d)}"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for lang in nodejs python go; do
  pulumi package gen-sdk schema.json --language "$lang" --out "$out" >/dev/null
done

if [ "${1:-}" = "--check" ]; then
  if ! diff -r -q "$out" sdk --exclude=bin --exclude=node_modules --exclude=__pycache__ --exclude=dynamic >&2; then
    echo "the SDKs in sdk/ are stale against schema.json: run scripts/gen-sdks.sh" >&2
    exit 1
  fi
  echo "sdk/nodejs, sdk/python and sdk/go match schema.json" >&2
else
  for lang in nodejs python go; do
    rm -rf "sdk/$lang"
    cp -r "$out/$lang" "sdk/$lang"
  done
  echo "generated sdk/nodejs, sdk/python and sdk/go from schema.json" >&2
fi
