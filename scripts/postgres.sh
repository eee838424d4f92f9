#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests that need one (the fleet's queue and
# Pulumi's PostgreSQL state backend).
#
#   eval "$(bash scripts/postgres.sh start)"   # prints NSP_TEST_POSTGRES_URL=... and NSP_TEST_POSTGRES_DIR=...
#   bash scripts/postgres.sh stop "$NSP_TEST_POSTGRES_DIR"
#
# `start` makes a cluster with initdb in a new temporary folder, with a user and a random password
# (scram-sha-256, so that a wrong password is refused as on a real server), and starts it with
# pg_ctl on a free port of 127.0.0.1; its socket stays in that folder. The server binaries come
# from PATH or the system's PostgreSQL packages, installed with apt-get when absent. PostgreSQL
# refuses to run as root: as root it runs as the `postgres` user, made if missing.
set -euo pipefail

find_bin() {
  local name="$1" dir
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/$name" ]; then echo "$dir/$name"; return; fi
  done
  return 1
}

install_server() {
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql; install the postgresql package" >&2
    exit 1
  fi
  echo "postgres.sh: installing PostgreSQL from the system's packages" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local initdb pg_ctl dir port password
  initdb="$(find_bin initdb)" || { install_server; initdb="$(find_bin initdb)"; }
  pg_ctl="$(find_bin pg_ctl)"
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then useradd --system --no-create-home postgres; fi
  dir="$(mktemp -d "${TMPDIR:-/tmp}/nsp-postgres-XXXXXX")"
  chmod 755 "$dir"
  password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$password" >"$dir/password"
  [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
  as_owner "$initdb" -D "$dir/data" -U nsp --pwfile="$dir/password" --auth=scram-sha-256 --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  rm -f "$dir/password"
  # The kernel's free port; another process could take it before the server binds, so a failed
  # start tries another.
  for _ in 1 2 3 4 5; do
    port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
    if as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >&2; then
      printf 'NSP_TEST_POSTGRES_URL=postgres://nsp:%s@127.0.0.1:%s/postgres\n' "$password" "$port"
      printf 'NSP_TEST_POSTGRES_DIR=%s\n' "$dir"
      printf 'export NSP_TEST_POSTGRES_URL NSP_TEST_POSTGRES_DIR\n'
      return
    fi
  done
  cat "$dir/server.log" >&2
  exit 1
}

stop() {
  local dir="${1:?usage: postgres.sh stop DIR}" pg_ctl
  pg_ctl="$(find_bin pg_ctl)"
  [ -d "$dir/data" ] && as_owner "$pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: postgres.sh start | stop DIR" >&2; exit 2 ;;
esac
