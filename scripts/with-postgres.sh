#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server (15 by default): initdb in a temp
# directory, a free port on 127.0.0.1, DATABASE_URL exported, everything removed afterwards.
# Usage: scripts/with-postgres.sh npm run test:integration
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL binaries not found in $PG_BIN (Debian: apt-get install -y postgresql-15)." >&2
  exit 1
fi

PG_DIR="$(mktemp -d /tmp/axis-pg.XXXXXX)"
PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
# The server refuses to run as root: run it as the postgres user when we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"

cleanup() {
  as_pg "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap cleanup EXIT

as_pg "'$PG_BIN/initdb' -D '$PG_DIR/data' -A trust -U postgres -E UTF8 --locale=C.UTF-8" >/dev/null
as_pg "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -l '$PG_DIR/log' -o \"-p $PORT -k '$PG_DIR' -c listen_addresses=127.0.0.1 -c fsync=off\" -w start" >/dev/null
echo "[with-postgres] PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
"$@"
