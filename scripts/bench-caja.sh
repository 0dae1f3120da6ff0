#!/usr/bin/env bash
# bench-caja.sh [INVOICES]: the close of the day over a year of a busy
# restaurant. Makes INVOICES invoices (default 150,000: payments of 0,01 €
# through the API, synchronous NORMAL to make them quickly; scripts/bench-year.sh,
# kept in YEAR_DB, default /tmp/comanda-year-INVOICES.sqlite), then starts
# the release build on CPU 0 and asks, from CPU 1, GET /informes/caja and
# GET /facturas?formato=csv over the whole year (desde = the first
# invoice's day, hasta = today) five times each: the time to the whole
# answer (curl's time_total), each and their median, and the CSV's size.
# With COMANDA_BIN_BEFORE, that build answers too, against the same database,
# alternating with COMANDA_BIN, ROUNDS (default 3) rounds each.
set -euo pipefail
cd "$(dirname "$0")/.."
INVOICES=${1:-150000}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_EMPRESA_NIF=B12345674 COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L." COMANDA_ZONA_HORARIA=Europe/Madrid COMANDA_SCRYPT_LOG_N=12
PID=""
trap '[ -z "$PID" ] || kill -TERM $PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
serve() {
  COMANDA_TRUSTED_ADDRESSES=127.0.0.1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/y.sqlite" --log-level notice \
    >>"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
}
YEAR=${YEAR_DB:-/tmp/comanda-year-$INVOICES.sqlite}
COMANDA_BIN=$BIN scripts/bench-year.sh "$YEAR" "$INVOICES"
cp "$YEAR" "$WORK/y.sqlite"
measure() {
  local label=$1
  serve
  TOKEN=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); from benchapi import Api; print(Api(sys.argv[1]).token)' "$PORT")
  DESDE=$(python3 -c 'import datetime; print((datetime.date.today() - datetime.timedelta(days=365)).isoformat())')
  HASTA=$(python3 -c 'import datetime; print(datetime.date.today().isoformat())')
  for what in "informes/caja?desde=$DESDE&hasta=$HASTA" "facturas?desde=$DESDE&hasta=$HASTA&formato=csv"; do
    times=()
    for _ in 1 2 3 4 5; do
      t=$(taskset -c 1 curl -s -o "$WORK/answer" -w '%{time_total} %{http_code} %{size_download}' -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/$what")
      times+=("$t")
    done
    printf '%s\n' "${times[@]}" | python3 -c '
import statistics, sys
rows = [l.split() for l in sys.stdin if l.strip()]
secs = [float(r[0]) for r in rows]
print(sys.argv[2], sys.argv[1].split("?")[0], "status", rows[0][1], "bytes", rows[0][2], "times", " ".join(f"{s:.3f}" for s in secs), "median", f"{statistics.median(secs):.3f} s")' "$what" "$label"
  done
  kill -TERM $PID; wait $PID || true; PID=""
}
AFTER=$BIN
for round in $(seq 1 "${ROUNDS:-3}"); do
  if [ -n "${COMANDA_BIN_BEFORE:-}" ]; then BIN=$COMANDA_BIN_BEFORE measure "round $round before:"; fi
  BIN=$AFTER measure "round $round after:"
done
