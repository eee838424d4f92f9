#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium for the browser tests (test/e2e/harness/fleet-page.ts
# drives it with playwright-core), installing Debian's `chromium` package when none is there and
# this runs as root, as scripts/postgres.sh installs PostgreSQL. Playwright's own browser download
# is not used: it fetches a build from outside the package registries.
#
#   CHROMIUM="$(bash scripts/chromium.sh)"
set -euo pipefail

find_chromium() {
  local candidate
  for candidate in "${NSP_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
  done
  return 1
}

if path="$(find_chromium)"; then echo "$path"; exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "chromium.sh: no Chromium (/usr/bin/chromium); install the chromium package, or set NSP_CHROMIUM to a Chromium binary" >&2
  exit 1
fi
echo "chromium.sh: installing Chromium from the system's packages" >&2
# Another install (a second test file, postgres.sh) may hold dpkg's lock: wait for it rather than fail.
apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >&2
find_chromium
