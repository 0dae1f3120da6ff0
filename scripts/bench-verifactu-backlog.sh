#!/usr/bin/env bash
# bench-verifactu-backlog.sh [RECORDS]: a month with the internet down. Makes
# RECORDS billing records (default 100,000: payments of 0,01 € through the
# API, sending off), then restarts the server (release build, CPU 0) sending
# to the AEAT's stand-in (scripts/aeat-standin.py on CPU 1, TiempoEsperaEnvio
# 1 s) and watches the backlog drain: how many requests and of what size, how
# long, and the server's resident memory (VmRSS, sampled every 0.1 s) before
# and at its peak while draining.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/aeat-standin-bench.sh
RECORDS=${1:-100000}
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_EMPRESA_NIF=B12345674 COMANDA_EMPRESA_RAZON_SOCIAL="Casa Pepe S.L." COMANDA_ZONA_HORARIA=Europe/Madrid COMANDA_SCRYPT_LOG_N=12
printf 'contraseña-de-carga\n' > "$WORK/pw"
"$BIN" create-staff --crear jefa --rol gerente --database "$WORK/b.sqlite" --password-file "$WORK/pw" >/dev/null
PID=""; STANDIN=""
trap '[ -z "$PID" ] || kill -TERM $PID 2>/dev/null; [ -z "$STANDIN" ] || kill $STANDIN 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
serve() {
  COMANDA_TRUSTED_ADDRESSES=127.0.0.1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/b.sqlite" --log-level notice \
    >>"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
}
COMANDA_SYNCHRONOUS=normal serve
python3 -c 'import sys; sys.path.insert(0, "scripts"); import benchapi; benchapi.write_pay_lua(sys.argv[1], sys.argv[2])' "$PORT" "$WORK/pay.lua"
count() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM registro").fetchone()[0])' "$WORK/b.sqlite"; }
while [ "$(count)" -lt "$RECORDS" ]; do taskset -c 1 wrk -t1 -c64 -d5s -s "$WORK/pay.lua" "http://127.0.0.1:$PORT" >/dev/null; done
kill -TERM $PID; wait $PID || true; PID=""
echo "records made with sending off: $(count)"

aeat_standin "$WORK"
START=$(date +%s.%N)
serve
python3 - "$PID" "$PORT" "$WORK/aeat/log.jsonl" "$START" <<'PY'
import http.client, json, sys, time
pid, port, log, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
first = rss()
sys.path.insert(0, "scripts")
from benchapi import Api
api = Api(port)
def call(method, path, body=None, token=None):
    return api.call(method, path, body)
peak, samples, last_check = first, 0, 0
while True:
    now = time.time()
    peak = max(peak, rss()); samples += 1
    if now - last_check > 0.5:
        last_check = now
        e = call("GET", "/verifactu/estado")
        if e["registros"]["sin_enviar"] == 0 or now - start > 900: break
    time.sleep(0.1)
took = time.time() - start
entries = [json.loads(l) for l in open(log)]
sizes = [len(x.get("registros", [])) for x in entries]
print(f"drained: {sum(sizes)} records in {len(entries)} requests ({sizes.count(1000)} of 1000, largest {max(sizes)}), "
      f"aceptados {e['registros']['aceptados']}, sin_enviar {e['registros']['sin_enviar']}, {took:.1f} s from the restart")
print(f"server VmRSS: {first:.1f} MiB once answering, peak {peak:.1f} MiB while draining ({samples} samples): +{peak - first:.1f} MiB")
PY
