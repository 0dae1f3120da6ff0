#!/usr/bin/env bash
# bench-backup.sh: does the server's daily backup hold up the floor? A year of
# a busy restaurant (scripts/bench-year.sh: 150,000 invoices and their billing
# records) under scripts/bench-checks.sh's 64 waiters (release build on CPU 0,
# load on CPU 1, synchronous FULL, 10 s), without a copy and with the
# server's own copy (POST /copias a second into the run: the online backup
# API at idle priority, then the copy's integrity check and its billing chain
# recomputed), alternating, ROUNDS (default 3) rounds. Prints each run, how
# long each copy took (from POST /copias until GET /copias says it is done),
# and the medians of requests/s and p99 without and with.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
YEAR=${YEAR_DB:-${TMPDIR:-/tmp}/comanda-year-150000.sqlite}
COMANDA_BIN=$BIN scripts/bench-year.sh "$YEAR" 150000 >&2
OUT=$(mktemp)
COPIAS=$(mktemp -d)
trap 'rm -rf "$OUT".* "$COPIAS"' EXIT
# The copies' folder is absent when each run starts (so no copy is made at start); the copy run makes it.
export COMANDA_COPIAS_CARPETAS=$COPIAS/copias
read -r -d '' COPY <<'SH' || true
sleep 1
mkdir -p "$COMANDA_COPIAS_CARPETAS"
T0=$(date +%s.%N)
curl -sf -o /dev/null -X POST -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/copias" || { echo "copy: POST /copias refused"; exit 0; }
while curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/copias" | grep -q '"copiando":true'; do sleep 0.05; done
echo "copy: $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$T0" "$(date +%s.%N)") s, $(ls "$COMANDA_COPIAS_CARPETAS" | grep -c '^comanda-') file(s), $(du -m "$COMANDA_COPIAS_CARPETAS" | cut -f1) MB"
sleep 30
SH
for round in $(seq 1 "${ROUNDS:-3}"); do
  for copy in 0 1; do
    rm -rf "$COPIAS/copias"
    echo "== round $round, copy: $copy"
    if [ "$copy" = 1 ]; then
      FROM_DB=$YEAR BESIDE=$COPY COMANDA_BIN=$BIN scripts/bench-checks.sh | tee -a "$OUT.$copy"
    else
      FROM_DB=$YEAR COMANDA_BIN=$BIN scripts/bench-checks.sh | tee -a "$OUT.$copy"
    fi
  done
done
python3 - "$OUT" <<'PY'
import re, statistics, sys
sys.path.insert(0, "scripts")
from wrkfigures import line, p99s, rates, ratio
text = {n: open(f"{sys.argv[1]}.{n}").read() for n in (0, 1)}
(r0, p0), (r1, p1) = ((rates(text[n]), p99s(text[n])) for n in (0, 1))
c1 = [float(v) for v in re.findall(r"copy: ([\d.]+) s", text[1])]
print(line("without a copy", r0, p0))
print(line("with the copy", r1, p1))
print(f"the copy took {c1} s (median {statistics.median(c1) if c1 else float('nan'):.2f} s)")
print(ratio(r0, p0, r1, p1))
PY
