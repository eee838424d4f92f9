#!/usr/bin/env bash
# The demo (`npm run demo`, after `npm ci`): starts the emulator, runs a real `pulumi up` of the
# quickstart program in Pulumi.yaml with a local file backend in a temporary directory, prints
# the outputs (secrets masked), shows that a second preview has nothing to change, and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
# The plugin needs a supported Node.js: the one the tests run on, whatever node is on PATH.
export PATH="$(bash scripts/install-node.sh suite):$PATH"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "Building the provider plugin and the emulator"
npm run --silent build

say "Pulumi CLI (pinned, cached under ~/.cache/nsp)"
PULUMI_BIN="$(bash scripts/install-pulumi.sh)"
export PATH="$PULUMI_BIN:$PATH"
pulumi version

work="$(mktemp -d)"
emulator_pid=""
cleanup() {
  [ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

say "Starting the emulator"
mkfifo "$work/ready"
node dist/emulator.js >"$work/ready" &
emulator_pid=$!
read -r line <"$work/ready"
base_url="$(node -e 'console.log(JSON.parse(process.argv[1]).baseUrl)' "$line")"
token="$(node -e 'console.log(JSON.parse(process.argv[1]).accounts.demo)' "$line")"
echo "emulator at $base_url (account demo; its token stays out of this output)"

# The quickstart is copied so that the stack's config file stays out of the repository; its
# plugin path then points back at this repository's bin/.
mkdir -p "$work/project" "$work/state" "$work/home"
sed "s|path: ./bin|path: $root/bin|" Pulumi.yaml >"$work/project/Pulumi.yaml"
export PULUMI_BACKEND_URL="file://$work/state" PULUMI_HOME="$work/home" PULUMI_CONFIG_PASSPHRASE="demo" \
  PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
cd "$work/project"
pulumi stack init demo --non-interactive >/dev/null
pulumi config set nsp:baseUrl "$base_url" --non-interactive
printf '%s' "$token" | pulumi config set --secret nsp:apiToken --non-interactive

say "pulumi up"
pulumi up --yes --non-interactive

say "Outputs (secrets are masked)"
pulumi stack output --non-interactive

say "pulumi preview --expect-no-changes"
pulumi preview --expect-no-changes --non-interactive

say "pulumi destroy"
pulumi destroy --yes --non-interactive >/dev/null && echo "destroyed; the emulator stops now"
