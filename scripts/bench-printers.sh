#!/usr/bin/env bash
# bench-printers.sh: does printing slow the floor? scripts/bench-checks.sh's
# 64 waiters (lines and sends; release build on CPU 0, load on CPU 1, 10 s,
# kitchen at work) with no printer, then with two network printers attached
# (PRINTERS=2: every send queues a ticket per station in its transaction and
# the spooler prints them), alternating, ROUNDS (default 3) rounds. Prints
# each run and the medians of requests/s and p99 with and without.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
OUT=$(mktemp)
trap 'rm -f "$OUT".*' EXIT
for round in $(seq 1 "${ROUNDS:-3}"); do
  for printers in 0 2; do
    echo "== round $round, printers: $printers"
    PRINTERS=$printers COMANDA_BIN=$BIN scripts/bench-checks.sh | tee -a "$OUT.$printers"
  done
done
python3 - "$OUT" <<'PY'
import re, statistics, sys
def figures(n):
    text = open(f"{sys.argv[1]}.{n}").read()
    ms = lambda v, u: float(v) * {"us": 0.001, "ms": 1, "s": 1000}[u]
    return [float(v) for v in re.findall(r"Requests/sec:\s+([\d.]+)", text)], [ms(v, u) for v, u in re.findall(r"99%\s+([\d.]+)(us|ms|s)\b", text)]
(r0, p0), (r2, p2) = figures(0), figures(2)
print(f"no printer: requests/s {[round(x) for x in r0]} median {statistics.median(r0):.0f}; p99 {[round(x, 2) for x in p0]} ms median {statistics.median(p0):.2f} ms")
print(f"two printers: requests/s {[round(x) for x in r2]} median {statistics.median(r2):.0f}; p99 {[round(x, 2) for x in p2]} ms median {statistics.median(p2):.2f} ms")
print(f"ratio of requests/s {statistics.median(r2) / statistics.median(r0):.3f}; p99 {statistics.median(p2) - statistics.median(p0):+.2f} ms")
PY
