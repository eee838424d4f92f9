#!/usr/bin/env bash
# Provides a pinned Pulumi CLI and the language hosts we use in one bin directory and prints that
# directory's absolute path on stdout (and nothing else). All progress goes to stderr.
#
#   PULUMI_BIN="$(scripts/install-pulumi.sh)"; export PATH="$PULUMI_BIN:$PATH"
#
# Everything is built with `go build` from the Go module proxy, the only Pulumi source reachable
# from our machines and CI:
#   pulumi                         github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION (cmd/pulumi)
#   pulumi-language-yaml           github.com/pulumi/pulumi-yaml@v$PULUMI_YAML_VERSION
#   pulumi-language-nodejs,        our own hosts in tools/language-hosts: the proxy refuses
#   pulumi-language-python,        Pulumi's language-host modules, so we implement the
#   pulumi-language-go             LanguageRuntime protocol with Pulumi's exported packages
#   pulumi-language-python-exec,   scripts shipped in the sdk/v3 module
#   pulumi-resource-pulumi-nodejs, (python program runner, dynamic-provider launchers)
#   pulumi-resource-pulumi-python
# Policy packs (`pulumi preview --policy-pack DIR`) need no tool of their own: with a language
# host installed, the engine asks it to run the pack (RunPlugin), and our nodejs host does.
#
# Order of attempts:
#   1. a `pulumi` on PATH that reports exactly v$PULUMI_VERSION and has every tool beside it
#      (e.g. an official installation; our own cache directories on PATH are ignored);
#   2. a completed build in "${NSP_CACHE_DIR:-$HOME/.cache/nsp}/pulumi-v$PULUMI_VERSION-<hash>/bin",
#      where <hash> covers the sources of tools/language-hosts, so changing them rebuilds;
#   3. Pulumi's official installer, when its site can be reached (it cannot from our machines:
#      the attempt fails within seconds), into the same cache;
#   4. a build (needs Go >= 1.25.11). pulumi and pulumi-language-yaml are reused from an earlier
#      complete build of the same versions when there is one; they take minutes to compile.
#
# Environment:
#   NSP_CACHE_DIR              cache root (default $HOME/.cache/nsp)
#   NSP_PULUMI_SKIP_INSTALLER  =1: do not try the official installer
set -euo pipefail

PULUMI_VERSION=3.259.0
PULUMI_YAML_VERSION=1.38.3
# pkg/v3's own go.mod carries this replace; replaces of dependencies are ignored, so repeat it.
CLIPBOARD_REPLACE='github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e'

REQUIRED=(
  pulumi
  pulumi-language-nodejs
  pulumi-language-python
  pulumi-language-python-exec
  pulumi-language-yaml
  pulumi-language-go
  pulumi-resource-pulumi-nodejs
  pulumi-resource-pulumi-python
)

log() { printf 'install-pulumi: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# missing_in DIR -> prints the REQUIRED names not executable in DIR, one per line.
missing_in() {
  local dir="$1" name
  for name in "${REQUIRED[@]}"; do
    [[ -x "$dir/$name" && -f "$dir/$name" ]] || printf '%s\n' "$name"
  done
}

emit() { # the only stdout output of this script
  printf '%s\n' "$1"
  exit 0
}

sha256() { if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi; }

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
hosts_src="$(cd "$script_dir/../tools/language-hosts" && pwd -P)" ||
  die "tools/language-hosts not found beside scripts/"

# The cache key: our host sources plus the versions of everything else we build.
hosts_hash="$(
  cd "$hosts_src"
  {
    printf 'pulumi %s pulumi-yaml %s\n' "$PULUMI_VERSION" "$PULUMI_YAML_VERSION"
    find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort |
      while IFS= read -r f; do printf '%s\n' "$f"; cat "$f"; done
  } | sha256 | cut -c1-12
)"

cache_root="${NSP_CACHE_DIR:-${HOME:?HOME is not set}/.cache/nsp}"
case "$cache_root" in /*) ;; *) cache_root="$PWD/$cache_root" ;; esac
name="pulumi-v$PULUMI_VERSION-$hosts_hash"
install_dir="$cache_root/$name"
bin_dir="$install_dir/bin"
complete_stamp="$install_dir/.complete"

warm_ok() { [[ -f "$complete_stamp" ]] && [[ -z "$(missing_in "$bin_dir")" ]]; }

# --- 1. pulumi on PATH ------------------------------------------------------------------------
if path_pulumi="$(command -v pulumi 2>/dev/null)" && [[ "$path_pulumi" == /* ]]; then
  path_dir="$(cd "$(dirname "$path_pulumi")" && pwd -P)"
  real_cache_root="$(cd "$cache_root" 2>/dev/null && pwd -P || printf '%s' "$cache_root")"
  case "$path_dir" in
    "$real_cache_root"/pulumi-v*/bin) ;; # one of our builds, maybe stale: decided below
    *)
      if [[ -z "$(missing_in "$path_dir")" ]]; then
        path_version="$(PULUMI_SKIP_UPDATE_CHECK=true timeout 20 "$path_pulumi" version 2>/dev/null || true)"
        if [[ "$path_version" == "v$PULUMI_VERSION" ]]; then
          log "using pulumi $path_version on PATH in $path_dir"
          emit "$path_dir"
        fi
        log "pulumi on PATH ($path_dir) reports '${path_version}', not v$PULUMI_VERSION; ignoring it"
      fi
      ;;
  esac
fi

# --- 2. warm cache --------------------------------------------------------------------------
if warm_ok; then emit "$bin_dir"; fi

# --- 3. build: serialise concurrent runs ----------------------------------------------------
mkdir -p "$cache_root"
exec 9>"$cache_root/pulumi-v$PULUMI_VERSION.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then
    log "another install is running; waiting for it"
    flock 9
  fi
fi
if warm_ok; then emit "$bin_dir"; fi # someone else finished meanwhile
# Leftovers of runs that were killed outright (we hold the lock, so nobody else is using them).
rm -rf "$cache_root/.pulumi-v$PULUMI_VERSION-"*.stage.* "$cache_root/.pulumi-v$PULUMI_VERSION-"*.old.*

command -v go >/dev/null 2>&1 || die "go is not installed (need Go >= 1.25.11)"
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0
go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
if ! [[ "$go_minor" =~ ^[0-9]+$ ]] || ((go_minor < 25)); then
  die "Go $(go env GOVERSION) is too old; pulumi v$PULUMI_VERSION needs Go >= 1.25.11"
fi

stage="$(mktemp -d "$cache_root/.$name.stage.XXXXXX")"
work="$(mktemp -d "${TMPDIR:-/tmp}/nsp-pulumi-build.XXXXXX")"
# shellcheck disable=SC2329 # invoked by the EXIT trap
cleanup() { rm -rf "$stage" "$work"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 0755 "$stage"
mkdir -p "$stage/bin"
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"

# --- 3. the official installer, when reachable ------------------------------------------------
if [[ "${NSP_PULUMI_SKIP_INSTALLER:-0}" != 1 ]] && command -v curl >/dev/null 2>&1 &&
  curl -fsSL --connect-timeout 5 --max-time 20 -o "$work/install.sh" https://get.pulumi.com/ 2>/dev/null; then
  log "installing pulumi v$PULUMI_VERSION with the official installer"
  if sh "$work/install.sh" --version "$PULUMI_VERSION" --install-root "$work/official" --no-edit-path >&2 &&
    [[ -z "$(missing_in "$work/official/bin")" ]]; then
    cp -p "$work/official/bin/"* "$stage/bin/"
    printf 'pulumi v%s from the official installer\n' "$PULUMI_VERSION" >"$stage/.complete"
    rm -rf "$install_dir"
    mv "$stage" "$install_dir"
    emit "$bin_dir"
  fi
  log "the official installer did not provide every tool; building with go instead"
else
  log "the official installer cannot be reached; building with go from the module proxy"
fi

# pulumi and pulumi-language-yaml do not depend on our sources: reuse them from the newest
# complete build of the same versions (another hash of tools/language-hosts).
stamp_line="pulumi v$PULUMI_VERSION, pulumi-yaml v$PULUMI_YAML_VERSION"
while IFS= read -r stamp; do
  [[ "$(head -n1 "$stamp")" == "$stamp_line"* ]] || continue
  prev_bin="$(dirname "$stamp")/bin"
  if [[ -x "$prev_bin/pulumi" && -x "$prev_bin/pulumi-language-yaml" ]] &&
    [[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$prev_bin/pulumi" version 2>/dev/null || true)" == "v$PULUMI_VERSION" ]]; then
    cp -p "$prev_bin/pulumi" "$prev_bin/pulumi-language-yaml" "$stage/bin/"
    log "reusing pulumi and pulumi-language-yaml from $prev_bin"
    break
  fi
done < <(ls -1t "$cache_root"/pulumi-v"$PULUMI_VERSION"-*/.complete 2>/dev/null || true)

if [[ ! -x "$stage/bin/pulumi" || ! -x "$stage/bin/pulumi-language-yaml" ]]; then
  mod="$work/mod"
  mkdir -p "$mod"
  {
    printf 'module nsp.local/pulumi-tools\n\ngo 1.25.11\n\n'
    printf 'require (\n'
    printf '\tgithub.com/pulumi/pulumi/pkg/v3 v%s\n' "$PULUMI_VERSION"
    printf '\tgithub.com/pulumi/pulumi/sdk/v3 v%s\n' "$PULUMI_VERSION"
    printf '\tgithub.com/pulumi/pulumi-yaml v%s\n' "$PULUMI_YAML_VERSION"
    printf ')\n\nreplace %s\n\n' "$CLIPBOARD_REPLACE"
    printf 'tool (\n\tgithub.com/pulumi/pulumi/pkg/v3/cmd/pulumi\n'
    printf '\tgithub.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml\n)\n'
  } >"$mod/go.mod"
  log "resolving modules for pulumi and pulumi-language-yaml (go mod tidy)"
  (cd "$mod" && go mod tidy >&2) || die "go mod tidy failed (see above)"
  log "compiling pulumi and pulumi-language-yaml; a cold build takes several minutes"
  (cd "$mod" && go build -trimpath -buildvcs=false -tags osusergo,grpcnotrace \
    -ldflags "$ldflags -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$PULUMI_YAML_VERSION" \
    -o "$stage/bin/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
    github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml >&2) || die "go build failed (see above)"
fi

# Our language hosts, with the module's own go.mod and go.sum (which must be up to date).
log "compiling our language hosts from $hosts_src"
(cd "$hosts_src" && go build -mod=readonly -trimpath -buildvcs=false -ldflags "$ldflags" \
  -o "$stage/bin/" ./cmd/pulumi-language-nodejs ./cmd/pulumi-language-python ./cmd/pulumi-language-go >&2) ||
  die "go build of tools/language-hosts failed (see above)"

# Scripts shipped in the sdk/v3 module our hosts are built with.
sdk_dir="$(cd "$hosts_src" && go list -mod=readonly -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
[[ -n "$sdk_dir" && -d "$sdk_dir" ]] || die "sdk/v3 not found in the module cache"
for pair in \
  "pulumi-language-python-exec:python/cmd/pulumi-language-python-exec" \
  "pulumi-resource-pulumi-nodejs:nodejs/dist/pulumi-resource-pulumi-nodejs" \
  "pulumi-resource-pulumi-python:python/dist/pulumi-resource-pulumi-python"; do
  cp "$sdk_dir/${pair#*:}" "$stage/bin/${pair%%:*}"
  chmod 0755 "$stage/bin/${pair%%:*}"
done

# --- verify and publish atomically ----------------------------------------------------------
[[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$stage/bin/pulumi" version 2>/dev/null || true)" == "v$PULUMI_VERSION" ]] ||
  die "the built pulumi does not report v$PULUMI_VERSION"
for host in nodejs python go; do
  [[ "$("$stage/bin/pulumi-language-$host" -version 2>/dev/null || true)" == "v$PULUMI_VERSION" ]] ||
    die "the built pulumi-language-$host does not report v$PULUMI_VERSION"
done
still_missing="$(missing_in "$stage/bin")"
[[ -z "$still_missing" ]] || die "missing after the build: $(tr '\n' ' ' <<<"$still_missing")"
printf '%s (tools/language-hosts %s), built %s\n' "$stamp_line" "$hosts_hash" \
  "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$stage/.complete" # the last file written into the stage

# Swap the staged tree into place: the final directory either does not exist or is whole.
if [[ -e "$install_dir" ]]; then
  old="$(mktemp -d "$cache_root/.$name.old.XXXXXX")"
  mv "$install_dir" "$old/"
  mv "$stage" "$install_dir"
  rm -rf "$old"
else
  mv "$stage" "$install_dir"
fi
log "installed pulumi v$PULUMI_VERSION and language hosts into $bin_dir"
emit "$bin_dir"
