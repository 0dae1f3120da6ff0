#!/usr/bin/env bash
# bench-carta.sh [ROUNDS]: the guests' menu (GET /carta, by category, as `/`
# reads it) beside the flat list (GET /platos) in the same run, at 200 and at
# 5,000 dishes (the shared bench's menu, ../shared/bench/make_platos.py). The
# release build on CPU 0 (synchronous NORMAL, as every benchmark here), wrk
# on CPU 1 (-t1 -c64 -d10s after a 2 s warm-up), with `Accept-Encoding: gzip`
# as a phone sends it, alternating /carta and /platos in each round.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
WORK=$(mktemp -d)
PID=
trap '[ -n "$PID" ] && kill -TERM $PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
run() { # name path
  taskset -c 1 wrk -t1 -c64 -d2s -H 'Accept-Encoding: gzip' "$BASE$2" >/dev/null
  taskset -c 1 wrk -t1 -c64 -d10s --latency -H 'Accept-Encoding: gzip' "$BASE$2" |
    awk -v n="$1" '/Requests\/sec/ {r=$2} / 99%/ {p=$2} /Non-2xx/ {bad=$0} END {print n, r, "p99", p, bad}'
}
for DISHES in 200 5000; do
  python3 ../shared/bench/make_platos.py "$DISHES" -o "$WORK/platos-$DISHES.json"
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  COMANDA_SYNCHRONOUS=normal COMANDA_DATABASE="$WORK/carta-$DISHES.sqlite" taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
    --platos "$WORK/platos-$DISHES.json" --log-level notice >"$WORK/server.log" 2>&1 &
  PID=$!
  BASE="http://127.0.0.1:$PORT"
  for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "$BASE/health" && break; sleep 0.1; done
  echo "== $DISHES dishes: /carta $(curl -s "$BASE/carta" | wc -c) bytes ($(curl -s -H 'Accept-Encoding: gzip' "$BASE/carta" | wc -c) gzip)," \
       "/platos $(curl -s "$BASE/platos" | wc -c) bytes ($(curl -s -H 'Accept-Encoding: gzip' "$BASE/platos" | wc -c) gzip)"
  for round in $(seq "$ROUNDS"); do
    echo "-- round $round"
    run carta /carta
    run platos /platos
  done
  kill -TERM $PID; wait $PID 2>/dev/null || true
  PID=
done
