#!/usr/bin/env bash
# Runs the pipeline's steps (the `pulumi` commands of pipeline.yml, job by job) against the
# emulator: the pull-request preview with the policy pack, the up on merge, the scheduled drift
# alarm (quiet), then a change made outside the pipeline and the drift alarm again, which must now
# fail. Needs `npm ci` first: it installs what the pipeline's other steps install (the policy
# pack's packages come from this repository's node_modules).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$(bash "$root/scripts/install-pulumi.sh"):$PATH"

work="$(mktemp -d)"
emulator_pid=""
cleanup() {
  [ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

mkfifo "$work/ready"
node "$root/dist/emulator.js" >"$work/ready" &
emulator_pid=$!
read -r line <"$work/ready"
export NSP_BASE_URL="$(node -e 'console.log(JSON.parse(process.argv[1]).baseUrl)' "$line")"
export NSP_API_TOKEN="$(node -e 'console.log(JSON.parse(process.argv[1]).accounts.demo)' "$line")"
export POLICY_PACK="$root/examples/policy-pack"
export STACK=prod PULUMI_BACKEND_URL="file://$work/state" PULUMI_HOME="$work/home" PULUMI_CONFIG_PASSPHRASE=local \
  PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
mkdir -p "$work/state" "$work/home" "$work/project"
sed "s|path: ../../bin|path: $root/bin|" "$here/Pulumi.yaml" >"$work/project/Pulumi.yaml"
cd "$work/project"
pulumi stack init "$STACK" --non-interactive >/dev/null

# For the end-to-end test (test/e2e/gitops.test.ts), which looks at the emulator between the
# steps: with GITOPS_CHECKPOINTS set to a directory holding the fifos `at` and `go`, each
# checkpoint says where the pipeline is (with the emulator's address and token) on `at`, then
# waits for a line on `go`.
checkpoint() {
  [ -n "${GITOPS_CHECKPOINTS:-}" ] || return 0
  printf '%s %s %s\n' "$1" "$NSP_BASE_URL" "$NSP_API_TOKEN" >"$GITOPS_CHECKPOINTS/at"
  read -r _ <"$GITOPS_CHECKPOINTS/go"
}

# The `pulumi` command of one job in pipeline.yml.
step() { awk -v job="  $1:" '$0 == job {in_job=1; next} /^  [a-z]/ {in_job=0} in_job && /- run: pulumi / {sub(/.*- run: /, ""); print}' "$here/pipeline.yml"; }

for job in preview up drift; do
  echo "== $job: $(step "$job")"
  eval "$(step "$job")"
done
checkpoint deployed

echo "== someone changes the www record outside the pipeline"
zone="$(pulumi stack output zoneId --stack "$STACK")"
www="$(pulumi stack output wwwId --stack "$STACK")"
curl -fsS -X PATCH -H "Authorization: Bearer $NSP_API_TOKEN" -H 'Content-Type: application/json' \
  -d '{"content":"203.0.113.66"}' "$NSP_BASE_URL/dns/zones/$zone/records/$www" >/dev/null
checkpoint changed-outside

echo "== drift: $(step drift)"
if eval "$(step drift)"; then
  echo "the drift alarm did not fire" >&2
  exit 1
fi
echo "== the drift alarm fired, as it should"
checkpoint alarmed

echo "== up puts the record back, and the alarm is quiet again"
eval "$(step up)"
eval "$(step drift)"
checkpoint converged
pulumi destroy --stack "$STACK" --yes --non-interactive >/dev/null
checkpoint destroyed
echo "== done"
