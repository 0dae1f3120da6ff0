#!/usr/bin/env bash
# bench-sse.sh [N] [ROUNDS]: N subscribers on /reservations/eventos against N
# displays polling /reservations, in the same run. The release build on CPU 0
# (a fresh database, synchronous NORMAL like the other benchmarks), our load
# generator (scripts/ssebench.c, one thread, epoll) and wrk on CPU 1.
# Each round:
#  1. /health with wrk -t1 -c64 -d10s, no streams open (the reference rate);
#  2. N streams: the server's RSS per subscriber; /health again while they are
#     open; then 20 writes through the legacy feed, 3 s apart: the time from
#     each write's answer to the N-th subscriber's receipt (p50/p99/max), and
#     the server's CPU seconds per minute over the writes;
#  3. N pollers every 2 s with If-None-Match (phases spread evenly), the same
#     20 writes: when the last screen showed each (p50/p99/max), and the
#     server's CPU seconds per minute.
# Default N = 10000, 3 rounds. Needs gcc and wrk (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
ROUNDS=${2:-3}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
gcc -O2 -Wall -o "$WORK/ssebench" scripts/ssebench.c
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
KEY=bench-sse-key-0001
export COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-normal} COMANDA_DATABASE="$WORK/sse.sqlite" COMANDA_QUEUE_HOST_KEY=$KEY \
  COMANDA_MAX_CONNECTIONS=$((N + 2000)) COMANDA_LOG_LEVEL=warning
PID=""
stop() { if [ -n "$PID" ]; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=""; fi; }
trap 'stop; rm -rf "$WORK"' EXIT
BASE="http://127.0.0.1:$PORT"
health() { taskset -c 1 wrk -t1 -c64 -d10s "$BASE/health" | awk '/Requests\/sec/ {print $2}'; }

for round in $(seq 1 "$ROUNDS"); do
  rm -f "$WORK"/sse.sqlite*
  COMANDA_TRUSTED_ADDRESSES=127.0.0.1,::1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" >"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "$BASE/health" && break; sleep 0.1; done
  echo "== round $round: $N clients"
  taskset -c 1 wrk -t1 -c64 -d2s "$BASE/health" >/dev/null
  echo "/health without streams: $(health) req/s"

  rm -f "$WORK/go"; mkfifo "$WORK/go"
  taskset -c 1 "$WORK/ssebench" sse "$PORT" "$N" 20 3000 "$PID" "/queue/$KEY" <"$WORK/go" >"$WORK/sse.out" &
  GEN=$!
  exec 3>"$WORK/go"
  for _ in $(seq 1 600); do grep -q '^ready' "$WORK/sse.out" && break; kill -0 $GEN 2>/dev/null || break; sleep 0.1; done
  cat "$WORK/sse.out"
  echo "/health with $N streams open: $(health) req/s"
  echo go >&3
  exec 3>&-
  wait $GEN || echo "(the stream run did not see every write)"
  tail -n +2 "$WORK/sse.out"

  taskset -c 1 "$WORK/ssebench" poll "$PORT" "$N" 20 3000 "$PID" "/queue/$KEY" 2000 || echo "(the poll run did not see every write)"
  stop
done
