#!/usr/bin/env bash
# scripts/bench.sh [ROUNDS]
#
# comanda beside its peers in one run, through ../shared/bench: each server
# pinned to CPU 0, wrk pinned to CPU 1 (wrk -t1 -c64 -d10s --latency after a
# 2 s warm-up), a fresh database per server, ROUNDS rounds (default 3), then
# the median table. Nothing else may run meanwhile (not even a build).
#
# Env: WORKLOADS  ["health health_close"]; all of them: "health platos queue post health_close"
#      ROWS       [200] menu size for "platos" (the menu issue measures 5000)
#      PEERS      ["hummingbird"] peers from ../shared/bench/peers ("" for none; all of
#                 them: "hummingbird vapor flyingfox flyingfox-nodelay")
#      NGINX      [1] nginx reference on the /health workloads
#      OUT        [$BENCH_CACHE/bench-DATE.txt] the raw lines
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
B=$(cd ../shared/bench && pwd)
ROUNDS=${1:-3}
export WORKLOADS=${WORKLOADS:-"health health_close"}
export ROWS=${ROWS:-200}
export BENCH_CACHE=${BENCH_CACHE:-/tmp/comanda-bench}
PEERS=${PEERS-hummingbird}
NGINX=${NGINX:-1}
mkdir -p "$BENCH_CACHE"
OUT=${OUT:-$BENCH_CACHE/bench-$(date -u +%Y%m%d-%H%M%S).txt}

need=()
command -v wrk >/dev/null || need+=(wrk)
[ "$NGINX" = 0 ] || command -v nginx >/dev/null || need+=(nginx)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

swift build -c release >&2
# ../shared is read-only: the peers are built in a copy.
export PEERS_DIR=$BENCH_CACHE/peers
mkdir -p "$PEERS_DIR"
for p in $PEERS; do
  p=${p%-nodelay}   # flyingfox-nodelay is the flyingfox binary with TCP_NODELAY
  [ -d "$PEERS_DIR/$p-peer" ] || cp -r "$B/peers/$p-peer" "$PEERS_DIR/"
  [ -x "$PEERS_DIR/$p-peer/.build/release" ] || (cd "$PEERS_DIR/$p-peer" && swift build -c release >&2)
done
health_only=$(for w in $WORKLOADS; do case $w in health|health_close) printf '%s ' "$w";; esac; done)

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uname -r) $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "# comanda $(git -C "$ROOT" rev-parse --short HEAD); workloads: $WORKLOADS; rows: $ROWS"
  for r in $(seq 1 "$ROUNDS"); do
    echo "# round $r"
    if [ "$NGINX" != 0 ] && [ -n "$health_only" ]; then WORKLOADS="$health_only" "$B/run_nginx.sh" nginx || true; fi
    for p in $PEERS; do "$B/run_peer.sh" "$p" || true; done
    # comanda's POST /reservations needs a host's token (the contract's rule):
    # bench-server.sh creates this host, bench.sh logs in as it.
    BENCH_LOGIN=bench BENCH_PASSWORD=bench-password "$B/run_server.sh" comanda -- "$ROOT/scripts/bench-server.sh" || true
  done
} | tee "$OUT"
echo "raw results: $OUT" >&2
python3 "$B/table.py" "$OUT"
