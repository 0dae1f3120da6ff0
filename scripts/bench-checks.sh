#!/usr/bin/env bash
# bench-checks.sh: table service under load. Starts the release build on CPU 0
# (synchronous FULL unless COMANDA_SYNCHRONOUS says otherwise) with a fresh
# database: 64 tables seated, each with its open check; then from CPU 1
# (wrk -t1 -c64, 10 s after 2 s of warm-up) 64 waiters add a line to a check
# (POST /cuentas/{id}/lineas), and every 10th request of a check sends it
# (POST /cuentas/{id}/enviar: a comanda for the kitchen). Meanwhile a kitchen
# screen polls GET /cocina/comandas with If-None-Match once a second.
# KITCHEN [1]: 1, the kitchen at work (after each poll it readies the fired
# comandas it saw and serves the ready ones, as many as fit before the next
# poll a second after the last); poll, the
# screen polls once a second and nobody cooks (the board grows all run);
# 0, no kitchen.
# FLOOD [0]: 1, a flood beside the waiters from one client (wrk -t1 -c64 on
# CPU 1 too): the guests' POST /m/{token}/pide-cuenta on one table's link as
# fast as it is answered (a burst is taken, then 429 with Retry-After).
# PRINTERS [0]: 2, two network printers attached (scripts/fakeprinter.py on
# CPU 1, answering the status queries, keeping nothing): the kitchen's the
# default station, the bar's half the menu's categories (the waiters' eight
# dishes come from every category: a send prints at one or both).
# FROM_DB: a database to start from (copied; its manager jefa / contraseña-de-
# carga, as scripts/bench-year.sh makes one), e.g. a year of invoices.
# BESIDE: a command run in the background (with PORT and TOKEN, the manager's,
# in its environment) while the waiters' 10 s are measured, stopped after
# them; what it printed is shown (bench-caja-load.sh asks the year's cash
# report and CSV over and over meanwhile).
# Prints lines+sends per second, p50/p99, the write batches, and the kitchen
# poll's answers (200 / 304) and times. Compare with scripts/bench-orders.sh
# at the same COMANDA_SYNCHRONOUS, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-full}
printf 'contraseña-de-carga\n' > "$WORK/pw"
if [ -n "${FROM_DB:-}" ]; then
  cp "$FROM_DB" "$WORK/checks.sqlite"
else
  "$BIN" create-staff --crear jefa --rol gerente --database "$WORK/checks.sqlite" --password-file "$WORK/pw" >/dev/null
fi
"$BIN" create-staff --crear cocina --rol cocina --database "$WORK/checks.sqlite" --password-file "$WORK/pw" >/dev/null
# wrk connects from loopback: trusted on purpose (no per-client limit), said here.
COMANDA_TRUSTED_ADDRESSES=127.0.0.1 COMANDA_SCRYPT_LOG_N=12 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/checks.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; [ -z "${PRINTERS_PID:-}" ] || kill -TERM $PRINTERS_PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"; true' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
PRINTER_PORTS=""
PRINTERS_PID=""
if [ "${PRINTERS:-0}" -gt 0 ]; then
  taskset -c 1 python3 scripts/fakeprinter.py "$PRINTERS" > "$WORK/printers.txt" &
  PRINTERS_PID=$!
  for _ in $(seq 1 50); do [ -s "$WORK/printers.txt" ] && break; sleep 0.1; done
  PRINTER_PORTS=$(head -1 "$WORK/printers.txt")
fi
COOK=$(python3 - "$PORT" "$WORK/checks.lua" "$PRINTER_PORTS" <<'PY'
import json, sys, urllib.request
port, out = sys.argv[1], sys.argv[2]
printer_ports = [int(p) for p in sys.argv[3].split()] if len(sys.argv) > 3 and sys.argv[3] else []
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return json.load(r)
token = call("POST", "/sesiones", {"login": "jefa", "password": "contraseña-de-carga"})["token"]
cook = call("POST", "/sesiones", {"login": "cocina", "password": "contraseña-de-carga"})["token"]
menu = call("GET", "/platos")
# Eight dishes taken in turn from each category (drinks, starters, mains,
# desserts), as a table orders: with printers, most sends print at both.
by_tipo = {}
for p in menu: by_tipo.setdefault(p["tipo"], []).append(p["id"])
platos = []
while len(platos) < 8 and any(by_tipo.values()):
    for t in sorted(by_tipo):
        if by_tipo[t] and len(platos) < 8: platos.append(by_tipo[t].pop(0))
if printer_ports:
    ids = [call("POST", "/impresoras", {"nombre": f"Impresora {i + 1}", "host": "127.0.0.1", "puerto": p}, token)["id"] for i, p in enumerate(printer_ports)]
    tipos = sorted({p["tipo"] for p in menu})
    call("POST", "/estaciones", {"nombre": "Cocina", "impresora_id": ids[0], "por_defecto": True}, token)
    if len(ids) > 1:
        call("POST", "/estaciones", {"nombre": "Barra", "impresora_id": ids[1], "categorias": tipos[::2]}, token)
cuentas, enlaces = [], []
for i in range(1, 65):
    made = call("POST", "/mesas", {"nombre": f"C{i}", "zona": "Sala", "plazas": 4}, token)
    enlaces.append(made["enlace"])
    cuentas.append(call("POST", f"/mesas/{made['id']}/sentar", {"comensales": 4}, token)["id"])
with open(out, "w") as f:
    f.write('token = "%s"\ncuentas = {%s}\nplatos = {%s}\n' % (token, ",".join(map(str, cuentas)), ",".join(map(str, platos))))
with open(out + ".enlace", "w") as f:
    f.write(enlaces[0])
print(cook)
PY
)
# PRINTERS_DOWN=1: the printers are switched off once set up (the jobs queue, nothing prints).
if [ -n "$PRINTERS_PID" ] && [ "${PRINTERS_DOWN:-0}" = 1 ]; then kill -TERM "$PRINTERS_PID"; wait "$PRINTERS_PID" 2>/dev/null || true; PRINTERS_PID=""; fi
cat "$WORK/checks.lua" - > "$WORK/run.lua" <<'LUA'
-- Each request adds a line to a check; every 10th request of a check sends it.
local counter = 0
local sent = {}
request = function()
  counter = counter + 1
  local c = (counter % #cuentas) + 1
  local n = (sent[c] or 0) + 1
  sent[c] = n
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
  if n % 10 == 0 then return wrk.format("POST", "/cuentas/" .. cuentas[c] .. "/enviar", headers, "{}") end
  local plato = platos[(n % #platos) + 1]
  return wrk.format("POST", "/cuentas/" .. cuentas[c] .. "/lineas", headers,
                    '{"plato_id": ' .. plato .. ', "curso": ' .. ((n % 3) + 1) .. ', "notas": "sin sal"}')
end
LUA
taskset -c 1 wrk -t1 -c64 -d2s -s "$WORK/run.lua" "http://127.0.0.1:$PORT" >/dev/null
writes() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^comanda_db_write_transactions_total/{t=$2}/^comanda_db_write_requests_total/{r=$2}END{print t+0, r+0}'; }
# The kitchen's screen: a poll a second with the tag it last saw; the
# kitchen at work readies every fired comanda it sees, and the pass serves
# every ready one (so the list stays what a kitchen's is, not every send).
POLL=
[ "${KITCHEN:-1}" = 0 ] || taskset -c 1 python3 - "$PORT" "$COOK" "$(sed -n 's/^token = "\(.*\)"$/\1/p' "$WORK/checks.lua")" 12 "${KITCHEN:-1}" > "$WORK/poll.txt" <<'PY' &
import http.client, json, sys, time
port, cook, waiter, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
mark = sys.argv[5] == "1"
conn = http.client.HTTPConnection("127.0.0.1", int(port))
def call(method, path, token, headers=None):
    conn.request(method, path, body=b"{}" if method == "POST" else None,
                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json", **(headers or {})})
    r = conn.getresponse()
    return r.status, r.getheader("ETag"), r.read()
tag, counts, times, moves, size = None, {}, [], 0, 0
end = time.time() + seconds
while time.time() < end:
    t = time.time()
    status, new_tag, body = call("GET", "/cocina/comandas", cook, {"If-None-Match": tag} if tag else {})
    times.append((time.time() - t) * 1000)
    counts[status] = counts.get(status, 0) + 1
    if status == 200:
        tag, size = new_tag, len(body)
        for c in (json.loads(body) if mark else []):
            if time.time() - t > 0.9:
                break   # the next poll is due: what is left waits for it
            if c["estado"] == "marchada":
                call("POST", f"/cocina/comandas/{c['id']}/preparada", cook)
            else:
                call("POST", f"/cuentas/{c['cuenta_id']}/comandas/{c['id']}/servida", waiter)
            moves += 1
    time.sleep(max(0, 1 - (time.time() - t)))
times.sort()
print(f"kitchen poll: {counts} answers, median {times[len(times)//2]:.1f} ms, max {times[-1]:.1f} ms, last list {size} bytes; "
      f"{moves} comandas readied or served")
PY
[ "${KITCHEN:-1}" = 0 ] || POLL=$!
FLOODER=
if [ "${FLOOD:-0}" = 1 ]; then
  cat > "$WORK/flood.lua" <<LUA
request = function() return wrk.format("POST", "$(cat "$WORK/checks.lua.enlace")/pide-cuenta", { ["Content-Type"] = "application/json" }, "{}") end
LUA
  taskset -c 1 wrk -t1 -c64 -d10s -s "$WORK/flood.lua" "http://127.0.0.1:$PORT" > "$WORK/flood.txt" &
  FLOODER=$!
fi
BESIDER=
if [ -n "${BESIDE:-}" ]; then
  PORT=$PORT TOKEN=$(sed -n 's/^token = "\(.*\)"$/\1/p' "$WORK/checks.lua") taskset -c 1 bash -c "$BESIDE" > "$WORK/beside.txt" 2>&1 &
  BESIDER=$!
fi
read -r T0 R0 < <(writes)
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/run.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|50%|99%|Non-2xx|Socket|requests in'
read -r T1 R1 < <(writes)
[ -z "$BESIDER" ] || { kill -TERM "$BESIDER" 2>/dev/null; wait "$BESIDER" 2>/dev/null || true; echo "beside: $(tail -n 3 "$WORK/beside.txt" | tr '\n' ' ')"; }
echo "wal: $(stat -c %s "$WORK/checks.sqlite-wal" 2>/dev/null || echo 0) bytes"
if [ -n "$PRINTERS_PID" ]; then
  sleep 2
  python3 -c 'import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute("SELECT count(*), sum(estado <> ?) FROM trabajo", ("pendiente",)).fetchone(); print(f"print jobs: {r[0]} queued, {r[1] or 0} printed 2 s after the run")' "$WORK/checks.sqlite"
  kill -TERM "$PRINTERS_PID"; wait "$PRINTERS_PID" 2>/dev/null || true; PRINTERS_PID=""; tail -1 "$WORK/printers.txt"
fi
[ -z "$FLOODER" ] || { wait "$FLOODER"; echo "flood: $(grep -E 'requests in|Non-2xx' "$WORK/flood.txt" | tr -s ' ' | tr '\n' ' ')"; }
[ -z "$POLL" ] || { wait "$POLL"; cat "$WORK/poll.txt"; }
awk -v t=$((T1 - T0)) -v r=$((R1 - R0)) 'BEGIN { printf "writes: %d requests in %d transactions (%.1f per transaction)\n", r, t, t ? r / t : 0 }'
python3 - "$WORK/checks.sqlite" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
lines, pending, comandas = db.execute("SELECT (SELECT count(*) FROM linea_cuenta), (SELECT count(*) FROM linea_cuenta WHERE estado = 'pendiente'), (SELECT count(*) FROM comanda)").fetchone()
unsent = db.execute("SELECT count(*) FROM linea_cuenta WHERE estado != 'pendiente' AND comanda_id IS NULL").fetchone()[0]
print(f"lines: {lines} ({pending} pending), comandas: {comandas}; sent lines without a comanda: {unsent}; synchronous: {os.environ['COMANDA_SYNCHRONOUS']}")
sys.exit(0 if unsent == 0 else 1)
PY
