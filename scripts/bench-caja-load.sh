#!/usr/bin/env bash
# bench-caja-load.sh [INVOICES]: does closing the day hurt the floor? Over a
# year of a busy restaurant (scripts/bench-year.sh, 150,000 invoices by
# default), scripts/bench-checks.sh's 64 waiters (release build on CPU 0,
# load from CPU 1, 10 s measured) run twice per round: alone, and with the
# manager asking the whole year's GET /informes/caja and GET
# /facturas?formato=csv back to back for the 10 s (from CPU 1 too). ROUNDS
# (default 3) rounds, alternating; prints each run's requests/s, p50 and
# p99, the reports answered meanwhile, and the medians of p99 alone and
# with the reports beside.
set -euo pipefail
cd "$(dirname "$0")/.."
INVOICES=${1:-150000}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
YEAR=${YEAR_DB:-/tmp/comanda-year-$INVOICES.sqlite}
COMANDA_BIN=$BIN scripts/bench-year.sh "$YEAR" "$INVOICES"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
# The manager's loop: the year's report, then its CSV, over and over; on TERM, how many and how long.
BESIDE='exec python3 - <<"PY"
import datetime, http.client, os, signal, statistics, sys, time
desde = (datetime.date.today() - datetime.timedelta(days=365)).isoformat()
hasta = datetime.date.today().isoformat()
times = {"caja": [], "csv": []}
def report(*_):
    print(" ".join(f"{k}: {len(v)} answered, median {statistics.median(v):.3f} s" if v else f"{k}: none" for k, v in times.items()))
    sys.exit(0)
signal.signal(signal.SIGTERM, report)
conn = http.client.HTTPConnection("127.0.0.1", int(os.environ["PORT"]), timeout=60)
paths = {"caja": f"/informes/caja?desde={desde}&hasta={hasta}", "csv": f"/facturas?desde={desde}&hasta={hasta}&formato=csv"}
paths = {k: v for k, v in paths.items() if k in os.environ.get("REPORTS", "caja csv").split()}
while True:
    for kind, path in paths.items():
        t = time.monotonic()
        conn.request("GET", path, headers={"Authorization": "Bearer " + os.environ["TOKEN"]})
        r = conn.getresponse(); r.read()
        if r.status == 200: times[kind].append(time.monotonic() - t)
PY'
for round in $(seq 1 "${ROUNDS:-3}"); do
  for mode in alone beside; do
    echo "== round $round, $mode"
    if [ $mode = alone ]; then FROM_DB=$YEAR KITCHEN=0 COMANDA_BIN=$BIN scripts/bench-checks.sh | tee -a "$OUT.$mode"
    else FROM_DB=$YEAR KITCHEN=0 BESIDE=$BESIDE COMANDA_BIN=$BIN scripts/bench-checks.sh | tee -a "$OUT.$mode"; fi
  done
done
python3 - "$OUT" <<'PY'
import statistics, sys
sys.path.insert(0, "scripts")
from wrkfigures import p99s, rates
text = {m: open(sys.argv[1] + "." + m).read() for m in ("alone", "beside")}
(a, ra), (b, rb) = ((p99s(text[m]), rates(text[m])) for m in ("alone", "beside"))
print(f"p99 alone {[round(x, 2) for x in a]} ms, median {statistics.median(a):.2f} ms; requests/s median {statistics.median(ra):.0f}")
print(f"p99 with the year's report and CSV beside {[round(x, 2) for x in b]} ms, median {statistics.median(b):.2f} ms; requests/s median {statistics.median(rb):.0f}")
print(f"difference of the medians: {statistics.median(b) - statistics.median(a):+.2f} ms")
PY
rm -f "$OUT.alone" "$OUT.beside"
