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
import sys
sys.path.insert(0, "scripts")
from wrkfigures import line, p99s, rates, ratio
text = {n: open(f"{sys.argv[1]}.{n}").read() for n in (0, 2)}
(r0, p0), (r2, p2) = ((rates(text[n]), p99s(text[n])) for n in (0, 2))
print(line("no printer", r0, p0))
print(line("two printers", r2, p2))
print(ratio(r0, p0, r2, p2))
PY
