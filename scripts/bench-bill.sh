#!/usr/bin/env bash
# bench-bill.sh: payments under load. Starts the release build on CPU 0
# (synchronous FULL unless COMANDA_SYNCHRONOUS says otherwise) with a fresh
# database and a company set: CHECKS tables (default 2048) seated, each
# check with 10 sent steaks (450 €); then from CPU 1 (wrk -t1 -c64, 10 s after
# 2 s of warm-up) 64 waiters take payments of 0,01 € by card, round robin
# over the checks (so a check has a few invoices, as a real one has; CHECKS=64
# gives each hundreds): every request a new invoice, its number taken and its
# billing record chained in the same transaction. Then, in the same run and against
# the same server, the same 64 clients add lines to those checks (the
# line-adding rate beside it). Prints invoices/s, p50/p99, the write
# batches, lines/s, and checks afterwards that the numbers have no gap and
# that `comanda verifactu verificar` finds the chain intact.
# VERIFACTU=1: the records are sent meanwhile (envio pruebas) to the AEAT's
# stand-in (scripts/aeat-standin.py on CPU 1 at nice 19, so that it never
# delays wrk's own measuring; TiempoEsperaEnvio 1 s, TLS with a client certificate); afterwards it waits until all are accepted and says
# how many requests took them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/aeat-standin-bench.sh
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release --product comanda >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-full} COMANDA_EMPRESA_NIF=B12345674 COMANDA_ZONA_HORARIA=Europe/Madrid
printf 'contraseña-de-carga\n' > "$WORK/pw"
STANDIN=""
if [ "${VERIFACTU:-0}" = 1 ]; then
  aeat_standin "$WORK"
fi
"$BIN" create-staff --crear jefa --rol gerente --database "$WORK/bill.sqlite" --password-file "$WORK/pw" >/dev/null
# wrk connects from loopback: trusted on purpose (no per-client limit), said here.
COMANDA_TRUSTED_ADDRESSES=127.0.0.1 COMANDA_SCRYPT_LOG_N=12 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/bill.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; [ -z "$STANDIN" ] || kill $STANDIN 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
python3 - "$PORT" "$WORK/setup.lua" "${CHECKS:-2048}" <<'PY'
import http.client, json, sys
port, out, checks = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, "scripts")
from benchapi import Api
api = Api(port)
token = api.token
def call(method, path, body=None, token=None):
    return api.call(method, path, body)
plato = [p["id"] for p in call("GET", "/platos") if p["nombre"] == "Chuletón de ternera"][0]
cuentas = []
for i in range(1, checks + 1):
    mesa = call("POST", "/mesas", {"nombre": f"T{i}", "zona": "Sala", "plazas": 4}, token)["id"]
    cuenta = call("POST", f"/mesas/{mesa}/sentar", {"comensales": 4}, token)["id"]
    call("POST", f"/cuentas/{cuenta}/lineas", {"plato_id": plato, "cantidad": 10}, token)
    call("POST", f"/cuentas/{cuenta}/enviar", {}, token)
    cuentas.append(cuenta)
with open(out, "w") as f:
    f.write('token = "%s"\ncuentas = {%s}\nplato = %d\n' % (token, ",".join(map(str, cuentas)), plato))
PY
cat "$WORK/setup.lua" - > "$WORK/pay.lua" <<'LUA'
-- Each request pays 0,01 € of a check by card: a new invoice and record each time.
local counter = 0
request = function()
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  return wrk.format("POST", "/cuentas/" .. cuentas[(counter % #cuentas) + 1] .. "/cobros", headers, '{"metodo": "tarjeta", "importe": 0.01}')
end
LUA
cat "$WORK/setup.lua" - > "$WORK/lines.lua" <<'LUA'
-- Each request adds a line to a check (not sent: a check's lines, as a waiter adds them).
local counter = 0
request = function()
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  return wrk.format("POST", "/cuentas/" .. cuentas[(counter % #cuentas) + 1] .. "/lineas", headers, '{"plato_id": ' .. plato .. ', "notas": "sin sal"}')
end
LUA
writes() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^comanda_db_write_transactions_total/{t=$2}/^comanda_db_write_requests_total/{r=$2}END{print t+0, r+0}'; }
taskset -c 1 wrk -t1 -c64 -d2s -s "$WORK/pay.lua" "http://127.0.0.1:$PORT" >/dev/null
read -r T0 R0 < <(writes)
echo "payments (one invoice and one billing record each):"
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/pay.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|50%|99%|Non-2xx|Socket|requests in'
read -r T1 R1 < <(writes)
[ -z "$STANDIN" ] || echo "stand-in CPU time so far: $(ps -o cputime= -p $STANDIN)"
awk -v t=$((T1 - T0)) -v r=$((R1 - R0)) 'BEGIN { printf "writes: %d requests in %d transactions (%.1f per transaction)\n", r, t, t ? r / t : 0 }'
echo "lines added to the same checks, same server, same run:"
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/lines.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|50%|99%|Non-2xx|Socket|requests in'
python3 - "$WORK/bill.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n, lo, hi, records = db.execute("SELECT count(*), min(secuencia), max(secuencia), (SELECT count(*) FROM registro) FROM factura").fetchone()
print(f"invoices: {n}, numbered {lo}…{hi}, records: {records}")
sys.exit(0 if n == hi - lo + 1 == records else 1)
PY
"$BIN" verifactu verificar --database "$WORK/bill.sqlite"
if [ -n "$STANDIN" ]; then
  python3 - "$PORT" "$WORK/aeat/log.jsonl" <<'PY'
import http.client, json, sys, time
port, log = sys.argv[1], sys.argv[2]
sys.path.insert(0, "scripts")
from benchapi import Api
api = Api(port)
token = api.token
def call(method, path, body=None, token=None):
    return api.call(method, path, body)
start = time.time()
while True:
    e = call("GET", "/verifactu/estado")
    if e["registros"]["sin_enviar"] == 0 or time.time() - start > 120: break
    time.sleep(0.2)
entries = [json.loads(l) for l in open(log)]
sizes = [len(x.get("registros", [])) for x in entries]
early = sum(1 for x in entries if x.get("temprana"))
print(f"sent to the stand-in: {sum(sizes)} records in {len(entries)} requests (largest {max(sizes or [0])}), "
      f"aceptados {e['registros']['aceptados']}, sin_enviar {e['registros']['sin_enviar']}, early requests {early}, "
      f"all sent {time.time() - start:.1f} s after the load")
PY
fi
