#!/usr/bin/env bash
# One server process's resident memory after a seeded start (docs/benchmarks.md, "Memory"):
# starts the production build as `npm start` does on a fresh data directory, waits for the
# seed and 8 s more, prints VmRSS, sends 32 page requests, prints it again and stops. Each line
# also gives the whole process tree: the server and the processes it started (the reading
# analyser's child until decision 060), summed, and the most the server has held since it started.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-3399}
# Serve the existing build on its own SITE_URL (it only shapes canonical URLs), not a rebuild.
if [[ -z "${SITE_URL:-}" && -f .next/build-settings.json ]]; then
  built=$(node -p "require('./.next/build-settings.json').SITE_URL || ''")
  [[ -n "$built" ]] && export SITE_URL="$built"
fi
data=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
PORT=$port DATA_DIR=$data npm start >"$data.log" 2>&1 &
npm_pid=$!
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 1
done
# npm runs the script through sh, which has the same command line and environment: the
# server is the node process among them. (`tail`, not `head`: reading the whole list, it cannot
# end the loop early with SIGPIPE, which pipefail turned into a silent exit.)
pid=$(for p in $(pgrep -f "scripts/launch.mjs start"); do
  # By the executable: Node 24 names its main thread MainThread, so comm is no guide.
  # (An if, not &&: a last candidate that is not it must not fail the loop under pipefail.)
  if [[ "$(basename "$(readlink "/proc/$p/exe" 2>/dev/null)")" == node ]] &&
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "PORT=$port"; then
    echo "$p"
  fi
done | tail -n 1)
rss_kib() { awk '/VmRSS/ {k = $2} END {print k + 0}' "/proc/$1/status" 2>/dev/null || true; }
# The most the server has held since it started (the kernel's count: it sees the start, which
# no sample taken after /api/health answers does).
hwm_kib() { awk '/VmHWM/ {k = $2} END {print k + 0}' "/proc/$1/status" 2>/dev/null || true; }
descendants() {
  local child
  for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}
report() {
  local server tree=0 p
  server=$(rss_kib "$pid")
  for p in "$pid" $(descendants "$pid"); do tree=$((tree + $(rss_kib "$p") + 0)); done
  echo "$1: $((server / 1024)) MiB (whole process tree $((tree / 1024)) MiB; the server's high-water mark $(($(hwm_kib "$pid") / 1024)) MiB)"
}
sleep 8
report idle
for path in / /posts; do curl -s -o /dev/null "http://127.0.0.1:$port$path"; done
for _ in $(seq 1 30); do curl -s -o /dev/null "http://127.0.0.1:$port/"; done
sleep 3
report "after 32 requests"
kill "$npm_pid" 2>/dev/null || true
