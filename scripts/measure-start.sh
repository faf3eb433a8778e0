#!/usr/bin/env bash
# First contact, timed as a new user meets it: a clean clone of this repository, `npm ci` (with
# whatever npm cache the machine has), `npm start`, then `GET /api/v1/equities/600519.SH` with
# the key the banner prints, polled until it answers 200; then a restart until it serves again.
# Usage: scripts/measure-start.sh [extra npm ci flags, e.g. --omit=dev]   (PORT: 3998 by default)
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
port="${PORT:-3998}"
dir="$(mktemp -d /tmp/mds-start-XXXXXX)"
stop() { fuser -k "$port/tcp" >/dev/null 2>&1 || true; }
trap 'stop; rm -rf "$dir"' EXIT
now() { date +%s.%N; }
ok() { [ "$(curl -s -o /dev/null -w '%{http_code}' "$@")" = 200 ]; }

git clone -q "$src" "$dir/repo"
cd "$dir/repo"
t0=$(now)
npm ci --no-audit --no-fund "$@" > "$dir/ci.log" 2>&1
t1=$(now)
PORT="$port" npm start > "$dir/start.log" 2>&1 &
for _ in $(seq 1 1200); do
  key=$(grep -o 'mds_[A-Za-z0-9_-]*' "$dir/start.log" | head -1 || true)
  if [ -n "$key" ] && ok -H "X-API-Key: $key" "http://127.0.0.1:$port/api/v1/equities/600519.SH"; then break; fi
  sleep 0.2
done
t2=$(now)
stop
while ok "http://127.0.0.1:$port/api/v1/system/health"; do sleep 0.1; done
t3=$(now)
PORT="$port" npm start > "$dir/restart.log" 2>&1 &
until ok "http://127.0.0.1:$port/api/v1/system/health"; do sleep 0.05; done
t4=$(now)
printf 'npm ci %.1f s; first start to the first 200 %.1f s; in all %.1f s; restart %.1f s\n' \
  "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t2 - $t0" | bc)" "$(echo "$t4 - $t3" | bc)"
