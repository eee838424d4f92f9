#!/usr/bin/env bash
# Provides a pinned Pulumi CLI and its language hosts in one bin directory and prints that
# directory's absolute path on stdout (and nothing else). All progress goes to stderr.
#
#   PULUMI_BIN="$(scripts/install-pulumi.sh)"; export PATH="$PULUMI_BIN:$PATH"
#
# Order of attempts:
#   1. a `pulumi` on PATH that reports exactly v$PULUMI_VERSION and has every host beside it;
#   2. a completed build in "${NSP_CACHE_DIR:-$HOME/.cache/nsp}/pulumi-v$PULUMI_VERSION/bin";
#   3. the official installer (needs get.pulumi.com; fails fast when unreachable);
#   4. `go build` from the Go module proxy for whatever is still missing.
#
# The Go module proxy serves pkg/v3 and sdk/v3 at v$PULUMI_VERSION and pulumi-yaml, but it may
# refuse the untagged language-host modules (nodejs, python, go). Then their source is taken from
# NSP_PULUMI_SRC (or the default below): either a git repository of github.com/pulumi/pulumi that
# holds commit $PULUMI_COMMIT, or a directory tree holding sdk/nodejs/cmd/pulumi-language-nodejs,
# sdk/python/cmd/pulumi-language-python and sdk/go/pulumi-language-go from that commit.
#
# Environment:
#   NSP_CACHE_DIR             cache root (default $HOME/.cache/nsp)
#   NSP_PULUMI_SRC            language-host source, see above
#                             (default: <repo>/third_party/pulumi-v$PULUMI_VERSION if present)
#   NSP_PULUMI_ALLOW_PARTIAL  =1: if some language hosts cannot be built, still succeed with
#                             the rest (pulumi and pulumi-language-yaml are always required)
#   NSP_PULUMI_SKIP_INSTALLER =1: do not try get.pulumi.com
set -euo pipefail

PULUMI_VERSION=3.259.0
# Commit that tag pkg/v3.259.0 points to, and its committer time (UTC). The language-host modules
# have no tags of their own, so they are required at this pseudo-version.
PULUMI_COMMIT=a05d88f24d05726fa3beae771bfdedb0c0c6a94a
PULUMI_COMMIT_TIME=20260820084410
LANGHOST_PSEUDO_VERSION="v3.0.0-${PULUMI_COMMIT_TIME}-${PULUMI_COMMIT:0:12}"
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
# Without these two nothing useful works, partial or not.
ESSENTIAL=(pulumi pulumi-language-yaml)

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

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
cache_root="${NSP_CACHE_DIR:-${HOME:?HOME is not set}/.cache/nsp}"
case "$cache_root" in /*) ;; *) cache_root="$PWD/$cache_root" ;; esac
install_dir="$cache_root/pulumi-v$PULUMI_VERSION"
bin_dir="$install_dir/bin"
complete_stamp="$install_dir/.complete"
partial_stamp="$install_dir/.partial"
allow_partial="${NSP_PULUMI_ALLOW_PARTIAL:-0}"
src_hint="${NSP_PULUMI_SRC:-$script_dir/../third_party/pulumi-v$PULUMI_VERSION}"

# warm_ok: the cached build is usable as it stands.
warm_ok() {
  if [[ -f "$complete_stamp" ]] && [[ -z "$(missing_in "$bin_dir")" ]]; then
    return 0
  fi
  # A partial build is accepted only on request, and only while no language-host source exists
  # (once one does, the next run completes the build).
  if [[ "$allow_partial" == 1 && -f "$partial_stamp" && ! -e "$src_hint" ]]; then
    local name
    for name in "${ESSENTIAL[@]}"; do [[ -x "$bin_dir/$name" ]] || return 1; done
    log "warning: using partial build in $bin_dir (missing: $(tr '\n' ' ' <"$partial_stamp"))"
    return 0
  fi
  return 1
}

# --- 1. pulumi on PATH ------------------------------------------------------------------------
if path_pulumi="$(command -v pulumi 2>/dev/null)" && [[ "$path_pulumi" == /* ]]; then
  path_dir="$(cd "$(dirname "$path_pulumi")" && pwd -P)"
  if [[ "$path_dir" != "$(cd "$bin_dir" 2>/dev/null && pwd -P || true)" ]] &&
    [[ -z "$(missing_in "$path_dir")" ]]; then
    path_version="$(PULUMI_SKIP_UPDATE_CHECK=true timeout 20 "$path_pulumi" version 2>/dev/null || true)"
    if [[ "$path_version" == "v$PULUMI_VERSION" ]]; then
      log "using pulumi $path_version on PATH in $path_dir"
      emit "$path_dir"
    fi
    log "pulumi on PATH ($path_dir) reports '${path_version}', not v$PULUMI_VERSION; ignoring it"
  fi
fi

# --- 2. warm cache --------------------------------------------------------------------------
if warm_ok; then emit "$bin_dir"; fi

# --- cold path: serialise concurrent runs ---------------------------------------------------
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
rm -rf "$cache_root/.pulumi-v$PULUMI_VERSION.stage."* "$cache_root/.pulumi-v$PULUMI_VERSION.old."*

stage="$(mktemp -d "$cache_root/.pulumi-v$PULUMI_VERSION.stage.XXXXXX")"
work="$(mktemp -d "${TMPDIR:-/tmp}/nsp-pulumi-build.XXXXXX")"
# shellcheck disable=SC2329 # invoked by the EXIT trap
cleanup() { rm -rf "$stage" "$work"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 0755 "$stage"
mkdir -p "$stage/bin"

# Reuse whatever an earlier (partial) build left behind; everything is re-checked below.
if [[ -d "$bin_dir" ]]; then
  for name in "${REQUIRED[@]}"; do
    if [[ -x "$bin_dir/$name" ]]; then cp -p "$bin_dir/$name" "$stage/bin/$name"; fi
  done
fi
# Only keep a reused pulumi if it is the pinned version.
if [[ -x "$stage/bin/pulumi" ]] &&
  [[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$stage/bin/pulumi" version 2>/dev/null || true)" != "v$PULUMI_VERSION" ]]; then
  rm -f "$stage/bin/pulumi"
fi

# --- 3. official installer ------------------------------------------------------------------
if [[ -n "$(missing_in "$stage/bin")" && "${NSP_PULUMI_SKIP_INSTALLER:-0}" != 1 ]] &&
  command -v curl >/dev/null 2>&1; then
  log "trying the official installer (get.pulumi.com)"
  if curl -fsSL --connect-timeout 5 --max-time 10 https://get.pulumi.com/ -o "$work/get-pulumi.sh" 2>/dev/null &&
    timeout 300 sh "$work/get-pulumi.sh" --version "$PULUMI_VERSION" --install-root "$work/official" \
      --no-edit-path >&2 &&
    [[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$work/official/bin/pulumi" version 2>/dev/null || true)" == "v$PULUMI_VERSION" ]]; then
    for name in "${REQUIRED[@]}"; do
      if [[ ! -x "$stage/bin/$name" && -x "$work/official/bin/$name" ]]; then
        cp -p "$work/official/bin/$name" "$stage/bin/$name"
      fi
    done
    log "official installer provided: $(find "$work/official/bin" -mindepth 1 -maxdepth 1 -printf '%f ')"
  else
    log "official installer unavailable; building with go instead"
  fi
fi

# --- 4. go build from the module proxy ------------------------------------------------------
mapfile -t missing < <(missing_in "$stage/bin")
if ((${#missing[@]} > 0)); then
  log "building with go: ${missing[*]}"
  command -v go >/dev/null 2>&1 || die "go is not installed (need Go >= 1.25.11)"
  export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-}"
  go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
  if ! [[ "$go_minor" =~ ^[0-9]+$ ]] || ((go_minor < 25)); then
    die "Go $(go env GOVERSION) is too old; pulumi v$PULUMI_VERSION needs Go >= 1.25.11"
  fi

  wants() { printf '%s\n' "${missing[@]}" | grep -qx -- "$1"; }
  mod="$work/mod"
  mkdir -p "$mod"
  requires=("github.com/pulumi/pulumi/pkg/v3 v$PULUMI_VERSION" "github.com/pulumi/pulumi/sdk/v3 v$PULUMI_VERSION")
  replaces=("$CLIPBOARD_REPLACE")
  tools=()
  if wants pulumi; then tools+=(github.com/pulumi/pulumi/pkg/v3/cmd/pulumi); fi
  if wants pulumi-language-yaml; then
    requires+=("github.com/pulumi/pulumi-yaml v$PULUMI_YAML_VERSION")
    tools+=(github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
  fi

  # Language hosts: module path, source dir inside the pulumi repo, package to build.
  hosts=(
    "pulumi-language-nodejs|github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3|sdk/nodejs/cmd/pulumi-language-nodejs"
    "pulumi-language-python|github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3|sdk/python/cmd/pulumi-language-python"
    "pulumi-language-go|github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3|sdk/go/pulumi-language-go"
  )
  src_tree="" # directory holding sdk/... for hosts the proxy refuses, prepared on demand
  prepare_src_tree() {
    [[ -n "$src_tree" ]] && return 0
    local src="$src_hint"
    [[ -e "$src" ]] || return 1
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
      git -C "$src" cat-file -e "$PULUMI_COMMIT^{commit}" 2>/dev/null ||
        { log "git repository $src lacks commit $PULUMI_COMMIT"; return 1; }
      mkdir -p "$work/pulumi-src"
      local h paths=()
      for h in "${hosts[@]}"; do paths+=("${h##*|}"); done
      git -C "$src" archive --format=tar "$PULUMI_COMMIT" -- "${paths[@]}" 2>/dev/null |
        tar -x -C "$work/pulumi-src" -f - ||
        { log "could not extract language-host source from $src"; return 1; }
      src_tree="$work/pulumi-src"
    elif [[ -d "$src/sdk" ]]; then
      src_tree="$(cd "$src" && pwd -P)"
    else
      return 1
    fi
    log "language-host source: $src (commit $PULUMI_COMMIT expected)"
  }

  for h in "${hosts[@]}"; do
    IFS='|' read -r name modpath subdir <<<"$h"
    wants "$name" || continue
    if (cd "$mod" && timeout 120 go mod download -json "$modpath@$LANGHOST_PSEUDO_VERSION" >/dev/null 2>&1); then
      requires+=("$modpath $LANGHOST_PSEUDO_VERSION")
      tools+=("$modpath")
    elif prepare_src_tree && [[ -f "$src_tree/$subdir/go.mod" ]] &&
      grep -qx "module $modpath" "$src_tree/$subdir/go.mod"; then
      mkdir -p "$mod/src/$name"
      cp -R "$src_tree/$subdir/." "$mod/src/$name/"
      # Tests and test data are not needed and may pull extra modules.
      rm -rf "$mod/src/$name/testdata"
      find "$mod/src/$name" -name '*_test.go' -delete
      requires+=("$modpath v3.0.0")
      replaces+=("$modpath => ./src/$name")
      tools+=("$modpath")
    else
      log "cannot build $name: the module proxy refuses $modpath@$LANGHOST_PSEUDO_VERSION and no source was found at '$src_hint'"
    fi
  done

  {
    printf 'module nsp.local/pulumi-tools\n\ngo 1.25.11\n\nrequire (\n'
    printf '\t%s\n' "${requires[@]}"
    printf ')\n\nreplace (\n'
    printf '\t%s\n' "${replaces[@]}"
    printf ')\n'
    if ((${#tools[@]} > 0)); then
      printf '\ntool (\n'
      printf '\t%s\n' "${tools[@]}"
      printf ')\n'
    fi
  } >"$mod/go.mod"

  log "resolving modules (go mod tidy)"
  (cd "$mod" && go mod tidy >&2) || die "go mod tidy failed (see above)"

  if ((${#tools[@]} > 0)); then
    log "compiling ${#tools[@]} package(s); a cold build takes several minutes"
    ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
    ldflags+=" -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$PULUMI_YAML_VERSION"
    (cd "$mod" && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" \
      -o "$stage/bin/" "${tools[@]}" >&2) || die "go build failed (see above)"
  fi

  # Script files shipped in the sdk/v3 module.
  sdk_dir="$(cd "$mod" && go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$sdk_dir" && -d "$sdk_dir" ]] || die "sdk/v3 v$PULUMI_VERSION not found in the module cache"
  for pair in \
    "pulumi-language-python-exec:python/cmd/pulumi-language-python-exec" \
    "pulumi-resource-pulumi-nodejs:nodejs/dist/pulumi-resource-pulumi-nodejs" \
    "pulumi-resource-pulumi-python:python/dist/pulumi-resource-pulumi-python"; do
    name="${pair%%:*}"
    if [[ -x "$stage/bin/$name" ]]; then continue; fi
    cp "$sdk_dir/${pair#*:}" "$stage/bin/$name"
    chmod 0755 "$stage/bin/$name"
  done
fi

# --- verify and publish atomically ----------------------------------------------------------
[[ "$(PULUMI_SKIP_UPDATE_CHECK=true "$stage/bin/pulumi" version 2>/dev/null || true)" == "v$PULUMI_VERSION" ]] ||
  die "the built pulumi does not report v$PULUMI_VERSION"
mapfile -t still_missing < <(missing_in "$stage/bin")
for name in "${ESSENTIAL[@]}"; do
  [[ -x "$stage/bin/$name" ]] || die "$name could not be provided"
done
if ((${#still_missing[@]} > 0)); then
  printf '%s\n' "${still_missing[@]}" >"$stage/.partial"
else
  printf 'pulumi v%s (pkg/v3 commit %s), pulumi-yaml v%s, built %s\n' \
    "$PULUMI_VERSION" "$PULUMI_COMMIT" "$PULUMI_YAML_VERSION" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    >"$stage/.complete" # the stamp is the last file written into the staged tree
fi

# Swap the staged tree into place: the final directory either does not exist or is whole.
if [[ -e "$install_dir" ]]; then
  old="$(mktemp -d "$cache_root/.pulumi-v$PULUMI_VERSION.old.XXXXXX")"
  mv "$install_dir" "$old/"
  mv "$stage" "$install_dir"
  rm -rf "$old"
else
  mv "$stage" "$install_dir"
fi

if ((${#still_missing[@]} > 0)); then
  log "missing: ${still_missing[*]}"
  log "the Go module proxy refuses the language-host modules; set NSP_PULUMI_SRC to a"
  log "pulumi/pulumi git repository (or source tree) holding commit $PULUMI_COMMIT and re-run"
  if [[ "$allow_partial" == 1 ]]; then
    log "warning: NSP_PULUMI_ALLOW_PARTIAL=1, continuing with a partial toolset"
    emit "$bin_dir"
  fi
  die "incomplete toolset in $bin_dir (set NSP_PULUMI_ALLOW_PARTIAL=1 to accept it)"
fi
log "installed pulumi v$PULUMI_VERSION and language hosts into $bin_dir"
emit "$bin_dir"
