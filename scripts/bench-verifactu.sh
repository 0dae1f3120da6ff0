#!/usr/bin/env bash
# bench-verifactu.sh [ROUNDS]: does sending the billing records hold up a
# payment? bench-bill.sh's payments (server on CPU 0, wrk on CPU 1) with the
# records sent meanwhile to the AEAT's stand-in (VERIFACTU=1, TiempoEsperaEnvio
# 1 s) against sending off, alternating in one run (ROUNDS each, default 3),
# the same release binary; prints each round and the medians of invoices/s
# and p99, and their ratio (on/off).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
export COMANDA_BIN=${COMANDA_BIN:-.build/release/comanda}
[ -x "$COMANDA_BIN" ] || swift build -c release --product comanda >&2
OUT=$(mktemp -d)
for round in $(seq 1 "$ROUNDS"); do
  for mode in 0 1; do
    VERIFACTU=$mode CHECKS=${CHECKS:-512} scripts/bench-bill.sh > "$OUT/$mode-$round.txt" 2>&1
    rate=$(awk '/Requests\/sec/{print $2; exit}' "$OUT/$mode-$round.txt")
    p99=$(awk '/99%/{print $2; exit}' "$OUT/$mode-$round.txt")
    echo "round $round sending $([ $mode = 1 ] && echo on || echo off): $rate invoices/s, p99 $p99"
    grep -E "sent to the stand-in|cadena" "$OUT/$mode-$round.txt" || true
  done
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def ms(t):
    v = float(re.match(r"[\d.]+", t).group())
    return v / 1000 if t.endswith("us") else v * 1000 if t.endswith("s") and not t.endswith("ms") else v
figures = {}
for mode in "01":
    rates, p99s = [], []
    for r in range(1, rounds + 1):
        text = open(f"{out}/{mode}-{r}.txt").read()
        rates.append(float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)))
        p99s.append(ms(re.search(r"99%\s+(\S+)", text).group(1)))
    figures[mode] = (statistics.median(rates), statistics.median(p99s))
(off_rate, off_p99), (on_rate, on_p99) = figures["0"], figures["1"]
print(f"median invoices/s: off {off_rate:.0f}, on {on_rate:.0f} ({on_rate / off_rate:.3f}x)")
print(f"median p99: off {off_p99:.2f} ms, on {on_p99:.2f} ms ({on_p99 - off_p99:+.2f} ms)")
PY
rm -rf "$OUT"
