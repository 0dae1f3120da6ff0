#!/usr/bin/env bash
# bench-orders.sh: orders under load. Starts the release build on CPU 0 with a
# fresh database, makes 64 users each with an open order and one line, then
# runs wrk on CPU 1 (-t1 -c64 -d10s --latency, after a 2 s warm-up) with
# scripts/orders.lua: POST /pedidos/{id}/lineas (+1 of the dish) and
# PUT /pedidos/{id}/lineas/{linea} (back to 1), alternating, spread over the
# 64 users. SQLite: WAL, synchronous = NORMAL unless asked (every change is one write
# transaction; acknowledged changes survive kill -9: DurabilityTests). Also prints
# how many requests each write transaction held (group commit, /metrics).
# Prints wrk's figures and checks every line still holds 1..100.
set -euo pipefail
cd "$(dirname "$0")/.."
# COMANDA_BIN: another build to measure (e.g. the one before a change, for A/B runs).
BIN=${COMANDA_BIN:-.build/release/comanda}
[ -n "${COMANDA_BIN:-}" ] || swift build -c release >&2
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# COMANDA_SYNCHRONOUS [normal]: as the figures in docs/PERFORMANCE.md and the
# peers; "full" (the server's default) syncs every commit.
export COMANDA_SYNCHRONOUS=${COMANDA_SYNCHRONOUS:-normal}
COMANDA_SCRYPT_LOG_N=12 COMANDA_TRUSTED_ADDRESSES=127.0.0.1,::1 taskset -c 0 "$BIN" serve --host 127.0.0.1 --port "$PORT" \
  --database "$WORK/orders.sqlite" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
python3 - "$PORT" "$WORK/users.lua" <<'PY'
import json, sys, urllib.request
port, out = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return json.load(r)
plato = call("GET", "/platos")[0]["id"]
rows = []
for i in range(64):
    call("POST", "/usuarios", {"nombre": f"Cliente {i}", "login": f"carga{i}", "password": "contraseña-de-carga"})
    token = call("POST", "/sesiones", {"login": f"carga{i}", "password": "contraseña-de-carga"})["token"]
    pedido = call("POST", "/pedidos", token=token)["id"]
    linea = call("POST", f"/pedidos/{pedido}/lineas", {"plato_id": plato}, token=token)["id"]
    rows.append(f'{{token="{token}", pedido={pedido}, linea={linea}}}')
with open(out, "w") as f:
    f.write("users = {" + ",".join(rows) + "}\nplato = " + str(plato) + "\n")
PY
cat "$WORK/users.lua" scripts/orders.lua > "$WORK/run.lua"
taskset -c 1 wrk -t1 -c64 -d2s -s "$WORK/run.lua" "http://127.0.0.1:$PORT" >/dev/null
# Group commit: write transactions and the requests they held, during the run.
writes() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^comanda_db_write_transactions_total/{t=$2}/^comanda_db_write_requests_total/{r=$2}END{print t+0, r+0}'; }
read -r T0 R0 < <(writes)
taskset -c 1 wrk -t1 -c64 -d10s --latency -s "$WORK/run.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|50%|99%|Non-2xx|Socket|requests in'
read -r T1 R1 < <(writes)
awk -v t=$((T1 - T0)) -v r=$((R1 - R0)) 'BEGIN { printf "writes: %d requests in %d transactions (%.1f per transaction)\n", r, t, t ? r / t : 0 }'
python3 - "$WORK/orders.sqlite" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
lo, hi, n = db.execute("SELECT MIN(cantidad), MAX(cantidad), COUNT(*) FROM linea_pedido").fetchone()
print(f"lines: {n}, cantidad between {lo} and {hi}; synchronous: {os.environ['COMANDA_SYNCHRONOUS']}, journal: {db.execute('PRAGMA journal_mode').fetchone()[0]}")
sys.exit(0 if n == 64 and lo >= 1 and hi <= 100 else 1)
PY
